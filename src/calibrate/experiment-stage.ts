/**
 * The weekly experiment's judge stage, run before any item: the judge check (identity, drift on the anchor
 * set) and the calibration section (agreement with people). Its results go into the report; the drift's
 * warning, when the judge changed, opens the report and the gate verdict.
 */
import { resolve } from 'node:path';
import type { RagwatchConfig } from '../config/index.js';
import type { JudgeSection, RunMetadata } from '../experiment/index.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/index.js';
import type { LangfuseHttp, ApiGeneration } from '../langfuse/index.js';
import type { Logger } from '../runtime/index.js';
import type { StateStore } from '../state/index.js';
import { calibrationGaugeValues, driftGaugeValues } from './gauges.js';
import { checkJudge, judgeChangedWarning } from './judge-check.js';
import { buildCalibration, type CalibrationSummary } from './report.js';

export interface JudgeStageDeps {
  config: RagwatchConfig;
  http: LangfuseHttp;
  generation: ApiGeneration;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  /** Names online traces in the disagreements, when the store has a ledger. */
  state: unknown;
  logger: Logger;
  now: number;
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
}

export interface JudgeStage {
  judge: JudgeSection;
  calibration: CalibrationSummary;
}

export async function runJudgeStage(deps: JudgeStageDeps): Promise<JudgeStage> {
  const check = await checkJudge({
    config: deps.config,
    judge: deps.judge,
    embeddings: deps.embeddings,
    logger: deps.logger,
    resolvePath: (p) => resolve(p),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const ledger =
    typeof (deps.state as Partial<StateStore> | null)?.getEntry === 'function'
      ? (deps.state as Pick<StateStore, 'getEntry'>)
      : null;
  const calibration = await buildCalibration({
    langfuse: { http: deps.http, generation: deps.generation },
    config: deps.config,
    state: ledger,
    now: deps.now,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const { identity, fingerprint, drift, driftNote, anchorSet } = check;
  return {
    judge: { identity, fingerprint, drift, driftNote, anchorSet, warning: judgeChangedWarning(check) },
    calibration,
  };
}

/** The run's plan with the judge's identity in its metadata (recorded with the run in Langfuse and the report). */
export function withJudgeIdentity<P extends { run: RunMetadata; metadata: Record<string, unknown> }>(
  plan: P,
  stage: JudgeStage,
): P {
  const { modelRoot, vllmVersion } = stage.judge.identity;
  const identity = { judgeModelRoot: modelRoot, judgeVllmVersion: vllmVersion };
  return { ...plan, run: { ...plan.run, ...identity }, metadata: { ...plan.metadata, ...identity } };
}

/** The judge's gauges of a finished run (agreement, drift and their bars), as the state store keeps them. */
export function judgeGaugeValues(
  report: { judge: JudgeSection | null; calibration: CalibrationSummary | null },
  config: Pick<RagwatchConfig, 'calibrate'>,
): Record<string, number> {
  const out: Record<string, number> = {};
  if (report.calibration) Object.assign(out, calibrationGaugeValues(report.calibration, config.calibrate));
  if (report.judge?.drift) Object.assign(out, driftGaugeValues(report.judge.drift));
  return out;
}
