import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LangfuseClient } from '@langfuse/client';
import { type RagwatchConfig } from '../../../src/config/schema.js';
import { seedGoldenDataset, type GoldenItem } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { startToyRag, type ToyRag } from '@ragwatch/devkit/rag/index.js';
import { runJudgeStage, type CalibrationSummary, type JudgeSection } from '../../../src/calibrate/index.js';
import { connectExperiment } from '../../../src/experiment/edges.js';
import { runExperiment, type ExperimentOptions, type ExperimentResult } from '../../../src/experiment/run.js';
import { openSqliteState } from '../../../src/state/index.js';
import type { StateStore } from '../../../src/state/types.js';
import { configSchema } from '../../helpers/config.js';
import { testRuntime } from '../../../src/runtime/index.js';

/** Stand-ins for one experiment scenario: Langfuse (v3 or v4) with the golden dataset, the judge, the toy RAG. */
export interface Harness {
  langfuse: LangfuseServer;
  judge: JudgeServer;
  rag: ToyRag;
  dir: string;
  state: StateStore;
  clock: { now: number };
  config(extra?: Record<string, unknown>): RagwatchConfig;
  /** YAML for the CLI, same settings as `config()`. */
  yaml(extra?: string): string;
  run(
    options?: Partial<ExperimentOptions>,
    config?: RagwatchConfig,
  ): Promise<ExperimentResult<JudgeSection, CalibrationSummary>>;
  close(): Promise<void>;
}

export const START = Date.parse('2026-11-23T03:00:00Z'); // a Monday, ISO week 48

export async function startHarness(
  personality: 'v3' | 'v4',
  options: {
    ragTraces?: boolean;
    judge?: JudgeServer;
    rag?: ToyRag;
    clock?: { now: number };
    items?: readonly GoldenItem[];
  } = {},
): Promise<Harness> {
  const clock = options.clock ?? { now: START };
  const langfuse = await startLangfuseServer({ personality, host: '127.0.0.1', port: 0 });
  const ownJudge = !options.judge;
  const judge = options.judge ?? (await startJudgeServer({ host: '127.0.0.1', port: 0 }));
  const ownRag = !options.rag;
  const rag =
    options.rag ??
    (await startToyRag(
      options.ragTraces
        ? { langfuse: { baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey } }
        : {},
    ));
  const client = new LangfuseClient({
    baseUrl: langfuse.url,
    publicKey: langfuse.publicKey,
    secretKey: langfuse.secretKey,
  });
  await seedGoldenDataset(client, options.items ? { items: options.items } : {});
  const dir = await mkdtemp(join(tmpdir(), 'ragwatch-experiment-'));
  const state = openSqliteState({ path: ':memory:' });
  const base = (extra: Record<string, unknown> = {}) => ({
    langfuse: { baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey, maxAttempts: 2 },
    judge: { baseUrl: judge.url, model: judge.model, maxAttempts: 2, timeoutMs: 20_000 },
    embeddings: { model: judge.embeddingModel },
    log: { level: 'silent' },
    // The judge stand-in's lexical answer relevancy tops out near 0.6 even for good answers.
    metrics: { thresholds: { answer_relevancy: 0.55 } },
    ...extra,
    experiment: {
      bootstrapSamples: 500,
      reportsDir: join(dir, 'reports'),
      // The demo golden set's test split holds 26 scored and 7 adversarial items, and the toy RAG checks no
      // premise: these scenarios are about the run, so the gate decides on what they have and leaves abstention
      // out (the evidence floors and the abstention gate have their own tests, gate-evidence.test.ts).
      gate: { minItems: 20, minAbstention: null },
      ...((extra.experiment as object) ?? {}),
      target: {
        url: rag.askUrl,
        response: { answer: 'answer', contexts: 'contexts', traceId: 'traceId' },
        maxAttempts: 2,
        ...((extra.experiment as { target?: object })?.target ?? {}),
      },
    },
  });
  const harness: Harness = {
    langfuse,
    judge,
    rag,
    dir,
    state,
    clock,
    config: (extra) => configSchema.parse(base(extra)),
    yaml: (extra = '') =>
      [
        `langfuse: {baseUrl: "${langfuse.url}", publicKey: ${langfuse.publicKey}, secretKey: ${langfuse.secretKey}, maxAttempts: 2}`,
        `judge: {baseUrl: "${judge.url}", model: ${judge.model}, maxAttempts: 2, timeoutMs: 20000}`,
        `embeddings: {model: ${judge.embeddingModel}}`,
        'log: {level: silent}',
        'metrics: {thresholds: {answer_relevancy: 0.55}}',
        `state: {path: "${join(dir, 'state.db')}"}`,
      ]
        // A top-level key given in `extra` replaces the default line.
        .filter((line) => !new RegExp(`^${line.slice(0, line.indexOf(':'))}:`, 'm').test(extra))
        .concat(extra)
        .join('\n'),
    async run(runOptions = {}, config = harness.config()) {
      const deps = await connectExperiment(config, {
        runtime: testRuntime({ now: { now: () => clock.now } }),
        state,
        judgeStage: runJudgeStage,
      });
      return runExperiment(deps, { reportsDir: config.experiment.reportsDir, ...runOptions });
    },
    async close() {
      state.close();
      if (ownRag) await rag.close();
      if (ownJudge) await judge.close();
      await langfuse.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
