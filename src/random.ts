import * as crypto from 'node:crypto';

/**
 * Deterministic randomness: the seeded PRNG, and the sampling coordinate of an id that the online sampler and the
 * calibration's draws share.
 */

/** Seeded PRNG (mulberry32): reproducible draws for bootstrap intervals, distractor picks and fault rates. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `sampling.salt`'s default. */
export const DEFAULT_SALT = 'ragwatch-sampling-v1';
const TWO_POW_53 = 2 ** 53;

type OneShotHash = (algorithm: string, data: string, outputEncoding: 'buffer') => Buffer;
/** Node's one-shot `crypto.hash` (20.12+) where there is one: a fraction of a Hash object's cost, run once per listed trace. */
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;
const sha256: (text: string) => Buffer = oneShot
  ? (text) => oneShot('sha256', text, 'buffer')
  : (text) => crypto.createHash('sha256').update(text, 'utf8').digest();

/**
 * The deterministic sampling coordinate of a trace: the first 53 bits of sha256(salt + "\0" + traceId),
 * big-endian, divided by 2^53. Every replica and every restart computes the same value, so the same traces
 * are sampled everywhere (the same scheme Langfuse's own evaluators use).
 */
export function samplingPoint(traceId: string, salt: string = DEFAULT_SALT): number {
  const digest = sha256(`${salt}\0${traceId}`);
  const high = digest.readUInt32BE(0);
  const low = digest.readUInt32BE(4) >>> 11;
  return (high * 2 ** 21 + low) / TWO_POW_53;
}
