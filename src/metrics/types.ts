import type { DependencyName } from '../errors.js';
import type { SampleLanguage } from './language.js';
import type { MetricName } from './registry.js';

export type { MetricName };

export interface MetricUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  embeddingRequests?: number;
  /** Tokens of the embedding inputs sent (cached vectors cost nothing). */
  embeddingTokens?: number;
  latencyMs?: number;
}

/** What every metric returns. NaN never leaves the metrics module, and a failure is never a score of 0. */
export type MetricResult =
  | {
      metric: MetricName;
      status: 'scored';
      /** In [0, 1]. */
      value: number;
      reason: string;
      details: Record<string, unknown>;
      usage: MetricUsage;
      /** Content hash of the prompt(s) used. */
      promptVersion: string;
      /** The sample's language (set by scoreSample): every score records it. */
      language?: SampleLanguage;
    }
  | { metric: MetricName; status: 'not_scorable'; reason: string; usage?: MetricUsage }
  | {
      metric: MetricName;
      status: 'failed';
      /** For people; never parsed (read `kind` and `dependency`). */
      error: string;
      /** What went wrong last: a judge failure kind (`connection`, `http_503`, `schema_mismatch`, …), `aborted` or `internal`. */
      kind: string;
      /** The dependency that failed; null for an abort or a bug of ragwatch's. */
      dependency: DependencyName | null;
      retryable: boolean;
      usage?: MetricUsage;
    };
