import { createHash } from 'node:crypto';

/**
 * Trace names are chosen by the instrumented app, and a careless app names a trace after the user's question.
 * ragwatch keeps a name only where it reads as an identifier an app gives its traces (a letter, then letters,
 * digits, ` _.:/#-`, at most three spaces, no run of five digits, no `@`, no capitalised word after the first, as
 * a person's name would have): "rag-answer", "support-bot/v2", "POST /chat" ("Pregunta de Ana" is not). Any
 * other name is kept as `#` and the first 16 hex digits of its SHA-256: the same name groups with itself (status,
 * calibration strata) and its text is gone. The ledger stores this key, metric labels and printed names derive
 * from it.
 */

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9 _.:/#-]{0,79}$/;
const HASHED = /^#[0-9a-f]{16}$/;

/** A name an app gives its traces, safe to keep as written. */
export function isIdentifierName(name: string): boolean {
  return (
    IDENTIFIER.test(name) &&
    (name.match(/ /g)?.length ?? 0) <= 3 &&
    !/\d{5}/.test(name) &&
    !/ [A-Z][a-z]/.test(name) &&
    name !== 'other' &&
    name !== 'unnamed'
  );
}

/** A key `traceNameKey` made of a name it did not keep. */
export const isHashedTraceName = (key: string): boolean => HASHED.test(key);

/** What ragwatch keeps of a trace name: the name when it is an identifier, else its hash; a key stays itself. */
export function traceNameKey(name: string | null | undefined): string | null {
  if (name === null || name === undefined) return null;
  if (isIdentifierName(name) || isHashedTraceName(name)) return name;
  return `#${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 16)}`;
}

/**
 * The same decision in PostgreSQL, for the migration that rewrites rows stored before it: `column`'s key. PostgreSQL's
 * regular expressions compare code points in bracket ranges, as JavaScript's do.
 */
export function traceNameKeySql(column: string): string {
  return `CASE
    WHEN ${column} IS NULL THEN NULL
    WHEN ${column} ~ '^#[0-9a-f]{16}$' THEN ${column}
    WHEN ${column} ~ '^[A-Za-z][A-Za-z0-9 _.:/#-]{0,79}$'
      AND length(${column}) - length(replace(${column}, ' ', '')) <= 3
      AND ${column} !~ '[0-9]{5}'
      AND ${column} !~ ' [A-Z][a-z]'
      AND ${column} NOT IN ('other', 'unnamed') THEN ${column}
    ELSE '#' || substr(encode(sha256(convert_to(${column}, 'UTF8')), 'hex'), 1, 16)
  END`;
}
