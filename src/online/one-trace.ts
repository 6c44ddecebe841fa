import { traceNameKey } from '../internal/index.js';
import type { ReadCut } from '../langfuse/index.js';
import type { JudgeCallRecord } from '../judge-calls/index.js';
import type { MetricResult } from '../metrics/index.js';
import type { RagSample } from '../sample.js';
import type { LedgerEntry } from '../state/index.js';
import { evaluateTrace, type TraceOutcome } from './evaluate-trace.js';
import type { OnlineJobDeps, OnlineSettings } from './run-types.js';
import { rateFor } from './sampler.js';
import { retryDelayMs } from './tick-run.js';

export interface OneTraceResult {
  traceId: string;
  found: boolean;
  /** The sample after extraction and anonymization (before the token budgets, which the metrics apply). */
  view?: { shape: string; sample: RagSample; entities: number };
  /** Every metric's result, with its details (claims, generated questions, ...). */
  results?: MetricResult[];
  /** Every judge call: the messages sent, the parsed answer, tokens and time. */
  calls?: JudgeCallRecord[];
  trace?: { name: string | null; timestamp: string; environment: string; readCut?: ReadCut };
  outcome?: TraceOutcome;
  ledger?: LedgerEntry | null;
}

/**
 * Scores one trace now, sampled or not (`sample --trace`). The scores are written like the online job's
 * (same ids) unless `dryRun`, and the ledger records the result so the online job does not redo it.
 */
export async function scoreOneTrace(
  deps: OnlineJobDeps,
  settings: OnlineSettings,
  traceId: string,
  options: { dryRun?: boolean; signal?: AbortSignal } = {},
): Promise<OneTraceResult> {
  const signal = options.signal ?? new AbortController().signal;
  const { state, clock } = deps;
  const trace = await deps.langfuse.getTrace(traceId, signal);
  if (!trace) return { traceId, found: false };
  const known = await state.getEntry(traceId);
  const timestamp = known ? new Date(known.traceTimestamp).toISOString() : trace.timestamp;
  const sampleRate = known?.sampleRate ?? rateFor(settings.sampling, trace.name);
  const result: OneTraceResult = {
    traceId,
    found: true,
    trace: {
      // Printed by `sample --trace`: the name's key, never a careless name's text.
      name: traceNameKey(trace.name),
      timestamp,
      environment: trace.environment,
      ...(trace.readCut ? { readCut: trace.readCut } : {}),
    },
  };

  let attempts = 0;
  if (!options.dryRun) {
    const parsed = Date.parse(timestamp);
    await state.ensureEntry(
      {
        traceId,
        traceTimestamp: Number.isNaN(parsed) ? clock.now() : parsed,
        environment: trace.environment || null,
        traceName: trace.name,
        sampleRate,
      },
      clock.now(),
    );
    attempts = (await state.startAttempt(traceId, clock.now())).attempts;
  }
  let outcome: TraceOutcome;
  try {
    outcome = await evaluateTrace(
      deps,
      { traceId, traceTimestamp: timestamp, environment: trace.environment || null, sampleRate },
      {
        signal,
        dryRun: options.dryRun ?? false,
        onSample: (v) => (result.view = { shape: v.shape, sample: v.sample, entities: v.entities }),
        onJudged: (j) => {
          result.results = j.results;
          result.calls = j.calls;
        },
      },
    );
  } catch (err) {
    if (!options.dryRun) await state.markPending(traceId, clock.now());
    throw err;
  }
  result.outcome = outcome;
  if (!options.dryRun) {
    const now = clock.now();
    if (outcome.kind === 'done') await state.markDone(traceId, outcome.scoreIds, now);
    else if (outcome.kind === 'skipped') await state.markSkipped(traceId, outcome.reason, now);
    else if (attempts >= settings.maxAttempts) await state.markDead(traceId, outcome.failure.code, now);
    else
      await state.markFailed(
        traceId,
        outcome.failure.code,
        now,
        now + retryDelayMs(settings.retryBackoffSeconds, attempts),
      );
    result.ledger = await state.getEntry(traceId);
  }
  return result;
}
