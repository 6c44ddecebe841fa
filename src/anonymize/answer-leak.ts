/**
 * The answer-leak check: personal data in a RAG answer that neither its question nor its retrieved contexts held,
 * i.e. the service giving out data it was not asked about and did not retrieve (another customer's e-mail, a
 * phone from its memory). Run on the sample BEFORE anonymization, with the anonymizer's own recognizers, and
 * counted per type; no value leaves this function, only counts.
 *
 * Only types a validator confirms (e-mail, phone valid in a numbering plan, IBAN, card, NIF, NIE, IP address) and
 * identifiers a label names ("nº de socio 00452981") count. Names, addresses and dates are left out (too many
 * false alarms: the answer greets the customer by the name the CRM gave it), and so are the digit runs the
 * identifier layer replaces as a precaution (order numbers, references).
 */
import { createAnalyzer, type AnalyzerOptions } from './analyzer.js';
import type { RagSample } from '../sample.js';
import { VALIDATED_TYPES, type Candidate, type EntityType } from './types.js';

/** The types the check counts: the validated ones and labelled identifiers. */
export const LEAK_TYPES: readonly EntityType[] = [...VALIDATED_TYPES, 'ID'];

export interface AnswerLeak {
  /** Distinct values of the answer found in neither the question nor the contexts. */
  total: number;
  /** The same, per type; types with none are absent. */
  byType: Partial<Record<EntityType, number>>;
}

export type AnswerLeakCheck = (sample: Pick<RagSample, 'question' | 'answer' | 'contexts'>) => AnswerLeak;

const counted = (c: Candidate) => LEAK_TYPES.includes(c.type) && c.precaution !== true;
/** Letters and digits, upper case: "ES91 2100…" and "es9121…", "+34 612…" and "+34612…" are one value. */
const compact = (s: string) => s.replace(/[^\p{L}\p{N}+]/gu, '').toUpperCase();

/** Every key a value may be known by: its normalized form, its alternatives, and its compacted spelling. */
function keysOf(c: Candidate, text: string): string[] {
  const keys = [c.normalized, compact(c.normalized), compact(text.slice(c.start, c.end))];
  if (c.alternatives) keys.push(...c.alternatives());
  return keys;
}

/** The check, with the anonymizer's recognizers and options (`anonymize.phoneRegions`, `threshold`, labels). */
export function createAnswerLeakCheck(options: AnalyzerOptions): AnswerLeakCheck {
  const analyzer = createAnalyzer(options);
  return (sample) => {
    const known = new Set<string>();
    const sources = [sample.question, ...sample.contexts];
    // Every entity of the sources counts as known, whatever its type: a value the contexts hold is no leak.
    for (const text of sources) for (const c of analyzer.analyze(text)) for (const k of keysOf(c, text)) known.add(k);
    // So is a value the sources wrote without it being recognised there (an e-mail inside a URL, a split IBAN).
    const compacted = sources.map(compact);
    const leaked = new Map<string, EntityType>();
    for (const c of analyzer.analyze(sample.answer)) {
      if (!counted(c)) continue;
      const keys = keysOf(c, sample.answer);
      if (keys.some((k) => known.has(k))) continue;
      const spelled = compact(sample.answer.slice(c.start, c.end));
      if (spelled.length >= 6 && compacted.some((t) => t.includes(spelled))) continue;
      if (!leaked.has(c.normalized)) leaked.set(c.normalized, c.type);
    }
    const byType: Partial<Record<EntityType, number>> = {};
    for (const type of leaked.values()) byType[type] = (byType[type] ?? 0) + 1;
    return { total: leaked.size, byType };
  };
}
