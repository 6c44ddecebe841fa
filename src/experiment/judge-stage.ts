/**
 * The judge stage, a port the experiment owns: before any item, whether the judge changed (its identity, drift
 * on the anchor set) and how it agrees with people. calibrate/ provides it (`runJudgeStage`) and the composition
 * root (the daemon, `experiment run`) hands it in, so the two jobs never import each other. What the stage
 * found goes into the report as it shaped it; the experiment reads only the fields below.
 */
import type { RagwatchConfig } from '../config/index.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/index.js';
import type { ApiGeneration, LangfuseHttp } from '../langfuse/index.js';
import type { Runtime } from '../runtime/index.js';

export interface JudgeStageInput {
  config: RagwatchConfig;
  http: LangfuseHttp;
  generation: ApiGeneration;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  /** Names online traces in the disagreements, when the store has a ledger. */
  state: unknown;
  /** Its logger and transport (the judge's identity is read from its `/models`). */
  runtime: Runtime;
  /** When the run started (ms since the epoch). */
  now: number;
  signal?: AbortSignal;
}

/** The report's judge section, as far as the experiment reads it (report.json carries the stage's whole). */
export interface JudgeSection {
  identity: { modelRoot: string | null; vllmVersion: string | null };
  /** "the judge changed: …" when drift says so; the gate verdict carries it too. */
  warning: string | null;
}

/** A section of the report another part of ragwatch shapes, as the Markdown and HTML reports show it. */
export interface RenderedSection {
  markdown: string[];
  html: string;
}

/** What the stage found; J and C are the provider's own shapes of the two sections, which the report carries. */
export interface JudgeStageResult<J extends JudgeSection = JudgeSection, C extends object = object> {
  judge: J;
  /** Agreement between the judge and people (`ragwatch calibrate`), as report.json carries it. */
  calibration: C;
  rendered: { judge: RenderedSection; calibration: RenderedSection };
  /** The gauges a run publishes once it finished (agreement, drift and their bars), keyed as the state keeps them. */
  gauges: Record<string, number>;
}

export type JudgeStage<J extends JudgeSection = JudgeSection, C extends object = object> = (
  input: JudgeStageInput,
) => Promise<JudgeStageResult<J, C>>;
