import type { Candidate, EntityType } from './types.js';

/**
 * One mapping per trace from (type, normalised value) to a placeholder such as `<EMAIL_1>`. It lives only as long
 * as the object: never stored, returned or logged.
 */
export class Pseudonymizer {
  readonly #placeholders = new Map<string, string>();
  readonly #counters = new Map<EntityType, number>();

  placeholderFor(type: EntityType, normalized: string): string {
    const key = `${type}\u0000${normalized}`;
    let placeholder = this.#placeholders.get(key);
    if (placeholder === undefined) {
      const n = (this.#counters.get(type) ?? 0) + 1;
      this.#counters.set(type, n);
      placeholder = `<${type}_${n}>`;
      this.#placeholders.set(key, placeholder);
    }
    return placeholder;
  }
}

/** A replacement made in one field; `in*` positions are in the input text, `out*` in the output text. */
export interface Replacement {
  type: EntityType;
  score: number;
  inStart: number;
  inEnd: number;
  outStart: number;
  outEnd: number;
  placeholder: string;
}

/** Replaces the (sorted, disjoint) candidates of one text with their placeholders. */
export function replaceAll(
  text: string,
  candidates: Candidate[],
  pseudonymizer: Pseudonymizer,
): { text: string; replacements: Replacement[] } {
  let out = '';
  let cursor = 0;
  const replacements: Replacement[] = [];
  for (const c of candidates) {
    const placeholder = pseudonymizer.placeholderFor(c.type, c.normalized);
    out += text.slice(cursor, c.start);
    const outStart = out.length;
    out += placeholder;
    replacements.push({
      type: c.type,
      score: c.score,
      inStart: c.start,
      inEnd: c.end,
      outStart,
      outEnd: out.length,
      placeholder,
    });
    cursor = c.end;
  }
  out += text.slice(cursor);
  return { text: out, replacements };
}

/** Matches the placeholders this module writes. */
export const PLACEHOLDER_PATTERN =
  /<(?:PERSON|EMAIL|PHONE|ES_NIF|ES_NIE|IBAN|CREDIT_CARD|IP_ADDRESS|ADDRESS|DATE_OF_BIRTH|SECRET|URL|ID)_\d+>/g;
