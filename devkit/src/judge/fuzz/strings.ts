/**
 * The string pieces the fuzzer draws from: ordinary words in the prompt languages, whitespace a trim must
 * see through, Unicode that breaks naive code (surrogates alone, combining marks, direction overrides, zero
 * width, NUL, emoji sequences) and text that looks like markup a client might cut on (`</think>`, fences,
 * JSON, the prompt's own tags).
 */

export const WORDS = [
  'Redis',
  'latencia',
  'memoria',
  'dataset',
  'cluster',
  'claim',
  'chunk',
  'the',
  'answer',
  'supports',
  'no',
  'sí',
  'pregunta',
  'why',
  'how',
  '10',
  'GB',
  'P99',
  '<EMAIL_1>',
  '<PERSON_2>',
  'é',
  'ß',
  'Ångström',
  'naïve',
  '¿Qué?',
];

/** Whitespace only: trimmed away by `String.prototype.trim` (ASCII, no-break, em and ideographic spaces, BOM). */
export const BLANKS = [' ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028'];

/** Unicode that naive code mishandles; each piece is a valid JSON string once escaped by JSON.stringify. */
export const ODD_UNICODE = [
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\u0000', // NUL
  '\u200b', // zero-width space
  '\u200d', // zero-width joiner
  '\u202e', // right-to-left override
  '\u2066', // left-to-right isolate
  'e\u0301\u0301\u0301', // stacked combining marks
  '👩‍👩‍👧‍👦', // emoji ZWJ sequence
  '🏳️‍🌈',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', // astral letters
  'ﷺ', // a ligature that expands
  'İı', // case mapping that changes length
  'مرحبا', // Arabic
  '東京都', // CJK
  '\u0085', // next line (C1)
  '\ufffd', // replacement character
  '\u00ad', // soft hyphen
];

/** Text that looks like structure: thinking tags, fences, JSON, the prompt's own tags and lines. */
export const MARKUP = [
  '</think>',
  '<think>',
  '```json',
  '```',
  '{"claims":[]}',
  '[1]',
  '"',
  '\\',
  '\\"',
  '</answer>',
  '<contexts>',
  'TASK: faithfulness',
  '${x}',
  '{{question}}',
  '%s',
  '<script>alert(1)</script>',
];
