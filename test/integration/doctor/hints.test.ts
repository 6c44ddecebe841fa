import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { freePort } from '../../helpers/free-port.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';

/** What `doctor` says of the mistakes a first deployment makes with a URL: a hint, not only the error. */

const TLS = new URL('../../fixtures/tls/', import.meta.url);
let judge: JudgeServer;
let langfuse: LangfuseServer;
let https: Server;
let dir: string;
let closed: string;

beforeAll(async () => {
  judge = await startJudgeServer({ host: '127.0.0.1' });
  langfuse = await startLangfuseServer({ personality: 'v3', host: '127.0.0.1' });
  https = createHttpsServer(
    { key: readFileSync(new URL('self-signed.key', TLS)), cert: readFileSync(new URL('self-signed.crt', TLS)) },
    (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    },
  );
  await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-doctor-hints-'));
  // A port that was free a moment ago: nothing listens there.
  closed = `127.0.0.1:${await freePort()}`;
});
afterAll(async () => {
  await Promise.all([judge?.close(), langfuse?.close(), new Promise((r) => https?.close(r))]);
});

let n = 0;
function configFile(overrides: Record<string, Record<string, unknown>> = {}): string {
  const config: Record<string, Record<string, unknown>> = {
    langfuse: { baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey, maxAttempts: 1 },
    judge: { baseUrl: judge.url, model: judge.model, maxAttempts: 1 },
    embeddings: { model: judge.embeddingModel, maxAttempts: 1 },
    state: { path: join(dir, 'state', 'ragwatch.db') },
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

describe('doctor hints', () => {
  it('a judge URL without /v1: says where the API usually is', async () => {
    const base = judge.url.replace(/\/v1$/, '');
    const res = await doctor(configFile({ judge: { baseUrl: base } }));
    expect(res.code).toBe(3);
    expect(line(res.stdout, 'judge-model')).toContain(
      `HTTP 404; OpenAI-compatible servers (vLLM) serve the API under /v1: try judge.baseUrl ${base}/v1`,
    );
  });

  it('a refused connection: names host and port and says nothing listens there', async () => {
    const res = await doctor(
      configFile({ langfuse: { baseUrl: `http://${closed}` }, judge: { baseUrl: `http://${closed}/v1` } }),
    );
    expect(res.code).toBe(3);
    const refused = `connection refused by ${closed}: nothing listens there (is the server running, is the port right?)`;
    expect(line(res.stdout, 'langfuse')).toContain(refused);
    expect(line(res.stdout, 'judge-model')).toContain(refused);
    expect(line(res.stdout, 'embeddings')).toContain(refused);
  });

  it('https to a server that speaks plain http: says so', async () => {
    const res = await doctor(configFile({ judge: { baseUrl: judge.url.replace(/^http:/, 'https:') } }));
    expect(line(res.stdout, 'judge-model')).toMatch(
      /TLS handshake failed with 127\.0\.0\.1:\d+: the server does not speak TLS there \(use http:\/\/\?\)/,
    );
  });

  it('a certificate Node does not trust: says how to trust it', async () => {
    const url = `https://127.0.0.1:${(https.address() as AddressInfo).port}/v1`;
    const res = await doctor(configFile({ judge: { baseUrl: url } }));
    expect(line(res.stdout, 'judge-model')).toMatch(
      /TLS: 127\.0\.0\.1:\d+ presented a certificate Node does not trust \(DEPTH_ZERO_SELF_SIGNED_CERT\): give Node your CA with NODE_EXTRA_CA_CERTS=\/path\/to\/ca\.pem/,
    );
  });
});
