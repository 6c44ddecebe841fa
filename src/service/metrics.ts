import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { costOf, type Pricing } from '../judge/index.js';
import { type MetricName, getMetric, scoreGaugeName } from '../metrics/index.js';
import type { OnlineRecorder } from '../online/index.js';
import {
  AGREEMENT_FLOOR_GAUGE,
  AGREEMENT_GAUGE,
  DRIFT_GAUGE,
  DRIFT_TOLERANCE_GAUGE,
  parseCalibrationKey,
} from '../calibrate/index.js';
import {
  GOLDEN_GATE_GAUGE,
  GOLDEN_GATE_INCONCLUSIVE_GAUGE,
  GOLDEN_RUN_TIME_GAUGE,
  parseGoldenScoreKey,
} from '../experiment/index.js';
import type { JudgeRequestObservation, LangfuseRequestObservation, MetricsRegistry } from '../runtime/index.js';
import { createTraceNameLabels, MAX_TRACE_NAME_LABELS } from './trace-name-label.js';

/**
 * ragwatch's Prometheus metrics. Labels are low-cardinality codes only (reasons, outcomes, routes, metric
 * names): never trace IDs, never text from a trace.
 */

export interface ServiceMetrics extends OnlineRecorder, MetricsRegistry {
  readonly registry: Registry;
  observeJudgeRequest(event: JudgeRequestObservation): void;
  observeLangfuseRequest(event: LangfuseRequestObservation): void;
  /** Restores persisted gauges (`rag_*_score`, `rag_golden_*`) at start-up. */
  restoreGauges(values: Record<string, number>): void;
  /** The last golden-set experiment: `rag_golden_score{metric,split}`, gate verdict, finish time (keys as persisted). */
  goldenResults(values: Record<string, number>): void;
  /** The judge's calibration: `rag_judge_human_agreement{metric}`, `rag_judge_drift{metric}` and their bars. */
  calibrationResults(values: Record<string, number>): void;
  /** Renders the exposition text. */
  render(): Promise<string>;
  readonly contentType: string;
}

export interface ServiceMetricsOptions {
  /** Metrics that get a `rag_<metric>_score` gauge. */
  scoreMetrics: readonly MetricName[];
  /** `judge.pricing`: adds `ragwatch_judge_cost_total`. */
  pricing?: Pricing;
  /** Node process metrics (CPU, memory, event loop) under `ragwatch_`. */
  processMetrics?: boolean;
}

export function createServiceMetrics(options: ServiceMetricsOptions): ServiceMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'ragwatch_' });
  const r = [registry];

  const listed = new Counter({
    name: 'ragwatch_traces_listed_total',
    help: 'Traces listed from Langfuse by the online job.',
    registers: r,
  });
  const sampled = new Counter({
    name: 'ragwatch_traces_sampled_total',
    help: 'Listed traces that the deterministic sampler selected.',
    registers: r,
  });
  const deferred = new Counter({
    name: 'ragwatch_traces_deferred_total',
    help: 'Sampled traces held back by the per-tick or per-hour cap (kept pending, taken later).',
    registers: r,
  });
  const evaluated = new Counter({
    name: 'ragwatch_traces_evaluated_total',
    help: 'Sampled traces evaluated to completion (scores written).',
    registers: r,
  });
  const skipped = new Counter({
    name: 'ragwatch_traces_skipped_total',
    help: `Traces not scored, by reason and trace name: sampled ones skipped, and excluded_tag for those online.filters.excludeTags left out (${MAX_TRACE_NAME_LABELS} names at most; the rest are "other").`,
    labelNames: ['reason', 'trace_name'],
    registers: r,
  });
  const traceNames = createTraceNameLabels();
  const failed = new Counter({
    name: 'ragwatch_traces_failed_total',
    help: 'Trace evaluation attempts that failed, by error code.',
    labelNames: ['code'],
    registers: r,
  });
  const dead = new Counter({
    name: 'ragwatch_traces_dead_total',
    help: 'Traces given up after the last attempt.',
    registers: r,
  });
  const metricResults = new Counter({
    name: 'ragwatch_metric_results_total',
    help: 'Metric results by metric and status (scored, not_scorable, failed).',
    labelNames: ['metric', 'status'],
    registers: r,
  });
  const scoresWritten = new Counter({
    name: 'ragwatch_scores_written_total',
    help: 'Scores acknowledged by Langfuse ingestion.',
    registers: r,
  });
  const scoresReadBack = new Counter({
    name: 'ragwatch_scores_read_back_total',
    help: 'Scores read back from Langfuse after a run (a sample of those written), to see that they exist.',
    registers: r,
  });
  const scoresUnconfirmed = new Counter({
    name: 'ragwatch_scores_unconfirmed_total',
    help: 'Scores read back that Langfuse did not show within online.readBack.withinSeconds (dropped after its 207); their traces are evaluated again.',
    registers: r,
  });
  const byLanguage = new Gauge({
    name: 'rag_score_by_language',
    help: 'Mean score of the last online tick that scored traces, per metric and sample language (ISO 639-1; und when undetermined).',
    labelNames: ['metric', 'language'],
    registers: r,
  });
  const leakChecked = new Counter({
    name: 'ragwatch_answer_leak_checked_total',
    help: 'Evaluated traces whose answer the answer-leak check read (online.answerLeak).',
    registers: r,
  });
  const leakTraces = new Counter({
    name: 'ragwatch_answer_leak_traces_total',
    help: 'Evaluated traces whose answer held personal data (validated types, labelled identifiers) that neither the question nor the contexts held.',
    registers: r,
  });
  const leakEntities = new Counter({
    name: 'ragwatch_answer_leak_entities_total',
    help: 'Distinct personal-data values in answers that neither the question nor the contexts held, by type (counts only, never values).',
    labelNames: ['type'],
    registers: r,
  });
  const ledger = new Gauge({
    name: 'ragwatch_ledger_entries',
    help: 'Ledger entries by status (pending, done, skipped, failed, dead).',
    labelNames: ['status'],
    registers: r,
  });
  const judgeRequests = new Counter({
    name: 'ragwatch_judge_requests_total',
    help: 'Judge HTTP requests by kind and outcome.',
    labelNames: ['kind', 'outcome'],
    registers: r,
  });
  const judgeLatency = new Histogram({
    name: 'ragwatch_judge_request_duration_seconds',
    help: 'Judge HTTP request latency.',
    labelNames: ['kind'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: r,
  });
  const judgeTokens = new Counter({
    name: 'ragwatch_judge_tokens_total',
    help: 'Tokens sent to and received from the judge.',
    labelNames: ['kind', 'direction'],
    registers: r,
  });
  const pricing = options.pricing;
  const judgeCost = pricing
    ? new Counter({
        name: 'ragwatch_judge_cost_total',
        help: `What the judge's tokens cost at judge.pricing, in ${pricing.currency}: every request, retries and failures included.`,
        labelNames: ['kind', 'currency'],
        registers: r,
      })
    : null;
  const langfuseRequests = new Counter({
    name: 'ragwatch_langfuse_requests_total',
    help: 'Langfuse API requests by route and outcome.',
    labelNames: ['route', 'outcome'],
    registers: r,
  });
  const langfuseLatency = new Histogram({
    name: 'ragwatch_langfuse_request_duration_seconds',
    help: 'Langfuse API request latency.',
    labelNames: ['route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: r,
  });
  const lastSuccess = new Gauge({
    name: 'ragwatch_job_last_success_timestamp_seconds',
    help: 'Unix time of the last successful run, per job.',
    labelNames: ['job'],
    registers: r,
  });
  const lastRun = new Gauge({
    name: 'ragwatch_job_last_run_timestamp_seconds',
    help: 'Unix time the last run finished, per job and outcome.',
    labelNames: ['job'],
    registers: r,
  });
  const runs = new Counter({
    name: 'ragwatch_job_runs_total',
    help: 'Job runs by outcome.',
    labelNames: ['job', 'outcome'],
    registers: r,
  });
  const running = new Gauge({
    name: 'ragwatch_job_running',
    help: '1 while a job run is in progress.',
    labelNames: ['job'],
    registers: r,
  });
  const goldenScore = new Gauge({
    name: 'rag_golden_score',
    help: 'Mean score of the last golden-set experiment, per metric and split (0-1).',
    labelNames: ['metric', 'split'],
    registers: r,
  });
  const goldenGate = gaugeOnceSet(
    registry,
    GOLDEN_GATE_GAUGE,
    '1 when the last golden-set experiment passed the release gate, 0 when it failed or could not decide.',
  );
  const goldenGateInconclusive = gaugeOnceSet(
    registry,
    GOLDEN_GATE_INCONCLUSIVE_GAUGE,
    '1 when the last golden-set experiment had not enough evidence for a gate verdict (too few items), else 0.',
  );
  const goldenRunTime = gaugeOnceSet(
    registry,
    GOLDEN_RUN_TIME_GAUGE,
    'Unix time the last golden-set experiment finished.',
  );
  const goldenResults = (values: Record<string, number>) => {
    for (const [name, value] of Object.entries(values)) {
      const series = parseGoldenScoreKey(name);
      if (series) goldenScore.set(series, value);
      else if (name === GOLDEN_GATE_GAUGE) goldenGate(value);
      else if (name === GOLDEN_GATE_INCONCLUSIVE_GAUGE) goldenGateInconclusive(value);
      else if (name === GOLDEN_RUN_TIME_GAUGE) goldenRunTime(value);
    }
  };
  const agreement = new Gauge({
    name: AGREEMENT_GAUGE,
    help: "Cohen's kappa between the judge and people on pass/fail at the gate threshold, per metric (calibrate).",
    labelNames: ['metric'],
    registers: r,
  });
  const drift = new Gauge({
    name: DRIFT_GAUGE,
    help: "Mean absolute change of the judge's scores on the anchor set since it was stored, per metric (0-1).",
    labelNames: ['metric'],
    registers: r,
  });
  const floorHelp = 'calibrate.agreementFloor: the kappa the agreement alert fires below.';
  const agreementFloor = gaugeOnceSet(registry, AGREEMENT_FLOOR_GAUGE, floorHelp);
  const toleranceHelp = 'calibrate.anchors.tolerance: the drift the judge-drift alert fires above.';
  const driftTolerance = gaugeOnceSet(registry, DRIFT_TOLERANCE_GAUGE, toleranceHelp);
  const calibrationResults = (values: Record<string, number>) => {
    for (const [name, value] of Object.entries(values)) {
      const series = parseCalibrationKey(name);
      if (series?.gauge === AGREEMENT_GAUGE) agreement.set({ metric: series.metric }, value);
      else if (series?.gauge === DRIFT_GAUGE) drift.set({ metric: series.metric }, value);
      else if (name === AGREEMENT_FLOOR_GAUGE) agreementFloor(value);
      else if (name === DRIFT_TOLERANCE_GAUGE) driftTolerance(value);
    }
  };
  const scoreGauges = new Map<string, (value: number) => void>();
  for (const metric of options.scoreMetrics) {
    const name = scoreGaugeName(metric);
    scoreGauges.set(name, gaugeOnceSet(registry, name, getMetric(metric).gaugeHelp));
  }

  return {
    registry,
    contentType: registry.contentType,
    render: () => registry.metrics(),
    tracesListed: (n) => listed.inc(n),
    traceSampled: () => sampled.inc(),
    traceDeferred: () => deferred.inc(),
    traceEvaluated: () => evaluated.inc(),
    traceSkipped: (reason, traceName) =>
      skipped.inc({ reason: labelSafe(reason), trace_name: traceNames.label(traceName) }),
    traceFailed: (code) => failed.inc({ code: labelSafe(code) }),
    traceDead: () => dead.inc(),
    metricResult: (metric, status) => metricResults.inc({ metric, status }),
    scoresWritten: (n) => scoresWritten.inc(n),
    scoreMeansByLanguage: (means) => {
      byLanguage.reset();
      for (const [metric, languages] of Object.entries(means))
        for (const [language, value] of Object.entries(languages))
          byLanguage.set({ metric: labelSafe(metric), language: labelSafe(language) }, value);
    },
    answerLeak: (leak) => {
      leakChecked.inc();
      if (leak.total > 0) leakTraces.inc();
      for (const [type, n] of Object.entries(leak.byType)) leakEntities.inc({ type: labelSafe(type) }, n);
    },
    scoresReadBack: (checked, unconfirmed) => {
      scoresReadBack.inc(checked);
      scoresUnconfirmed.inc(unconfirmed);
    },
    scoreMeans: (means) => {
      for (const [metric, value] of Object.entries(means))
        scoreGauges.get(scoreGaugeName(metric as MetricName))?.(value as number);
    },
    ledgerCounts: (counts) => {
      if (counts === null) return ledger.reset();
      for (const [status, n] of Object.entries(counts)) ledger.set({ status }, n);
    },
    tickStarted: (job) => running.set({ job }, 1),
    tickFinished: (job, outcome, succeeded, at) => {
      running.set({ job }, 0);
      runs.inc({ job, outcome });
      lastRun.set({ job }, at / 1000);
      if (succeeded) lastSuccess.set({ job }, at / 1000);
    },
    observeJudgeRequest: (e) => {
      judgeRequests.inc({ kind: e.kind, outcome: labelSafe(e.outcome) });
      judgeLatency.observe({ kind: e.kind }, e.latencyMs / 1000);
      if (e.promptTokens > 0) judgeTokens.inc({ kind: e.kind, direction: 'prompt' }, e.promptTokens);
      if (e.completionTokens > 0) judgeTokens.inc({ kind: e.kind, direction: 'completion' }, e.completionTokens);
      if (judgeCost && pricing && e.promptTokens + e.completionTokens > 0) {
        // An embeddings request's tokens are its inputs: priced at the embeddings rate.
        const tokens =
          e.kind === 'embeddings'
            ? { promptTokens: 0, completionTokens: 0, embeddingTokens: e.promptTokens }
            : { promptTokens: e.promptTokens, completionTokens: e.completionTokens };
        judgeCost.inc({ kind: e.kind, currency: pricing.currency }, costOf(tokens, pricing));
      }
    },
    observeLangfuseRequest: (e) => {
      const route = labelSafe(e.route);
      langfuseRequests.inc({ route, outcome: labelSafe(e.outcome) });
      langfuseLatency.observe({ route }, e.latencyMs / 1000);
    },
    restoreGauges: (values) => {
      for (const [name, value] of Object.entries(values)) scoreGauges.get(name)?.(value);
      goldenResults(values);
      calibrationResults(values);
    },
    goldenResults,
    calibrationResults,
  };
}

/**
 * A label-less gauge that joins the registry on its first set. prom-client exports a label-less gauge as 0
 * before anything sets it, which on a fresh install reads as a real score of 0 (or a failed gate) and
 * would fire the quality alerts; until then the series is simply absent.
 */
function gaugeOnceSet(registry: Registry, name: string, help: string): (value: number) => void {
  const gauge = new Gauge({ name, help, registers: [] });
  let registered = false;
  return (value) => {
    if (!registered) {
      registry.registerMetric(gauge);
      registered = true;
    }
    gauge.set(value);
  };
}

/** Labels carry codes only; anything else is folded so a stray value cannot explode cardinality. */
function labelSafe(value: string): string {
  return /^[A-Za-z0-9_:.{}/ -]{1,80}$/.test(value) ? value : 'other';
}

/** Last success per job, for the metrics restored from state at start-up. */
export function restoreJobSuccess(metrics: ServiceMetrics, job: string, lastSuccessAt: number | null): void {
  if (lastSuccessAt === null) return;
  const gauge = metrics.registry.getSingleMetric('ragwatch_job_last_success_timestamp_seconds') as Gauge | undefined;
  gauge?.set({ job }, lastSuccessAt / 1000);
}
