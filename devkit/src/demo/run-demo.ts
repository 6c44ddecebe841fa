import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchemaFor, type RagwatchConfig } from 'ragwatch/config/schema.js';
import { createRuntime, silentLogger, type Runtime } from 'ragwatch/runtime/index.js';
import { allMetrics } from 'ragwatch/metrics/registry.js';
import type { Personality } from '../corpus/emit/emit.js';
import type { DemoTrace } from '../corpus/model.js';
import { startJudgeServer, type JudgeServer } from '../judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '../langfuse/index.js';
import { startReportServer, type ReportServer } from './report-server.js';

/** Everything a demo step can use: both stand-ins, a configuration pointing at them, a scratch directory. */
export interface DemoEnvironment {
  personality: Personality;
  seed: string;
  traces: number;
  now: () => number;
  /** What the steps run ragwatch's jobs on: the demo's clock, a silent logger, the keep-alive transport. */
  runtime: Runtime;
  langfuse: LangfuseServer;
  judge: JudgeServer;
  /** The configuration a user would write for these servers (state and reports inside `workDir`). */
  config: RagwatchConfig;
  /** Scratch directory for the state database and config files; removed on close. */
  workDir: string;
  /** A fresh directory per demo run, kept after it ends, and where its reports are served while the servers run. */
  reports: { dir: string; url: string };
  /** Whether the servers stay up after the steps (`--keep`): steps leave their own services running too. */
  keep: boolean;
  /** The toy RAG service, when a step left it running (`--keep`), with a configuration that points at it. */
  rag?: { askUrl: string; configFile: string };
  /** Registers something to stop when the demo closes. */
  onClose(stop: () => Promise<void>): void;
  /** Results of the steps that already ran, by step name. */
  results: Map<string, DemoStepResult>;
  /** The generated traces the seed step sent to Langfuse (empty until it ran): what each trace id is. */
  seeded: DemoTrace[];
}

export interface DemoStepResult {
  ok: boolean;
  /** What happened, one line each, for the console. */
  lines: string[];
  /** Machine-readable details (printed by `--json`). */
  data?: unknown;
}

/** One thing the demo does. Later capabilities add steps (an online tick, an experiment) without touching the runner. */
export interface DemoStep {
  name: string;
  title: string;
  run(env: DemoEnvironment): Promise<DemoStepResult>;
}

export interface RunDemoOptions {
  personality: Personality;
  seed: string;
  traces: number;
  steps: DemoStep[];
  host?: string;
  langfusePort?: number;
  judgePort?: number;
  now?: () => number;
  /** Leave the servers up after the steps, until `close()`. */
  keep?: boolean;
  /** Called once both stand-ins are up, before the first step. */
  onReady?: (env: DemoEnvironment) => void;
  /** Called when a step starts and ends, so the console shows progress. */
  onStepStart?: (step: DemoStep, index: number, total: number) => void;
  onStepEnd?: (step: DemoStep, result: DemoStepResult, index: number, total: number) => void;
}

export interface DemoRun {
  env: DemoEnvironment;
  steps: Array<{ name: string; title: string; result: DemoStepResult }>;
  ok: boolean;
  /** Stops the servers and removes the scratch directory (the reports stay). */
  close(): Promise<void>;
}

export const DEMO_SAMPLING_RATE = 0.3;
/** Twice the seeded hour: the first tick lists all of it, with room to spare. */
const DEMO_LOOKBACK_SECONDS = 2 * 3600;

function demoConfig(
  personality: Personality,
  langfuse: LangfuseServer,
  judge: JudgeServer,
  workDir: string,
  reports: { dir: string; url: string },
): RagwatchConfig {
  return configSchemaFor(allMetrics()).parse({
    langfuse: {
      baseUrl: langfuse.url,
      publicKey: langfuse.publicKey,
      secretKey: langfuse.secretKey,
      apiGeneration: personality,
      maxAttempts: 3,
    },
    judge: { baseUrl: judge.url, model: judge.model, apiKey: 'EMPTY' },
    embeddings: { baseUrl: judge.url, model: judge.embeddingModel, apiKey: 'EMPTY' },
    // The run metadata links to the reports as the daemon would serve them: here, the demo's report server.
    experiment: { reportsDir: reports.dir, publicUrl: reports.url },
    state: { path: join(workDir, 'ragwatch.db') },
    // The seeded traces are spread over the last hour and the demo ticks right away: nothing waits to
    // settle, the first look-back covers the whole seeded window, and a rate well above production's
    // 0.05–0.10 samples enough of a small corpus to show.
    sampling: { rate: DEMO_SAMPLING_RATE },
    online: { settleDelaySeconds: 0, initialLookbackSeconds: DEMO_LOOKBACK_SECONDS },
    log: { level: 'warn' },
  });
}

/**
 * Starts the Langfuse and judge stand-ins on loopback, then runs the steps in order. A failing step is
 * recorded (its error becomes its result) and the following steps still run, so one broken capability
 * does not hide the others.
 */
export async function runDemo(options: RunDemoOptions): Promise<DemoRun> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  const langfuse = await startLangfuseServer({
    personality: options.personality,
    host,
    port: options.langfusePort ?? 0,
    now,
  });
  let judge: JudgeServer;
  try {
    judge = await startJudgeServer({ host, port: options.judgePort ?? 0 });
  } catch (err) {
    await langfuse.close();
    throw err;
  }
  const workDir = mkdtempSync(join(tmpdir(), 'ragwatch-demo-'));
  const reportsDir = mkdtempSync(join(tmpdir(), 'ragwatch-demo-reports-'));
  let reportServer: ReportServer;
  try {
    reportServer = await startReportServer(reportsDir, host);
  } catch (err) {
    await Promise.allSettled([langfuse.close(), judge.close()]);
    throw err;
  }
  const reports = { dir: reportsDir, url: reportServer.url };
  const closers: Array<() => Promise<void>> = [];
  const env: DemoEnvironment = {
    personality: options.personality,
    seed: options.seed,
    traces: options.traces,
    now,
    runtime: createRuntime({ logger: silentLogger(), clock: { now } }),
    langfuse,
    judge,
    config: demoConfig(options.personality, langfuse, judge, workDir, reports),
    workDir,
    reports,
    keep: options.keep ?? false,
    onClose: (stop) => void closers.push(stop),
    results: new Map(),
    seeded: [],
  };
  const close = async () => {
    await Promise.allSettled([...closers.map((stop) => stop()), langfuse.close(), judge.close(), reportServer.close()]);
    rmSync(workDir, { recursive: true, force: true });
  };
  options.onReady?.(env);
  const steps: DemoRun['steps'] = [];
  const total = options.steps.length;
  for (const [i, step] of options.steps.entries()) {
    options.onStepStart?.(step, i, total);
    let result: DemoStepResult;
    try {
      result = await step.run(env);
    } catch (err) {
      result = { ok: false, lines: [`failed: ${err instanceof Error ? err.message : String(err)}`] };
    }
    env.results.set(step.name, result);
    steps.push({ name: step.name, title: step.title, result });
    options.onStepEnd?.(step, result, i, total);
  }
  return { env, steps, ok: steps.every((s) => s.result.ok), close };
}
