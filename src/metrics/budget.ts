/**
 * Deterministic token budgets for what goes to the judge. Counting uses a tokenizer-free estimate that errs
 * on the high side of BPE tokenizers (cl100k, Llama 3) for English and Spanish, so a text within budget here
 * is within budget for the judge too. A cut text ends with the marker the prompts explain (" […]").
 */

export const CUT_MARKER = ' […]';

const PIECE = /(\p{L}+)|(\p{N}+)|[^\s\p{L}\p{N}]/gu;

/** Tokens of one piece: a letter run (ASCII-only runs are cheaper), a number run, or one symbol. */
function matchTokens(m: RegExpExecArray): number {
  const letters = m[1];
  if (letters !== undefined) return Math.max(1, Math.ceil(letters.length / (isAscii(letters) ? 7 : 4)));
  const digits = m[2];
  if (digits !== undefined) return Math.ceil(digits.length / 3);
  return 1;
}

/** A letter run is ASCII exactly when every code unit is below 128 (the ASCII letters are A–Z, a–z). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** Estimated token count of a text. */
export function estimateTokens(text: string): number {
  let n = 0;
  const re = new RegExp(PIECE);
  for (let m = re.exec(text); m !== null; m = re.exec(text)) n += matchTokens(m);
  return n;
}

export interface Fitted {
  text: string;
  truncated: boolean;
  originalTokens: number;
  keptTokens: number;
}

/** Keeps the longest word-aligned prefix of `text` within `budget` tokens, marking a cut. */
export function fitText(text: string, budget: number): Fitted {
  const originalTokens = estimateTokens(text);
  if (originalTokens <= budget) return { text, truncated: false, originalTokens, keptTokens: originalTokens };
  const room = Math.max(0, budget - estimateTokens(CUT_MARKER));
  let used = 0;
  let end = 0;
  const re = new RegExp(PIECE);
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const cost = matchTokens(m);
    if (used + cost > room) break;
    used += cost;
    end = m.index + m[0].length;
  }
  // Prefer ending at a word boundary: drop a partial word glued to the next piece.
  let cut = text.slice(0, end);
  const nextChar = text.charAt(end);
  if (nextChar !== '' && /[\p{L}\p{N}]/u.test(nextChar)) {
    const lastSpace = cut.search(/\s\S*$/u);
    if (lastSpace > 0) cut = cut.slice(0, lastSpace);
  }
  const kept = `${cut.trimEnd()}${CUT_MARKER}`;
  return { text: kept, truncated: true, originalTokens, keptTokens: estimateTokens(kept) };
}

/**
 * Fits retrieved chunks into one shared budget without dropping any chunk (each keeps its own verdict):
 * short chunks keep everything, and what they leave is shared equally among the long ones (water-filling).
 */
export function fitChunks(chunks: readonly string[], budget: number): { chunks: Fitted[]; truncated: boolean } {
  const sizes = chunks.map(estimateTokens);
  const allowance = new Array<number>(chunks.length).fill(0);
  const order = sizes.map((size, i) => ({ size, i })).sort((a, b) => a.size - b.size || a.i - b.i);
  let remaining = budget;
  order.forEach(({ size, i }, rank) => {
    const fair = Math.floor(remaining / (order.length - rank));
    const give = Math.min(size, fair);
    allowance[i] = give;
    remaining -= give;
  });
  const fitted = chunks.map((c, i) => fitText(c, Math.max(allowance[i] ?? 0, 1)));
  return { chunks: fitted, truncated: fitted.some((f) => f.truncated) };
}
