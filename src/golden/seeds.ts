import { allocate, drawOrder, sha256 } from './ids.js';
import type { PersonalDataCheck } from './ports.js';
import type { Chunk } from './types.js';

/**
 * Seed chunks: which chunks may seed questions at all, and a stratified, seeded sample of them over a metadata
 * key (section, document type, date bucket). Pure: the personal-data check is passed in.
 */

export const EXCLUSION_REASONS = ['personal_data', 'too_short', 'repeated_text'] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

export interface Eligibility {
  eligible: Chunk[];
  excluded: Record<ExclusionReason, number>;
  /** Chunks with personal data, by id: they never reach the judge as they are. */
  personal: Set<string>;
}

const normalised = (text: string) => text.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Chunks in which the anonymizer finds personal data are never seeds (no question may carry a placeholder the
 * RAG service could not resolve, and no personal data may reach a golden set); nor are chunks shorter than
 * `minChars`, nor a second chunk with the same text.
 */
export function eligibility(
  chunks: readonly Chunk[],
  options: { minChars: number; personalData: PersonalDataCheck },
): Eligibility {
  const excluded: Record<ExclusionReason, number> = { personal_data: 0, too_short: 0, repeated_text: 0 };
  const eligible: Chunk[] = [];
  const personal = new Set<string>();
  const texts = new Set<string>();
  for (const chunk of chunks) {
    if (options.personalData.found(chunk.text)) {
      excluded.personal_data += 1;
      personal.add(chunk.id);
      continue;
    }
    const key = sha256(normalised(chunk.text));
    if (texts.has(key)) {
      excluded.repeated_text += 1;
      continue;
    }
    texts.add(key);
    if (chunk.text.trim().length < options.minChars) {
      excluded.too_short += 1;
      continue;
    }
    eligible.push(chunk);
  }
  return { eligible, excluded, personal };
}

export type DateBucket = 'none' | 'year' | 'quarter' | 'month';

/**
 * The sampling stratum of a chunk: its metadata value, dates grouped when asked; `(none)` without one; `(all)`
 * when there is no key (no stratification).
 */
export function bucketOf(chunk: Chunk, key: string | null, dateBucket: DateBucket): string {
  if (key === null) return '(all)';
  const value = chunk.metadata[key];
  if (value === undefined || value === null || value === '') return '(none)';
  const text =
    typeof value === 'string'
      ? value.trim()
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);
  if (dateBucket === 'none') return text;
  const ms = typeof value === 'number' ? value : Date.parse(text);
  if (!Number.isFinite(ms)) return text;
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  if (dateBucket === 'year') return String(year);
  if (dateBucket === 'quarter') return `${year}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`;
  return `${year}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** How many seeds a corpus of `eligible` chunks gets: `rate` of it, within `min` and `max`, never more than there are. */
export function seedCount(eligible: number, options: { rate: number; min: number; max: number }): number {
  const wanted = Math.round(eligible * options.rate);
  return Math.min(eligible, Math.max(options.min, Math.min(options.max, wanted)));
}

export interface StratumRow {
  bucket: string;
  chunks: number;
  seeds: number;
}

export interface SeedSelection {
  seeds: Chunk[];
  strata: StratumRow[];
}

/**
 * `count` seeds spread over the buckets in proportion to their size (every bucket gets one when the count
 * allows), each bucket's drawn in a seeded order that is stable chunk by chunk: a chunk added to the corpus does
 * not reshuffle the others. With `minPerStratum`, every bucket first gets that many (all its chunks when it has
 * fewer), the count lifted as far as `max` when the buckets need more; past `max`, one each as far as it goes.
 */
export function selectSeeds(
  eligible: readonly Chunk[],
  options: {
    count: number;
    strataKey: string | null;
    dateBucket: DateBucket;
    seed: number;
    minPerStratum?: number;
    max?: number;
  },
): SeedSelection {
  const buckets = new Map<string, Chunk[]>();
  for (const chunk of eligible) {
    const b = bucketOf(chunk, options.strataKey, options.dateBucket);
    let list = buckets.get(b);
    if (!list) buckets.set(b, (list = []));
    list.push(chunk);
  }
  const sizes = Object.fromEntries([...buckets].map(([b, list]) => [b, list.length]));
  const shares = allocateSeeds(options.count, sizes, options.minPerStratum ?? 0, options.max ?? Infinity);
  const seeds: Chunk[] = [];
  const strata: StratumRow[] = [];
  for (const bucket of [...buckets.keys()].sort()) {
    const list = buckets.get(bucket)!;
    const n = shares[bucket] ?? 0;
    seeds.push(...drawOrder(list, (c) => c.id, 'ragwatch-golden-seeds', options.seed, bucket).slice(0, n));
    strata.push({ bucket, chunks: list.length, seeds: n });
  }
  return { seeds, strata };
}

function allocateSeeds(
  count: number,
  sizes: Record<string, number>,
  minPerStratum: number,
  max: number,
): Record<string, number> {
  const floors = Object.fromEntries(Object.entries(sizes).map(([b, n]) => [b, Math.min(n, minPerStratum)]));
  const floor = Object.values(floors).reduce((s, n) => s + n, 0);
  if (minPerStratum <= 0) return allocate(Math.min(count, max), sizes, sizes, true);
  if (floor > max) return allocate(max, sizes, floors, true);
  const total = Math.min(max, Math.max(count, floor));
  const rest = Object.fromEntries(Object.entries(sizes).map(([b, n]) => [b, n - floors[b]!]));
  const more = allocate(total - floor, sizes, rest);
  return Object.fromEntries(Object.keys(sizes).map((b) => [b, floors[b]! + (more[b] ?? 0)]));
}
