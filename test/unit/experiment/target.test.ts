import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpTarget,
  createReplayTarget,
  targetConfigProblems,
  TargetError,
} from '../../../src/experiment/target.js';
import { parseConfig } from '../../helpers/config.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function serve(
  handler: (req: IncomingMessage, body: string) => { status: number; body: unknown; headers?: Record<string, string> },
) {
  const seen: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      const out = handler(req, body);
      res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
      res.end(typeof out.body === 'string' ? out.body : JSON.stringify(out.body));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const noSleep = async () => {};

function targetConfig(raw: Record<string, unknown>) {
  return parseConfig({ experiment: { target: raw } }).experiment.target;
}

describe('HTTP target', () => {
  it('renders the body, sends headers from the environment and maps the response', async () => {
    const { url, seen } = await serve(() => ({
      status: 200,
      body: {
        data: {
          reply: 'Redis answers in under a millisecond.',
          sources: [{ pageContent: 'C1' }, { pageContent: 'C2' }, { pageContent: 'C1' }],
        },
        trace_id: 'tr-9',
      },
    }));
    const target = createHttpTarget(
      targetConfig({
        url: `${url}/ask`,
        headers: { Authorization: 'Bearer ${RAG_TOKEN}' },
        body: { query: '{{question}}', extra_contexts: '{{distractors}}' },
        response: { answer: 'data.reply', contexts: 'data.sources', traceId: 'trace_id' },
      }),
      { env: { RAG_TOKEN: 'tok' }, sleep: noSleep },
    );
    expect(target.acceptsDistractors).toBe(true);
    const answer = await target.ask({ itemId: 'i1', question: 'How fast?', distractors: ['noise'], runName: 'r' });
    expect(answer).toMatchObject({
      answer: 'Redis answers in under a millisecond.',
      contexts: ['C1', 'C2'],
      traceId: 'tr-9',
      attempts: 1,
    });
    expect(JSON.parse(seen[0]!.body)).toEqual({ query: 'How fast?', extra_contexts: ['noise'] });
    expect(seen[0]!.headers.authorization).toBe('Bearer tok');
  });

  it("marks every request as the weekly run's (docs/integrations.md): run and item headers, body field by template", async () => {
    const { url, seen } = await serve(() => ({ status: 200, body: { answer: 'ok', contexts: ['c'] } }));
    const target = createHttpTarget(
      targetConfig({ url: `${url}/ask`, body: { question: '{{question}}', ragwatchRun: '{{runName}}' } }),
      { sleep: noSleep },
    );
    await target.ask({ itemId: 'golden-es-001', question: 'Q', distractors: [], runName: 'weekly-2025-W23' });
    await target.ask({ itemId: 'ítem ñ', question: 'Q', distractors: [], runName: 'semana-ñ' });
    expect(seen[0]!.headers['x-ragwatch-run']).toBe('weekly-2025-W23');
    expect(seen[0]!.headers['x-ragwatch-item']).toBe('golden-es-001');
    expect(JSON.parse(seen[0]!.body)).toEqual({ question: 'Q', ragwatchRun: 'weekly-2025-W23' });
    // Not printable ASCII: percent-encoded, never a refused request.
    expect(decodeURIComponent(String(seen[1]!.headers['x-ragwatch-run']))).toBe('semana-ñ');
    expect(decodeURIComponent(String(seen[1]!.headers['x-ragwatch-item']))).toBe('ítem ñ');
  });

  it('retries 503 and 429 with backoff and then answers', async () => {
    let calls = 0;
    const { url } = await serve(() => {
      calls += 1;
      if (calls === 1) return { status: 503, body: { error: 'busy' } };
      if (calls === 2) return { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '2' } };
      return { status: 200, body: { answer: 'ok', contexts: ['c'] } };
    });
    const sleeps: number[] = [];
    const target = createHttpTarget(targetConfig({ url, maxAttempts: 3 }), {
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 0,
    });
    const answer = await target.ask({ itemId: 'i', question: 'q', distractors: [], runName: 'r' });
    expect(answer.attempts).toBe(3);
    expect(sleeps).toEqual([0, 2000]);
  });

  it('gives up on a persistent outage and does not retry a 400', async () => {
    const { url } = await serve((req) => (req.url === '/bad' ? { status: 400, body: {} } : { status: 500, body: {} }));
    const down = createHttpTarget(targetConfig({ url, maxAttempts: 2 }), { sleep: noSleep });
    await expect(down.ask({ itemId: 'i', question: 'q', distractors: [], runName: 'r' })).rejects.toMatchObject({
      retryable: true,
      message: expect.stringContaining('after 2 attempts'),
    });
    const bad = createHttpTarget(targetConfig({ url: `${url}/bad`, maxAttempts: 5 }), { sleep: noSleep });
    await expect(bad.ask({ itemId: 'i', question: 'q', distractors: [], runName: 'r' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('after 1 attempt'),
    });
  });

  it('rejects a response without an answer rather than scoring an empty one', async () => {
    const { url } = await serve(() => ({ status: 200, body: { contexts: ['c'] } }));
    const target = createHttpTarget(targetConfig({ url }), { sleep: noSleep });
    await expect(target.ask({ itemId: 'i', question: 'q', distractors: [], runName: 'r' })).rejects.toBeInstanceOf(
      TargetError,
    );
  });
});

describe('replay target', () => {
  it('reads the stored answer and contexts from the item', async () => {
    const items = new Map([['i1', { metadata: { answer: 'stored', contexts: ['a', 'b'] } }]]);
    const target = createReplayTarget({ answer: 'metadata.answer', contexts: 'metadata.contexts' }, items);
    expect(await target.ask({ itemId: 'i1', question: 'q', distractors: [], runName: 'r' })).toMatchObject({
      answer: 'stored',
      contexts: ['a', 'b'],
    });
    await expect(target.ask({ itemId: 'zz', question: 'q', distractors: [], runName: 'r' })).rejects.toBeInstanceOf(
      TargetError,
    );
  });
});

describe('targetConfigProblems', () => {
  it('names every problem with its key', () => {
    const problems = targetConfigProblems(
      targetConfig({
        body: { q: '{{question}}', x: '{{oops}}' },
        headers: { Authorization: 'Bearer ${MISSING_TOKEN}' },
        response: { answer: 'a..b' },
      }),
      {},
    );
    expect(problems).toEqual([
      'config: experiment.target.url: is required when experiment.target.mode is http',
      'config: experiment.target.body: unknown template variable {{oops}} (known: question, distractors, itemId, runName)',
      'config: experiment.target.headers.Authorization: environment variable MISSING_TOKEN is not set',
      'config: experiment.target.response.answer: invalid path "a..b" at character 2',
    ]);
  });
});
