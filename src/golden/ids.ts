import { createHash } from 'node:crypto';

/**
 * Deterministic ids and draws. Every id the builder writes derives from content and configuration, so a
 * repeated build or upload writes the same ids (Langfuse upserts them) instead of adding rows.
 */

export function sha256(...parts: readonly unknown[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(typeof part === 'string' ? part : JSON.stringify(part)).update('\0');
  return hash.digest('hex');
}

/** A UUID-formatted hash (version nibble 8: custom, as the score ids). */
export function uuidFrom(...parts: readonly unknown[]): string {
  const hex = sha256(...parts);
  const variant = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A draw in [0, 1) fixed by the parts: the same parts always draw the same number. */
export function uniform(...parts: readonly unknown[]): number {
  return parseInt(sha256(...parts).slice(0, 13), 16) / 2 ** 52;
}

/** The items in the order of their draws (ties by key): a seeded shuffle that is stable item by item. */
export function drawOrder<T>(items: readonly T[], key: (item: T) => string, ...seed: readonly unknown[]): T[] {
  return items
    .map((item) => ({ item, k: key(item), u: uniform(...seed, key(item)) }))
    .sort((a, b) => a.u - b.u || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((x) => x.item);
}

export const candidateId = (seedKey: string, index: number): string =>
  uuidFrom('ragwatch-golden-candidate-v1', seedKey, index);

/** The review trace of a candidate: an OpenTelemetry trace id (32 hex digits). */
export const reviewTraceId = (candidateId: string): string =>
  sha256('ragwatch-golden-review-v1', candidateId).slice(0, 32);

/** A published item's id: dataset item ids are project-wide in Langfuse, so each version has its own. */
export const publishedItemId = (datasetName: string, candidateId: string): string =>
  uuidFrom('ragwatch-golden-item-v1', datasetName, candidateId);

/**
 * Shares of `total` per key in proportion to `weights` (largest remainder), each at most `caps[key]`; with
 * `atLeastOne`, every key with room and weight gets one first when the total allows. Deterministic: ties go to
 * the key that sorts first.
 */
export function allocate(
  total: number,
  weights: Record<string, number>,
  caps: Record<string, number>,
  atLeastOne = false,
): Record<string, number> {
  const keys = Object.keys(weights).sort();
  const out: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  const room = (k: string) => (caps[k] ?? Infinity) - out[k]!;
  const capacity = keys.filter((k) => weights[k]! > 0).reduce((s, k) => s + (caps[k] ?? Infinity), 0);
  let left = Math.max(0, Math.min(total, capacity));
  if (atLeastOne) {
    const live = keys.filter((k) => weights[k]! > 0 && room(k) > 0);
    if (left >= live.length) {
      for (const k of live) out[k]! += 1;
      left -= live.length;
    }
  }
  while (left > 0) {
    const live = keys.filter((k) => weights[k]! > 0 && room(k) > 0);
    if (live.length === 0) break;
    const weight = live.reduce((s, k) => s + weights[k]!, 0);
    const exact = live.map((k) => ({ k, share: (left * weights[k]!) / weight }));
    let given = 0;
    for (const { k, share } of exact) {
      const n = Math.min(Math.floor(share), room(k));
      out[k]! += n;
      given += n;
    }
    left -= given;
    if (left <= 0) break;
    const byRemainder = exact
      .filter(({ k }) => room(k) > 0)
      .sort((a, b) => (b.share % 1) - (a.share % 1) || (a.k < b.k ? -1 : 1));
    for (const { k } of byRemainder) {
      if (left <= 0) break;
      out[k]! += 1;
      left -= 1;
    }
  }
  return out;
}

/** A short hash of a chunk's text, kept beside its id in the items so that `golden diff` can tell a changed chunk. */
export function chunkTextHash(text: string): string {
  return sha256('ragwatch-golden-chunk-text-v1', text).slice(0, 16);
}
