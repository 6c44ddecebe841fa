import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { startToyRag, type ToyRag } from '@ragwatch/devkit/rag/index.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';

/** The checks `doctor` makes beyond the basics: the experiment's dataset and RAG service, the embeddings model, judge error bodies. */
let judge: JudgeServer;
let langfuse: LangfuseServer;
let rag: ToyRag;
let dir: string;
const servers: Server[] = [];

beforeAll(async () => {
  judge = await startJudgeServer({ host: '127.0.0.1' });
  langfuse = await startLangfuseServer({ personality: 'v3', host: '127.0.0.1' });
  rag = await startToyRag();
  langfuse.store.createDataset({ name: 'rag-golden' });
  for (const [i, split] of ['dev', 'test', 'test'].entries()) {
    langfuse.store.createDatasetItem({
      datasetName: 'rag-golden',
      id: `item-${i}`,
      input: { question: 'How do I reset my Lumora hub?' },
      metadata: { type: 'single-hop', split },
    });
  }
  langfuse.store.createDataset({ name: 'empty-golden' });
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-doctor-more-'));
});
afterAll(async () => {
  await Promise.all([
    judge?.close(),
    langfuse?.close(),
    rag?.close(),
    ...servers.map((s) => new Promise((r) => s.close(r))),
  ]);
});

let n = 0;
function configFile(overrides: Record<string, Record<string, unknown>> = {}): string {
  const config: Record<string, Record<string, unknown>> = {
    langfuse: { baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey },
    judge: { baseUrl: judge.url, model: judge.model },
    embeddings: { model: judge.embeddingModel },
    state: { path: join(dir, 'state', 'ragwatch.db') },
    // What /reports/ asks for is not doctor's business.
    http: { reportsPublic: true },
  };
  for (const [section, values] of Object.entries(overrides))
    config[section] = { ...(config[section] ?? {}), ...values };
  const file = join(dir, `doctor-${++n}.yaml`);
  writeFileSync(file, stringify(config));
  return file;
}

const doctor = (file: string) => runCliInProcess(['--config', file, 'doctor', '--timeout', '5'], { cwd: dir, env: {} });
const line = (out: string, name: string) =>
  out.split('\n').find((l) => l.split(/\s+/)[1] === name) ?? `(no ${name} line)`;
const target = (url: string) => ({
  url,
  body: { question: '{{question}}' },
  response: { answer: 'answer', contexts: 'contexts' },
});

/** An OpenAI-compatible server that lists `models` and answers every completion or embedding with `status` and `body`. */
async function failingJudge(models: string[], status: number, body: unknown): Promise<string> {
  const server = createServer((req, res) => {
    const json = (code: number, value: unknown) =>
      res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    req.resume();
    req.on('end', () =>
      req.url === '/v1/models'
        ? json(200, { object: 'list', data: models.map((id) => ({ id, object: 'model' })) })
        : json(status, body),
    );
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('doctor with the experiment enabled', () => {
  it('checks the dataset has items in the split and the RAG service answers one of them', async () => {
    const res = await doctor(configFile({ experiment: { enabled: true, split: 'test', target: target(rag.askUrl) } }));
    expect(res.stderr).toBe('');
    expect(res.code, res.stdout).toBe(0);
    expect(line(res.stdout, 'experiment-dataset')).toMatch(
      /^ok\s+experiment-dataset\s+"rag-golden": 2 readable items in split test \(3 active\)$/,
    );
    expect(line(res.stdout, 'experiment-target')).toMatch(
      /^ok\s+experiment-target\s+POST http:\/\/127\.0\.0\.1:\d+\/ask: dataset item item-1 answered in \d+ ms \(\d+ characters, [1-9]\d* contexts?\)$/,
    );
    expect(res.stdout).toMatch(/doctor: all 7 checks passed/);
  });

  it('fails a missing or empty dataset and a RAG service that does not answer', async () => {
    const down = await startToyRag();
    const url = down.askUrl;
    await down.close();
    const missing = await doctor(
      configFile({ experiment: { enabled: true, dataset: 'no-such-golden', target: target(url) } }),
    );
    expect(missing.code).toBe(3);
    expect(line(missing.stdout, 'experiment-dataset')).toMatch(
      /^FAIL\s+experiment-dataset\s+experiment\.dataset "no-such-golden" does not exist in Langfuse at http/,
    );
    expect(line(missing.stdout, 'experiment-target')).toMatch(
      /^FAIL\s+experiment-target\s+POST http:\/\/127\.0\.0\.1:\d+\/ask: a probe question: .*cannot reach the RAG service/,
    );

    const empty = await doctor(
      configFile({ experiment: { enabled: true, dataset: 'empty-golden', target: target(rag.askUrl) } }),
    );
    expect(line(empty.stdout, 'experiment-dataset')).toMatch(
      /^FAIL\s+experiment-dataset\s+"empty-golden": no readable items in split all \(0 active\)$/,
    );
    expect(line(empty.stdout, 'experiment-target')).toMatch(/^ok\s+experiment-target\s+.*a probe question answered/);

    rag.failWith = 500;
    try {
      const failing = await doctor(configFile({ experiment: { enabled: true, target: target(rag.askUrl) } }));
      expect(line(failing.stdout, 'experiment-target')).toMatch(
        /^FAIL\s+experiment-target\s+.*RAG service answered HTTP 500/,
      );
    } finally {
      rag.failWith = null;
    }
    const mapping = await doctor(
      configFile({
        experiment: {
          enabled: true,
          target: { ...target(rag.askUrl), response: { answer: 'reply', contexts: 'contexts' } },
        },
      }),
    );
    expect(line(mapping.stdout, 'experiment-target')).toMatch(/^FAIL\s+experiment-target\s+.*no answer at reply/);
  });

  it('says nothing about the experiment while it is disabled', async () => {
    const res = await doctor(configFile());
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('experiment-');
    expect(res.stdout).toMatch(/doctor: all 5 checks passed/);
  });
});

describe('doctor on the judge and embeddings models', () => {
  it('fails an embeddings model the server does not serve', async () => {
    const res = await doctor(configFile({ embeddings: { model: 'bge-m3-missing' } }));
    expect(res.code).toBe(3);
    expect(line(res.stdout, 'embeddings')).toMatch(
      /^FAIL\s+embeddings\s+http:\/\/127\.0\.0\.1:\d+\/v1: embeddings\.model "bge-m3-missing" is not served \(served: .*ragwatch-standin/,
    );
  });

  it('does not pass the structured-output check for a model the server does not serve', async () => {
    // The stand-in answers any model name; a real vLLM would 404. Either way the check must not pass.
    const res = await doctor(configFile({ judge: { model: 'qwen-does-not-exist' } }));
    expect(res.code).toBe(3);
    expect(line(res.stdout, 'judge-model')).toMatch(/^FAIL\s+judge-model\s+.*"qwen-does-not-exist" is not served/);
    expect(line(res.stdout, 'judge-json-schema')).toMatch(
      /^FAIL\s+judge-json-schema\s+qwen-does-not-exist: not checked, the judge-model check failed$/,
    );
  });

  it.each([
    [
      'a flat body (older vLLM, LiteLLM)',
      {
        object: 'error',
        message: "This model's maximum context length is 8192 tokens.",
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    ],
    [
      'OpenAI’s error envelope',
      {
        error: {
          message: "This model's maximum context length is 8192 tokens.",
          type: 'BadRequestError',
          param: null,
          code: 400,
        },
      },
    ],
    ['FastAPI’s detail', { detail: "This model's maximum context length is 8192 tokens." }],
  ])('shows the judge’s own error message from %s', async (_shape, body) => {
    const url = await failingJudge(['judge-x', 'emb-x'], 400, body);
    const res = await doctor(configFile({ judge: { baseUrl: url, model: 'judge-x' }, embeddings: { model: 'emb-x' } }));
    expect(res.code).toBe(3);
    expect(line(res.stdout, 'judge-json-schema')).toMatch(
      /^FAIL\s+judge-json-schema\s+judge-x: .*http_400: 400 This model's maximum context length is 8192 tokens\.$/,
    );
    expect(line(res.stdout, 'embeddings')).toContain("400 This model's maximum context length is 8192 tokens.");
  });

  it('shows the server’s message when listing models fails', async () => {
    const server = createServer((req, res) => {
      req.resume();
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'error', message: 'Engine is still loading the model weights', code: 503 }));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const res = await doctor(configFile({ judge: { baseUrl: url, maxAttempts: 1 } }));
    expect(line(res.stdout, 'judge-model')).toMatch(
      /^FAIL\s+judge-model\s+http:.*\/v1\/models: HTTP 503: Engine is still loading the model weights$/,
    );
  });
});
