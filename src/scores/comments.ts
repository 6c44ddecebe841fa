/** Score comments: the judge's reason, one line, short, and published only when it holds no personal data. */
import type { SampleAnonymizer } from '../anonymize/index.js';
import type { ReadCut } from '../langfuse/index.js';

export const MAX_COMMENT_LENGTH = 500;

/** One line, at most `max` characters (an ellipsis marks a cut). */
export function shortenComment(text: string, max = MAX_COMMENT_LENGTH): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

/**
 * The judge's reason can only quote the anonymized sample; it is still checked for personal data: published as
 * it is when the anonymizer finds nothing in it, otherwise run through the anonymizer again and dropped (null)
 * if anything personal survives.
 */
export function publishableComment(anonymizer: SampleAnonymizer, traceId: string, text: string): string | null {
  try {
    if (anonymizer.isClean?.(text)) return text || null;
    const again = anonymizer.anonymizeSample({ traceId, question: '', answer: text, contexts: [], meta: {} });
    return again.residual.length > 0 ? null : again.sample.answer || null;
  } catch {
    return null;
  }
}

/** The comment's opening when the trace was cut as it was read: the score is about part of the trace. */
export function readCutNote(cut: ReadCut): string {
  const count = (n: number, what: string) => (n > 0 ? `${n} ${what}${n === 1 ? '' : 's'}` : '');
  const parts = [count(cut.fieldsCut, 'text'), count(cut.valuesDropped, 'value')];
  const [texts, values] = parts;
  const said = [texts ? `${texts} cut` : '', values ? `${values} left out` : ''].filter(Boolean).join(', ');
  return `[trace over ragwatch's read budget: ${said}; scored on what was kept]`;
}
