import type { LatencyDistribution } from './types.js';

/** How a judge deployment serves: sequences at once and the service-time distribution of one request. */
export interface ServingProfile {
  /** vLLM's `max_num_seqs`: requests in service at once; the rest queue. */
  parallelism: number;
  serviceTimeMs: LatencyDistribution;
  /** The distribution's mean, for judge-bound ideals (requests × mean ÷ parallelism). */
  meanServiceMs: number;
}

export interface ProductionProfileOptions {
  /** Mean service time in ms; the default 40 is a ~4 s production judge call time-scaled 100×. */
  meanMs?: number;
  /** Log-normal shape: p99 ≈ median × e^(2.33σ), about 6.4× the median at the default 0.8. */
  sigma?: number;
  parallelism?: number;
}

/**
 * A production-like judge, time-scaled: 64 sequences at once (a single vLLM replica on one GPU) and log-normal
 * service times (the long right tail of generation lengths) with the given mean. Scaling the mean keeps the
 * shape: every ratio to the judge-bound ideal is the same at 40 ms as at 4 s.
 */
export function productionProfile(options: ProductionProfileOptions = {}): ServingProfile {
  const meanMs = options.meanMs ?? 40;
  const sigma = options.sigma ?? 0.8;
  if (!(meanMs > 0) || !(sigma >= 0))
    throw new RangeError(`productionProfile: meanMs must be > 0 and sigma ≥ 0 (got ${meanMs}, ${sigma})`);
  // The mean of a log-normal is median · e^(σ²/2).
  const medianMs = meanMs / Math.exp((sigma * sigma) / 2);
  return {
    parallelism: options.parallelism ?? 64,
    serviceTimeMs: { kind: 'lognormal', medianMs, sigma },
    meanServiceMs: meanMs,
  };
}
