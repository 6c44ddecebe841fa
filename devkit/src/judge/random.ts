/** Small seeded PRNG (mulberry32) and the latency distributions drawn from it. */
import { seededRandom } from 'ragwatch/random.js';
import type { LatencyDistribution } from './types.js';

export { seededRandom };

/** One draw of the distribution, in milliseconds (never negative). */
export function drawLatency(dist: LatencyDistribution, random: () => number): number {
  let ms: number;
  if (typeof dist === 'number') ms = dist;
  else if (typeof dist === 'function') ms = dist(random);
  else if (dist.kind === 'fixed') ms = dist.ms;
  else if (dist.kind === 'uniform') ms = dist.minMs + (dist.maxMs - dist.minMs) * random();
  else {
    // Box–Muller for a standard normal, then exp for the log-normal around the median.
    const u = Math.max(random(), Number.EPSILON);
    const v = random();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    ms = dist.medianMs * Math.exp(dist.sigma * z);
  }
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}
