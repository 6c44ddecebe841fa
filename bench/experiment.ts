/**
 * Weekly golden-set experiment against the stand-ins: wall time of a whole run of the demo golden set (66 items)
 * through the toy RAG service, on the v3 and v4 Langfuse personalities, clean only and with the noise run; judge
 * requests per item. `npx tsx bench/experiment.ts`
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LangfuseClient } from '@langfuse/client';
import { configSchemaFor } from '../src/config/schema.js';
import { allMetrics } from '../src/metrics/registry.js';
import { GOLDEN_ITEMS, seedGoldenDataset } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { startToyRag } from '@ragwatch/devkit/rag/index.js';
import { runJudgeStage } from '../src/calibrate/index.js';
import { connectExperiment } from '../src/experiment/edges.js';
import { runExperiment } from '../src/experiment/run.js';
import { createLogger, createRuntime } from '../src/runtime/index.js';
import { openSqliteState } from '../src/state/index.js';

async function main() {
  const judge = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  const rag = await startToyRag();
  const dir = await mkdtemp(join(tmpdir(), 'ragwatch-bench-experiment-'));
  console.log(`golden set: ${GOLDEN_ITEMS.length} items; judge stand-in and toy RAG on loopback`);
  console.log('personality  noise  run ms  items/s  judge req/item  scores');
  for (const personality of ['v3', 'v4'] as const) {
    for (const noise of [false, true]) {
      const langfuse = await startLangfuseServer({ personality, host: '127.0.0.1', port: 0 });
      await seedGoldenDataset(
        new LangfuseClient({ baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey }),
      );
      const config = configSchemaFor(allMetrics()).parse({
        langfuse: { baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey },
        judge: { baseUrl: judge.url, model: judge.model },
        embeddings: { model: judge.embeddingModel },
        log: { level: 'silent' },
        experiment: {
          reportsDir: join(dir, personality, String(noise)),
          noise: { enabled: noise },
          target: { url: rag.askUrl, body: { question: '{{question}}', distractors: '{{distractors}}' } },
        },
      });
      const state = openSqliteState({ path: ':memory:' });
      const deps = await connectExperiment(config, {
        runtime: createRuntime({ logger: createLogger({ level: 'silent' }) }),
        state,
        judgeStage: runJudgeStage,
      });
      const before = judge.requests.length;
      const started = performance.now();
      const result = await runExperiment(deps, { reportsDir: config.experiment.reportsDir });
      const ms = performance.now() - started;
      const judgeRequests = judge.requests.length - before;
      console.log(
        `${personality.padEnd(11)}  ${String(noise).padEnd(5)}  ${ms.toFixed(0).padStart(6)}  ${(GOLDEN_ITEMS.length / (ms / 1000)).toFixed(1).padStart(7)}  ${(judgeRequests / GOLDEN_ITEMS.length).toFixed(1).padStart(14)}  ${String(result.scoresWritten).padStart(6)}`,
      );
      await state.close();
      await langfuse.close();
    }
  }
  await rag.close();
  await judge.close();
  await rm(dir, { recursive: true, force: true });
}

await main();
