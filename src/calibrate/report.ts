/**
 * `ragwatch calibrate report` and the weekly report's calibration section: ragwatch's scores and people's scores
 * of the same traces over the look-back window, paired per trace and metric, and every agreement figure per
 * metric, language and stratum with its interval, n and the annotations that would halve it; the worst
 * disagreements (online and dev split only) with both reasons, anonymized.
 */
import { createAnonymizer } from '../anonymize/index.js';
import type { RagwatchConfig } from '../config/index.js';
import type { MetricName } from '../metrics/index.js';
import { withoutControls } from '../internal/index.js';
import type { StateStore } from '../state/index.js';
import { worstDisagreements, type DisagreementList } from './disagreements.js';
import { ledgerNames } from './enqueue.js';
import type { HumanScale } from './human-scores.js';
import { readHumanScores, readJudgeScores, type CalibrationLangfuse } from './langfuse.js';
import { agreementTable, type AgreementTable } from './table.js';
import { annotatedPairs, scoredTraces } from './scored-traces.js';

export interface CalibrationSummary {
  /** The scores read: judge scores of traces from `from` on, and people's scores given since. */
  window: { from: string; to: string };
  queue: string;
  scale: HumanScale;
  metrics: string[];
  /** People's metric scores read, and those without a judge score of the same trace and metric. */
  humanScores: number;
  unpaired: number;
  table: AgreementTable;
  disagreements: DisagreementList[];
}

export interface CalibrationReportDeps {
  langfuse: CalibrationLangfuse;
  config: Pick<RagwatchConfig, 'calibrate' | 'metrics' | 'anonymize'>;
  state: Pick<StateStore, 'getEntry'> | null;
  now: number;
  signal?: AbortSignal;
}

const DAY_MS = 86_400_000;
const MAX_COMMENT_CHARS = 300;

/** A person's comment made safe to show: without control characters, anonymized, one line, shortened. */
export function commentCleaner(config: Pick<RagwatchConfig, 'anonymize'>): (text: string) => string | null {
  const { phoneRegions, threshold, residualThreshold, identifierLabels } = config.anonymize;
  const anonymizer = createAnonymizer({ phoneRegions, threshold, residualThreshold, identifierLabels });
  return (text) => {
    const oneLine = anonymizer.anonymizeText(withoutControls(text)).text.replace(/\s+/g, ' ').trim();
    if (oneLine === '') return null;
    return oneLine.length <= MAX_COMMENT_CHARS ? oneLine : `${oneLine.slice(0, MAX_COMMENT_CHARS - 1)}…`;
  };
}

export async function buildCalibration(deps: CalibrationReportDeps): Promise<CalibrationSummary> {
  const cfg = deps.config.calibrate;
  const metrics = cfg.metrics as MetricName[];
  const from = new Date(deps.now - cfg.lookbackDays * DAY_MS).toISOString();
  const to = new Date(deps.now).toISOString();
  // Open-ended: people annotate after the judge scored, and a score's time is its trace's.
  const window = { from, ...(deps.signal ? { signal: deps.signal } : {}) };
  const rows = await readJudgeScores(deps.langfuse, metrics, deps.config.metrics.scorePrefix, window);
  const origins = (t: { origin: string }) => cfg.origins.includes(t.origin as 'online' | 'experiment');
  const names = await ledgerNames(deps.state, scoredTraces(rows).filter(origins));
  const traces = scoredTraces(rows, (id) => names.get(id) ?? null).filter(origins);
  const humans = await readHumanScores(deps.langfuse, metrics, window);
  const pairs = annotatedPairs(traces, humans, { cleanComment: commentCleaner(deps.config) });
  const humanScores = new Set(humans.filter((h) => h.metric !== null).map((h) => `${h.traceId}\u0000${h.metric}`));
  const thresholds = deps.config.metrics.thresholds as Record<string, number>;
  const cuts = cfg.cuts as Record<string, { partly: number; supported: number }>;
  return {
    window: { from, to },
    queue: cfg.queue,
    scale: cfg.scale,
    metrics: [...metrics],
    humanScores: humanScores.size,
    unpaired: humanScores.size - pairs.length,
    table: agreementTable(pairs, {
      thresholds,
      cuts,
      bootstrap: { resamples: cfg.bootstrapSamples, seed: cfg.seed },
      metricOrder: metrics,
    }),
    disagreements: worstDisagreements(pairs, { limit: cfg.disagreements, cuts }),
  };
}
