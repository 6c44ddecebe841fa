/** The contract every metric file implements, and the helpers that build its results. */
import type { EmbeddingsClient } from '../judge/types.js';
import { JudgeCallError } from '../judge/types.js';
import { unitInterval } from './math.js';
import type { MetricsOptions, PreparedSample } from './prepare.js';
import type { JudgeSession, UsageMeter } from './session.js';
import type { MetricName, MetricResult, MetricUsage } from './types.js';

export interface MetricContext {
  sample: PreparedSample;
  session: JudgeSession;
  embeddings: EmbeddingsClient;
  options: MetricsOptions;
  meter: UsageMeter;
  signal?: AbortSignal;
}

export interface MetricDefinition {
  name: MetricName;
  /**
   * Version of what the value means (its formula and the rules that resolve the judge's answers). It goes into
   * run metadata; a comparison across two versions is reported as a definition change, not as a regression.
   * Prompt changes are tracked apart, by `promptVersion`.
   */
  definitionVersion: string;
  /** One line for help texts and score configs. */
  description: string;
  /** Noise sensitivity is the only metric where lower is better. */
  higherIsBetter: boolean;
  needsReference: boolean;
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
    return { metric, status: 'failed', error: `internal: computed value ${String(value)} is outside [0, 1]`, kind: 'internal', retryable: false, usage };
  }
  return { metric, status: 'scored', value, reason, details, usage, promptVersion };
}

export function notScorable(metric: MetricName, reason: string, usage?: MetricUsage): MetricResult {
  return usage === undefined ? { metric, status: 'not_scorable', reason } : { metric, status: 'not_scorable', reason, usage };
}

/** Turns whatever a metric threw into a `failed` result. */
export function failedFrom(metric: MetricName, err: unknown, usage?: MetricUsage): MetricResult {
  const base =
    err instanceof JudgeCallError
      ? { error: `${err.kind}: ${err.message} (after ${err.attempts} attempt${err.attempts === 1 ? '' : 's'})`, kind: err.kind, retryable: err.retryable }
      : err instanceof Error && err.name === 'AbortError'
        ? { error: 'aborted', kind: 'aborted', retryable: true }
        : { error: `internal: ${err instanceof Error ? err.message : String(err)}`, kind: 'internal', retryable: false };
  return usage === undefined ? { metric, status: 'failed', ...base } : { metric, status: 'failed', ...base, usage };
}

/** The truncation notes of the fields a metric showed the judge, for `details.truncated`. */
export function truncationOf(sample: PreparedSample, fields: (keyof PreparedSample['truncated'])[]): Record<string, unknown> {
  const notes: Record<string, unknown> = {};
  for (const f of fields) {
    const n = sample.truncated[f];
    if (n !== undefined) notes[f] = n;
  }
  return Object.keys(notes).length === 0 ? {} : { truncated: notes };
}

/** What the parser resolved in the judge's answer (blank or repeated rows dropped), for `details.resolved`. */
export function resolutionOf(resolved: { blank: number; repeated: number }): Record<string, unknown> {
  return resolved.blank > 0 || resolved.repeated > 0 ? { resolved: { blank_dropped: resolved.blank, repeats_dropped: resolved.repeated } } : {};
}

/** Quotes a judge-produced text for a reason line, shortened. */
export function quote(text: string, max = 120): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return `"${t.length > max ? `${t.slice(0, max - 1)}…` : t}"`;
}
