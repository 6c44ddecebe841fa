import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemo } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type Exchange, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { createLangfuseHttp, type LangfuseHttp } from '../../../src/langfuse/core/http.js';
import { watchExchanges } from '../../helpers/openapi.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { standInConfigLines } from '../../helpers/stand-in-env.js';

/** Langfuse (v3 or v4, every exchange checked against the OpenAPI spec), the judge, a config and state file. */
export interface CalibrateHarness {
  langfuse: LangfuseServer;
  judge: JudgeServer;
  http: LangfuseHttp;
  dir: string;
  exchanges: Exchange[];
  violations: string[];
  /** Runs `ragwatch --config <dir>/ragwatch.yaml …args` in this process, at `now` when given. */
  cli(args: string[], now?: number): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Production traces in the stand-in, `count` of them ending `minutesAgo` before now. */
  seedTraces(count: number, seed: string | number, end?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCalibrateHarness(
  personality: 'v3' | 'v4',
  options: { yaml?: string; extraYaml?: string } = {},
): Promise<CalibrateHarness> {
  const langfuse = await startLangfuseServer({ personality, host: '127.0.0.1', port: 0 });
  const { exchanges, violations } = watchExchanges(langfuse, { skipFaulted: true });
  const judge = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  const dir = await mkdtemp(join(tmpdir(), 'ragwatch-calibrate-'));
  const yaml = [
    ...standInConfigLines(langfuse, judge, join(dir, 'state.db')),
    'sampling: {rate: 1}',
    'metrics: {thresholds: {answer_relevancy: 0.55}}',
    options.yaml ?? 'calibrate: {rate: 0.5, bootstrapSamples: 300, minPairs: 5}',
    options.extraYaml ?? '',
  ].join('\n');
  await writeFile(join(dir, 'ragwatch.yaml'), `${yaml}\n`);
  const http = createLangfuseHttp({
    baseUrl: langfuse.url,
    publicKey: langfuse.publicKey,
    secretKey: langfuse.secretKey,
    maxAttempts: 1,
  });
  return {
    langfuse,
    judge,
    http,
    dir,
    exchanges,
    violations,
    cli: (args, now) =>
      runCliInProcess(['--config', join(dir, 'ragwatch.yaml'), ...args], {
        cwd: dir,
        ...(now ? { context: { now: () => now } } : {}),
      }),
    async seedTraces(count, seed, end = Date.now() - 2 * 60_000) {
      await seedDemo({
        langfuseUrl: langfuse.url,
        publicKey: langfuse.publicKey,
        secretKey: langfuse.secretKey,
        personality,
        count,
        now: new Date(end),
        windowMinutes: 60,
        dataset: false,
        verify: false,
        seed,
      });
    },
    async close() {
      await Promise.allSettled([langfuse.close(), judge.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
