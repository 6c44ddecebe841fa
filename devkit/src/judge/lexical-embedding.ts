/**
 * Deterministic embedding vectors from lexical features, so texts sharing words have a higher cosine:
 * a hashed bag of content words (weight 1), word bigrams (0.5) and character trigrams of each word (0.25),
 * signed by a second hash bit to keep collisions unbiased, L2-normalised; then a constant component of the
 * same norm shared by every text, as real embedding models are anisotropic. So the cosine of two texts is
 * (1 + lexical cosine) / 2: 1 for the same words, about 0.5 for texts with nothing in common, never a zero
 * vector (text without words is the shared component alone). A faint feature of the exact text (weight 1e-6)
 * keeps two different texts from getting bit-identical vectors, as no real model gives them; ragwatch takes
 * identical vectors for different texts for a server that embedded nothing.
 */
import { contentWords } from './lexical.js';

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Index 0 holds the shared component; features hash into the rest. */
function add(vector: Float64Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  const index = 1 + (h % (vector.length - 1));
  const sign = (h >>> 31) & 1 ? -1 : 1;
  vector[index] = (vector[index] ?? 0) + sign * weight;
}

export function lexicalEmbedding(text: string, dim: number): number[] {
  if (!(dim >= 2)) throw new RangeError(`embedding dimension must be at least 2 (got ${dim})`);
  const vector = new Float64Array(dim);
  const ws = contentWords(text);
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    add(vector, `w:${w}`, 1);
    if (i + 1 < ws.length) add(vector, `b:${w} ${ws[i + 1]}`, 0.5);
    const padded = `^${w}$`;
    for (let j = 0; j + 3 <= padded.length; j++) add(vector, `c:${padded.slice(j, j + 3)}`, 0.25);
  }
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (norm === 0) {
    vector[0] = 1;
  } else {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 1; i < dim; i++) vector[i] = vector[i]! * inv * Math.SQRT1_2;
    vector[0] = Math.SQRT1_2;
  }
  add(vector, `t:${text}`, 1e-6);
  let total = 0;
  for (const x of vector) total += x * x;
  const unit = 1 / Math.sqrt(total);
  return Array.from(vector, (x) => x * unit);
}

/** Little-endian float32 bytes in base64: what OpenAI-compatible servers send for `encoding_format: 'base64'`. */
export function toBase64(vector: number[]): string {
  const floats = new Float32Array(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
