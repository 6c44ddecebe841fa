/**
 * The weekly experiment of bench/scale: a golden set of `items` items through the toy RAG service, the four RAGAS
 * metrics scored by the judge stand-in, the run recorded in Langfuse and reported. Wall time from the start of the
 * run to its record, against the judge-bound ideal (the service time the judge drew ÷ its slots).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import { allMetrics } from '../../src/metrics/registry.js';
import { runJudgeStage } from '../../src/calibrate/index.js';
import { connectExperiment } from '../../src/experiment/edges.js';
import { runExperiment } from '../../src/experiment/run.js';
import { createRuntime, silentLogger } from '../../src/runtime/index.js';
import { openSqliteState } from '../../src/state/index.js';
import { occupancyOf, sampleJudge, type Occupancy } from './occupancy.js';
import type { StandIns } from './procs.js';

export interface ExperimentSpec {
  items: number;
  judgeConcurrency: number;
  /**
   * `bench`: experiment.target.concurrency = judge.concurrency; `defaults`: ragwatch's defaults for everything but
   * judge.concurrency.
   */
  settings: 'bench' | 'defaults';
  queueOrder?: 'longest-first' | 'arrival';
}

export interface ExperimentResult {
  items: number;
  seconds: number;
  idealSeconds: number;
  occupancy: Occupancy;
  judgeRequests: number;
  cpuMs: number;
}

export async function weeklyExperiment(standIns: StandIns, spec: ExperimentSpec): Promise<ExperimentResult> {
  const { items, judgeConcurrency } = spec;
  const dataset = `rag-golden-${items}`;
  await standIns.ask({ type: 'seed-golden', name: dataset, items });
  const dir = await mkdtemp(join(tmpdir(), 'ragwatch-bench-scale-experiment-'));
  const { langfuse, judge, ragUrl } = standIns.ready;
  const config = parseConfig(
    {
      langfuse: { baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey },
      judge: {
        baseUrl: judge.url,
        model: judge.model,
        concurrency: judgeConcurrency,
        ...(spec.queueOrder ? { queueOrder: spec.queueOrder } : {}),
      },
      embeddings: { model: judge.embeddingModel },
      log: { level: 'silent' },
      experiment: {
        dataset,
        reportsDir: dir,
        noise: { enabled: true },
        target: {
          url: ragUrl,
          body: { question: '{{question}}', distractors: '{{distractors}}' },
          ...(spec.settings === 'bench' ? { concurrency: judgeConcurrency } : {}),
        },
      },
    },
    allMetrics(),
  );
  const state = openSqliteState({ path: ':memory:' });
  const deps = await connectExperiment(config, {
    runtime: createRuntime({ logger: silentLogger() }),
    state,
    judgeStage: runJudgeStage,
  });
  const sampler = sampleJudge(standIns);
  const cpu0 = process.cpuUsage();
  await runExperiment(deps, { reportsDir: dir });
  const cpu = process.cpuUsage(cpu0);
  const samples = await sampler.stop();
  const before = samples[0]!;
  const after = samples[samples.length - 1]!;
  await state.close();
  await rm(dir, { recursive: true, force: true });
  const spanMs = after.atMs - before.atMs;
  return {
    items,
    seconds: spanMs / 1000,
    idealSeconds: (after.serviceDrawnMs - before.serviceDrawnMs) / after.parallelism / 1000,
    occupancy: occupancyOf(samples),
    judgeRequests: after.granted - before.granted,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}
