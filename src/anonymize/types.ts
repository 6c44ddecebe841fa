import type { TextFacts } from './text/facts.js';

/** Kinds of personal data the anonymizer recognises; each becomes a `<TYPE_N>` placeholder. */
export const ENTITY_TYPES = [
  'PERSON',
  'EMAIL',
  'PHONE',
  'ES_NIF',
  'ES_NIE',
  'IBAN',
  'CREDIT_CARD',
  'IP_ADDRESS',
  'ADDRESS',
  'DATE_OF_BIRTH',
  'SECRET',
  'URL',
  'ID',
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Types whose values are confirmed by a checksum or a standard parser: they must never leak. */
export const VALIDATED_TYPES: readonly EntityType[] = [
  'EMAIL',
  'PHONE',
  'ES_NIF',
  'ES_NIE',
  'IBAN',
  'CREDIT_CARD',
  'IP_ADDRESS',
];

/** An entity that was replaced; positions are in the OUTPUT text of the named field. */
export interface DetectedEntity {
  type: EntityType;
  /** 'question' | 'answer' | 'contexts[2]' | 'reference' | 'text' */
  field: string;
  start: number;
  end: number;
  score: number;
}

/** A span a recognizer proposes in the INPUT text. `normalized` keys the pseudonym mapping and never leaves the process. */
export interface Candidate {
  type: EntityType;
  start: number;
  end: number;
  score: number;
  normalized: string;
  /**
   * Other keys the same value may have, computed on demand: a nationally written phone number valid in several
   * regions, a numeric date that reads day-first or month-first. One is taken when the trace shows the value
   * under it elsewhere ("+57 301 …" next to "301 …").
   */
  alternatives?: () => readonly string[];
  /**
   * Replaced as a precaution only: a run of digits no label names and no validator confirms (identifiers/layer.ts,
   * deny by default). Such spans are redacted but are not counted as personal data (the answer-leak check).
   */
  precaution?: true;
}

export interface Recognizer {
  /** Stable name, one per file under recognizers/. */
  readonly name: string;
  readonly types: readonly EntityType[];
  /**
   * Scans the text once and returns every candidate, including low-scoring ones; the analyzer applies the threshold.
   * `facts` (computed once per text by the analyzer) lets a recognizer skip texts its pattern cannot match.
   */
  find(text: string, facts?: TextFacts): Candidate[];
}
