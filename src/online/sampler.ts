import type { RagwatchConfig } from '../config/index.js';
import { samplingPoint } from '../random.js';

export interface SamplingPolicy {
  rate: number;
  salt: string;
  rateByTraceName: Readonly<Record<string, number>>;
}

export function samplingPolicyFrom(config: RagwatchConfig): SamplingPolicy {
  return { rate: config.sampling.rate, salt: config.sampling.salt, rateByTraceName: config.sampling.rateByTraceName };
}

export function rateFor(policy: SamplingPolicy, traceName: string | null | undefined): number {
  if (traceName != null && Object.hasOwn(policy.rateByTraceName, traceName))
    return policy.rateByTraceName[traceName] as number;
  return policy.rate;
}

export interface SamplingDecision {
  sampled: boolean;
  /** The trace's coordinate in [0, 1). */
  point: number;
  rate: number;
}

export function decide(
  policy: SamplingPolicy,
  traceId: string,
  traceName: string | null | undefined,
): SamplingDecision {
  const rate = rateFor(policy, traceName);
  const point = samplingPoint(traceId, policy.salt);
  return { sampled: point < rate, point, rate };
}

export const RECOMMENDED_RATE = { min: 0.05, max: 0.1 } as const;

/** Operator-facing warnings about rates outside the range the product brief recommends (5–10 %). */
export function rateWarnings(policy: SamplingPolicy): string[] {
  const warnings: string[] = [];
  const check = (label: string, rate: number) => {
    if (rate < RECOMMENDED_RATE.min || rate > RECOMMENDED_RATE.max) {
      warnings.push(
        `${label} is ${rate}: outside the recommended ${RECOMMENDED_RATE.min}–${RECOMMENDED_RATE.max}; ${rate < RECOMMENDED_RATE.min ? 'quality drifts may go unnoticed for longer' : 'the judge load grows with it'}`,
      );
    }
  };
  check('sampling.rate', policy.rate);
  for (const [name, rate] of Object.entries(policy.rateByTraceName))
    check(`sampling.rateByTraceName[${JSON.stringify(name)}]`, rate);
  return warnings;
}

/**
 * How many traces one tick may still take on: the per-tick cap, and what is left of the per-hour cap once the
 * traces taken in the last hour are counted. Traces over the budget are deferred (kept pending), never dropped.
 */
export class TakeBudget {
  private taken = 0;
  constructor(
    private readonly perTick: number,
    private readonly leftThisHour: number,
  ) {}

  static from(caps: { maxPerTick: number; maxPerHour: number }, takenInLastHour: number): TakeBudget {
    return new TakeBudget(caps.maxPerTick, Math.max(0, caps.maxPerHour - takenInLastHour));
  }

  /** Claims one slot; false when the tick or the hour is full. */
  tryTake(): boolean {
    if (this.taken >= this.perTick || this.taken >= this.leftThisHour) return false;
    this.taken += 1;
    return true;
  }

  get used(): number {
    return this.taken;
  }

  /** Traces still allowed. */
  get left(): number {
    return Math.max(0, Math.min(this.perTick, this.leftThisHour) - this.taken);
  }

  get exhausted(): boolean {
    return this.taken >= this.perTick || this.taken >= this.leftThisHour;
  }
}
