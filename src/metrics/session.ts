/**
 * One sample's judge work. Steps several metrics share (the answer's claims feed faithfulness and noise
 * sensitivity; the reference's statements feed context recall and noise sensitivity) run once per sample;
 * their cost is charged to the first metric that asks, so per-metric usage sums to the sample's total.
 */
import {
  JudgeCallError,
  type CallUsage,
  type EmbeddingUsage,
  type JudgeClient,
  type StructuredRequest,
} from '../judge/types.js';
import type { MetricUsage } from './types.js';

export class UsageMeter {
  private readonly usage: Required<Pick<MetricUsage, 'calls' | 'promptTokens' | 'completionTokens' | 'latencyMs'>> & {
    embeddingRequests: number;
    embeddingTokens: number;
  } = { calls: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0, embeddingRequests: 0, embeddingTokens: 0 };

  addCall(u: CallUsage | undefined): void {
    if (u === undefined) return;
    this.usage.calls += u.calls;
    this.usage.promptTokens += u.promptTokens;
    this.usage.completionTokens += u.completionTokens;
    this.usage.latencyMs += u.latencyMs;
  }

  addEmbeddings(u: EmbeddingUsage): void {
    this.usage.embeddingRequests += u.requests;
    this.usage.embeddingTokens += u.promptTokens;
    this.usage.latencyMs += u.latencyMs;
  }

  get total(): MetricUsage {
    const { embeddingRequests, embeddingTokens, ...chat } = this.usage;
    return embeddingRequests > 0 || embeddingTokens > 0 ? { ...chat, embeddingRequests, embeddingTokens } : { ...chat };
  }
}

export class JudgeSession {
  private readonly steps = new Map<string, Promise<{ value: unknown; usage: CallUsage }>>();
  private readonly charged = new Set<string>();

  constructor(
    private readonly judge: JudgeClient,
    private readonly signal?: AbortSignal,
  ) {}

  /** Runs (or reuses) the step `key`; its usage goes to `meter` only the first time. */
  async step<T>(key: string, meter: UsageMeter, build: () => StructuredRequest<T>): Promise<T> {
    let pending = this.steps.get(key);
    if (pending === undefined) {
      const req = build();
      pending = this.judge.structured<T>(this.signal ? { ...req, signal: this.signal } : req);
      this.steps.set(key, pending);
    }
    let result;
    try {
      result = await pending;
    } catch (err) {
      // A step that failed still cost what the judge received: charged once, like a successful one.
      if (err instanceof JudgeCallError) this.charge(key, meter, err.usage);
      throw err;
    }
    this.charge(key, meter, result.usage);
    return result.value as T;
  }

  private charge(key: string, meter: UsageMeter, usage: CallUsage | undefined): void {
    if (this.charged.has(key)) return;
    this.charged.add(key);
    meter.addCall(usage);
  }
}
