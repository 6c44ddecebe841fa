/** Parses the JSONL input of `ragwatch evaluate`: one `{id?, question, answer, contexts, reference?, language?}` per line. */
import { z } from 'zod';
import type { RagSample } from '../../sample.js';

const lineSchema = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  question: z.string({ error: 'question must be a string' }),
  answer: z.string({ error: 'answer must be a string' }),
  contexts: z.array(z.string({ error: 'contexts must be strings' }), { error: 'contexts must be an array of strings' }),
  reference: z.string({ error: 'reference must be a string' }).nullish(),
  language: z.enum(['es', 'en'], { error: "language must be 'es' or 'en'" }).nullish(),
});

export type ParsedLine = { line: number; sample: RagSample } | { line: number; error: string };

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** One entry per non-blank line, numbered from 1 as an editor shows them. */
export function parseInputLines(text: string): ParsedLine[] {
  const out: ParsedLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      // JSON.parse's message quotes the line (personal data, terminal escape bytes): never repeat it.
      out.push({ line, error: 'not valid JSON' });
      return;
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => {
        const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        const absent = issue.code === 'invalid_type' && valueAt(json, issue.path) === undefined;
        return absent ? `${where}is required` : `${where}${issue.message}`;
      });
      out.push({ line, error: problems.join('; ') });
      return;
    }
    const v = parsed.data;
    const sample: RagSample = {
      traceId: v.id === undefined ? `line-${line}` : String(v.id),
      question: v.question,
      answer: v.answer,
      contexts: v.contexts,
      meta: { line },
    };
    if (v.reference !== undefined && v.reference !== null) sample.reference = v.reference;
    if (v.language !== undefined && v.language !== null) sample.language = v.language;
    out.push({ line, sample });
  });
  return out;
}
