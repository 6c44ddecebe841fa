/**
 * The weekly experiment's judge stage, run before any item: the judge check (identity, drift on the anchor
 * set) and the calibration section (agreement with people). Its results go into the report, rendered here; the
 * drift's warning, when the judge changed, opens the report and the gate verdict. The experiment owns the port
 * this implements (`JudgeStage`, experiment/judge-stage.ts) and the composition root hands it over: the two
 * jobs do not import each other, so the shapes meet by structure.
 */
import { resolve } from 'node:path';
import type { RagwatchConfig } from '../config/index.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/index.js';
import type { LangfuseHttp, ApiGeneration } from '../langfuse/index.js';
import type { Runtime } from '../runtime/index.js';
import type { StateStore } from '../state/index.js';
import { calibrationGaugeValues, driftGaugeValues } from './gauges.js';
import { checkJudge, judgeChangedWarning, type JudgeCheck } from './judge-check.js';
import { calibrationHtml, calibrationMarkdown } from './render.js';
import { judgeHtml, judgeMarkdown } from './render-drift.js';
import { buildCalibration, type CalibrationSummary } from './report.js';

export interface JudgeStageDeps {
  config: RagwatchConfig;
  http: LangfuseHttp;
  generation: ApiGeneration;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  /** Names online traces in the disagreements, when the store has a ledger. */
  state: unknown;
  /** Its logger and transport (the judge's identity is read from its `/models`). */
  runtime: Pick<Runtime, 'logger' | 'fetch'>;
  now: number;
  signal?: AbortSignal;
}

/** The report's judge section: the judge's identity and its drift on the anchor set, re-scored before the run. */
export type JudgeSection = Pick<JudgeCheck, 'identity' | 'fingerprint' | 'drift' | 'driftNote' | 'anchorSet'> & {
  /** "the judge changed: …" when drift says so; the gate verdict carries it too. */
  warning: string | null;
};

export interface JudgeStage {
  judge: JudgeSection;
  calibration: CalibrationSummary;
  /** Both sections as the weekly report's Markdown and HTML show them. */
  rendered: { judge: { markdown: string[]; html: string }; calibration: { markdown: string[]; html: string } };
  /** The judge's gauges of the run (agreement, drift and their bars), as the state store keeps them. */
  gauges: Record<string, number>;
}

export async function runJudgeStage(deps: JudgeStageDeps): Promise<JudgeStage> {
  const check = await checkJudge({
    config: deps.config,
    judge: deps.judge,
    embeddings: deps.embeddings,
    logger: deps.runtime.logger,
    resolvePath: (p) => resolve(p),
    fetch: deps.runtime.fetch,
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
  const judge = { identity, fingerprint, drift, driftNote, anchorSet, warning: judgeChangedWarning(check) };
  return {
    judge,
    calibration,
    rendered: {
      judge: { markdown: judgeMarkdown(judge), html: judgeHtml(judge) },
      calibration: { markdown: calibrationMarkdown(calibration), html: calibrationHtml(calibration) },
    },
    gauges: judgeGaugeValues({ judge, calibration }, deps.config),
  };
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
