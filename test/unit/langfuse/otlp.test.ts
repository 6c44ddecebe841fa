import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLangfuseHttp, LangfuseApiError } from '../../../src/langfuse/core/http.js';
import { exportSpans, span, SpansRejectedError } from '../../../src/langfuse/resources/otlp.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';
import { noSleep, scriptedFetch } from './fake-fetch.js';

const keys = { baseUrl: 'http://127.0.0.1:1', publicKey: 'pk', secretKey: 'sk-secret' };
const one = (traceId = 'a'.repeat(32), spanId = 'b'.repeat(16)) =>
  span({ traceId, spanId, name: 'x', startMs: 1_000, endMs: 1_001, attributes: { k: 'v', gone: undefined } });

describe('the one OTLP writer', () => {
  it('builds internal spans with nanosecond times, string attributes and an error status when asked', () => {
    expect(one()).toEqual({
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      name: 'x',
      kind: 1,
      startTimeUnixNano: '1000000000',
      endTimeUnixNano: '1001000000',
      status: { code: 0 },
      attributes: [{ key: 'k', value: { stringValue: 'v' } }],
    });
    const withError = span({
      traceId: 'a'.repeat(32),
      spanId: 'c'.repeat(16),
      parentSpanId: 'b'.repeat(16),
      name: 'y',
      startMs: 0,
      endMs: 0,
      attributes: {},
      error: { message: 'timeout' },
    });
    expect(withError).toMatchObject({ parentSpanId: 'b'.repeat(16), status: { code: 2, message: 'timeout' } });
  });

  it('sends one request under ragwatch’s resource and the caller’s scope, retried like every Langfuse call', async () => {
    const { fetch, requests } = scriptedFetch((_req, i) => (i === 0 ? { status: 503, body: {} } : { status: 200 }));
    const http = createLangfuseHttp({ ...keys, maxAttempts: 2, fetch, sleep: noSleep().sleep });
    await exportSpans(http, [one()], { scope: 'ragwatch-test' });
    expect(requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'POST /api/public/otel/v1/traces',
      'POST /api/public/otel/v1/traces',
    ]);
    const body = requests[1]!.body as {
      resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ scope: { name: string }; spans: unknown[] }> }>;
    };
    expect(body.resourceSpans[0]!.scopeSpans[0]!.scope.name).toBe('ragwatch-test');
    expect(body.resourceSpans[0]!.scopeSpans[0]!.spans).toEqual([one()]);
    expect(JSON.stringify(body.resourceSpans[0]!.resource)).toContain('"service.name"');
  });

  it('treats a partial success as an error naming how many spans were rejected', async () => {
    const { fetch } = scriptedFetch(() => ({
      status: 200,
      body: { partialSuccess: { rejectedSpans: '1', errorMessage: 'bad span' } },
    }));
    const http = createLangfuseHttp({ ...keys, maxAttempts: 1, fetch });
    const err = await exportSpans(http, [one(), one('a'.repeat(32), 'c'.repeat(16))], { scope: 's' }).catch((e) => e);
    expect(err).toBeInstanceOf(SpansRejectedError);
    expect(err).toBeInstanceOf(LangfuseApiError);
    expect(err).toMatchObject({ rejected: 1, total: 2, retryable: false });
    expect((err as Error).message).toContain('rejected 1 of 2 spans: bad span');
  });

  it('holds every span to the W3C id rule before anything is sent', async () => {
    const { fetch, requests } = scriptedFetch(() => ({ status: 200 }));
    const http = createLangfuseHttp({ ...keys, maxAttempts: 1, fetch });
    for (const bad of [one('trace-1'), one('0'.repeat(32)), one('A'.repeat(32)), one('a'.repeat(32), 'b'.repeat(15))]) {
      await expect(exportSpans(http, [bad], { scope: 's' })).rejects.toThrow(/must be (32|16) hex digits/);
    }
    expect(requests).toEqual([]);
  });

  it('is the only place in src/ that posts to the OTLP endpoint', () => {
    const src = join(REPO_ROOT, 'src');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const posting = files(src)
      .filter((f) => readFileSync(f, 'utf8').includes('/api/public/otel/'))
      .map((f) => relative(src, f));
    expect(posting).toEqual(['langfuse/resources/otlp.ts']);
  });
});
