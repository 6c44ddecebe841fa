/**
 * Deterministic token budgets for what goes to the judge. Counting uses a tokenizer-free estimate that errs
 * on the high side of BPE tokenizers (cl100k, Llama 3) for English and Spanish, so a text within budget here
 * is within budget for the judge too. A cut text ends with the marker the prompts explain (" […]").
 */

export const CUT_MARKER = ' […]';

const PIECE = /\p{L}+|\p{N}+|[^\s\p{L}\p{N}]/gu;

function pieceTokens(piece: string): number {
  if (/^\p{L}/u.test(piece)) return Math.max(1, Math.ceil(piece.length / (/^[A-Za-z]+$/.test(piece) ? 7 : 4)));
  if (/^\p{N}/u.test(piece)) return Math.ceil(piece.length / 3);
  return 1;
}

/** Estimated token count of a text. */
export function estimateTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(PIECE)) n += pieceTokens(m[0]);
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
  for (const m of text.matchAll(PIECE)) {
    const cost = pieceTokens(m[0]);
    if (used + cost > room) break;
    used += cost;
    end = (m.index ?? 0) + m[0].length;
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
