import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCorpusExport } from '@ragwatch/devkit/corpus/export.js';
import { startJudgeServer, type JudgeServer, type JudgeServerOptions } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type Exchange, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { startToyRag, type ToyRag } from '@ragwatch/devkit/rag/index.js';
import { createLangfuseHttp, type LangfuseHttp } from '../../../src/langfuse/core/http.js';
import { watchExchanges } from '../../helpers/openapi.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { standInConfigLines } from '../../helpers/stand-in-env.js';

/** Langfuse (v3 or v4, every exchange checked against the OpenAPI spec), the judge, the toy RAG service, a corpus folder. */
export interface GoldenHarness {
  langfuse: LangfuseServer;
  judge: JudgeServer;
  rag: ToyRag;
  http: LangfuseHttp;
  dir: string;
  exchanges: Exchange[];
  violations: string[];
  /** Runs `ragwatch --config <dir>/ragwatch.yaml …args --no-progress` in this process. */
  cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Requests the judge received for a golden task (`questions`, `references`, …). */
  judgeRequests(task?: string): number;
  close(): Promise<void>;
}

export async function startGoldenHarness(
  personality: 'v3' | 'v4',
  options: { yaml?: string; judge?: JudgeServerOptions; corpus?: boolean } = {},
): Promise<GoldenHarness> {
  const langfuse = await startLangfuseServer({ personality });
  const { exchanges, violations } = watchExchanges(langfuse, { skipFaulted: true });
  const judge = await startJudgeServer(options.judge ?? {});
  const rag = await startToyRag({});
  const dir = await mkdtemp(join(tmpdir(), 'ragwatch-golden-'));
  if (options.corpus !== false) writeCorpusExport(join(dir, 'corpus'));
  const yaml = [
    ...standInConfigLines(langfuse, judge, join(dir, 'state.db')),
    'metrics: {thresholds: {answer_relevancy: 0.55}}',
    `experiment: {bootstrapSamples: 200, reportsDir: "${join(dir, 'reports')}", target: {url: "${rag.askUrl}", maxAttempts: 2}}`,
    options.yaml ?? 'golden: {seeds: {min: 12}}',
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
    rag,
    http,
    dir,
    exchanges,
    violations,
    cli: (...args) =>
      runCliInProcess(
        [
          '--config',
          join(dir, 'ragwatch.yaml'),
          ...args,
          ...(args[0] === 'golden' && args[1] !== 'diff' ? ['--no-progress'] : []),
        ],
        { cwd: dir },
      ),
    judgeRequests: (task) =>
      judge.requests.filter((r) => {
        const name =
          (r.body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name ??
          '';
        return task === undefined ? name.startsWith('ragwatch_') : name === `ragwatch_golden_${task}`;
      }).length,
    async close() {
      await Promise.allSettled([langfuse.close(), judge.close(), rag.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
