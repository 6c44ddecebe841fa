/** The contract every metric file implements, and the helpers that build its results. */
import type { EmbeddingsClient } from '../judge/types.js';
import { JudgeCallError } from '../judge/types.js';
import { unitInterval } from './math.js';
import type { MetricsOptions, PreparedSample } from './prepare.js';
import type { JudgeTask } from './prompts/build.js';
import type { JudgeSession, UsageMeter } from './session.js';
import type { MetricName, MetricResult, MetricUsage } from './types.js';

/** The jobs that may score a metric; `ragwatch evaluate` scores any. */
export type MetricJob = 'online' | 'experiment';

export interface MetricContext {
  sample: PreparedSample;
  session: JudgeSession;
  embeddings: EmbeddingsClient;
  options: MetricsOptions;
  meter: UsageMeter;
  signal?: AbortSignal;
}

/**
 * Everything ragwatch knows about one metric, in the metric's own file; `registry.ts` collects them. Config
 * validation, score configs, gauges, reports, run metadata and docs/judge-protocol.md read these fields, so
 * adding a metric is its file and one line in the registry.
 */
export interface MetricDefinition<Name extends string = string> {
  /**
   * snake_case, letters only between underscores: the config's and `--metrics`' spelling, score names
   * (`ragas-` + dashes), gauges (`rag_<name>_score`, `rag_golden_score{metric}`) and result JSON.
   */
  name: Name;
  /** How reports and summaries name it: `Answer relevancy`. */
  label: string;
  /**
   * Version of what the value means (its formula and the rules that resolve the judge's answers). It goes into
   * run metadata; a comparison across two versions is reported as a definition change, not as a regression.
   * Prompt changes are tracked apart, by `promptVersion`.
   */
  definitionVersion: string;
  /** Description of its NUMERIC 0–1 score config in Langfuse, shown next to every score. */
  scoreDescription: string;
  /** HELP of its `rag_<name>_score` gauge: the mean of the last online tick that scored traces. */
  gaugeHelp: string;
  /** Noise sensitivity is the only metric where lower is better. */
  higherIsBetter: boolean;
  /**
   * The weekly gate's threshold when `metrics.thresholds` does not set one; without it the metric is gated only
   * when configured. The gate passes at or above it, or at or below it when lower is better.
   */
  defaultThreshold?: number;
  needsReference: boolean;
  /** The jobs that may score it: production traces carry no reference answer, so one that needs it is not online. */
  jobs: readonly MetricJob[];
  /** The judge tasks its calls use, in order: their prompt versions go into run metadata and the protocol doc. */
  judgeTasks: readonly JudgeTask[];
  /** It also asks the embeddings server (one request per sample). */
  usesEmbeddings: boolean;
  /** What the value is, edge cases included: one Markdown line of docs/judge-protocol.md's metric table. */
  valueRule: string;
  /** Why the sample cannot be scored before any judge call, or undefined. */
  precondition(sample: PreparedSample): string | undefined;
  score(ctx: MetricContext): Promise<MetricResult>;
}

/** A scored result, or `failed` when the value is not a finite number in [0, 1] (never a made-up 0). */
export function scored(
  metric: MetricName,
  value: number,
  reason: string,
  details: Record<string, unknown>,
  usage: MetricUsage,
  promptVersion: string,
): MetricResult {
  const v = unitInterval(value);
  if (v === undefined || v !== value) {
    return {
      metric,
      status: 'failed',
      error: `internal: computed value ${String(value)} is outside [0, 1]`,
      kind: 'internal',
      dependency: null,
      retryable: false,
      usage,
    };
  }
  return { metric, status: 'scored', value, reason, details, usage, promptVersion };
}

export function notScorable(metric: MetricName, reason: string, usage?: MetricUsage): MetricResult {
  return usage === undefined
    ? { metric, status: 'not_scorable', reason }
    : { metric, status: 'not_scorable', reason, usage };
}

/** Turns whatever a metric threw into a `failed` result. */
export function failedFrom(metric: MetricName, err: unknown, usage?: MetricUsage): MetricResult {
  const base =
    err instanceof JudgeCallError
      ? {
          error: `${err.kind}: ${err.message} (after ${err.attempts} attempt${err.attempts === 1 ? '' : 's'})`,
          kind: err.kind,
          dependency: err.dependency,
          retryable: err.retryable,
        }
      : err instanceof Error && err.name === 'AbortError'
        ? { error: 'aborted', kind: 'aborted', dependency: null, retryable: true }
        : {
            error: `internal: ${err instanceof Error ? err.message : String(err)}`,
            kind: 'internal',
            dependency: null,
            retryable: false,
          };
  return usage === undefined ? { metric, status: 'failed', ...base } : { metric, status: 'failed', ...base, usage };
}

/** The truncation notes of the fields a metric showed the judge, for `details.truncated`. */
export function truncationOf(
  sample: PreparedSample,
  fields: (keyof PreparedSample['truncated'])[],
): Record<string, unknown> {
  const notes: Record<string, unknown> = {};
  for (const f of fields) {
    const n = sample.truncated[f];
    if (n !== undefined) notes[f] = n;
  }
  return Object.keys(notes).length === 0 ? {} : { truncated: notes };
}

/** What the parser resolved in the judge's answer (blank or repeated rows dropped), for `details.resolved`. */
export function resolutionOf(resolved: { blank: number; repeated: number }): Record<string, unknown> {
  return resolved.blank > 0 || resolved.repeated > 0
    ? { resolved: { blank_dropped: resolved.blank, repeats_dropped: resolved.repeated } }
    : {};
}

/** Quotes a judge-produced text for a reason line, shortened. */
export function quote(text: string, max = 120): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return `"${t.length > max ? `${t.slice(0, max - 1)}…` : t}"`;
}
