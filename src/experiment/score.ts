/**
 * The score stage: the run's score configs in Langfuse before the items start, and each recorded item's scores
 * on its trace once the run is recorded (through the score batcher both jobs write with).
 */
import { kindOf } from '../errors.js';
import type { SampleAnonymizer } from '../anonymize/index.js';
import type { RagwatchConfig } from '../config/index.js';
import {
  LangfuseApiError,
  type LangfuseHttp,
  ensureScoreConfigs,
  ScoreConfigMismatchError,
  writeScores,
  type ScoreToWrite,
} from '../langfuse/index.js';
import { experimentScoreConfigs, ScoreBatcher } from '../scores/index.js';
import type { Logger } from '../runtime/index.js';
import { ExperimentInputError } from './errors.js';
import type { RecordedRun } from './run-recorder.js';
import type { CleanResult } from './passes.js';
import type { RunControl } from './run-control.js';
import type { RunStatus } from './run-status.js';
import { traceScores } from './trace-scores.js';

/**
 * Score config ids by score name. A config of one of our names that would drop our scores stops the run before
 * anything is written (exit 2); Langfuse unreachable ends the run; configs it refuses only cost the scores their
 * config (they are written without).
 */
export async function ensureScoreConfigIds(
  http: LangfuseHttp,
  config: RagwatchConfig,
  control: RunControl,
  logger: Logger,
): Promise<Map<string, string>> {
  try {
    return await ensureScoreConfigs(http, experimentScoreConfigs(config), control.signal);
  } catch (err) {
    if (err instanceof ScoreConfigMismatchError) throw new ExperimentInputError(err.lines);
    if (err instanceof LangfuseApiError && (err.unreachable || err.kind === 'aborted')) {
      control.fail('langfuse', `Langfuse: ${err.message}`, kindOf(err));
    }
    logger.warn({ error: (err as Error).message }, 'score configs not available; scores are written without them');
    return new Map();
  }
}

export interface ItemScoresDeps {
  http: LangfuseHttp;
  config: RagwatchConfig;
  judgeModel: string;
  anonymizer: SampleAnonymizer;
  configIds: ReadonlyMap<string, string>;
  sleep?: (ms: number) => Promise<void>;
}

/** Writes the recorded items' scores on their traces: how many Langfuse took (a refusal makes the run incomplete). */
export async function writeItemScores(
  deps: ItemScoresDeps,
  runName: string,
  finished: readonly CleanResult[],
  recorded: RecordedRun | null,
  status: RunStatus,
  signal: AbortSignal,
): Promise<number> {
  if (!recorded) return 0;
  const context = {
    runName,
    scorePrefix: deps.config.metrics.scorePrefix,
    judgeModel: deps.judgeModel,
    ...(deps.config.judge.pricing ? { pricing: deps.config.judge.pricing } : {}),
    configIds: deps.configIds,
    anonymizer: deps.anonymizer,
  };
  const scores = finished.flatMap((c): ScoreToWrite[] => {
    const trace = recorded.items.get(c.item.id);
    if (!trace || !c.scores) return [];
    const timestamp = new Date(c.startMs).toISOString();
    return traceScores(c.item, c.scores, { ...context, traceId: trace.traceId, timestamp });
  });
  const options = { signal, ...(deps.sleep ? { sleep: deps.sleep } : {}) };
  const writer = new ScoreBatcher({ writeScores: (batch) => writeScores(deps.http, batch, options) });
  const written = await status.langfuse(() => writer.write(scores));
  const first = written?.failed[0];
  if (first) {
    const count = `${written.failed.length} of ${scores.length}`;
    const example = `first: ${first.name} on trace ${first.traceId}: ${first.message}`;
    status.langfuseFailed(`Langfuse did not take ${count} scores (${example})`);
  }
  return written?.written.length ?? 0;
}
