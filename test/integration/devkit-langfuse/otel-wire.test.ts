import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider, startActiveObservation } from '@langfuse/tracing';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startLangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('devkit Langfuse: OTLP wire format', () => {
  it('receives what @langfuse/otel sends: JSON, hex ids, nanosecond strings', async () => {
    harness = await startHarness({ personality: 'v4' });
    const processor = new LangfuseSpanProcessor({
      publicKey: harness.server.publicKey,
      secretKey: harness.server.secretKey,
      baseUrl: harness.server.url,
      exportMode: 'immediate',
    });
    const provider = new NodeTracerProvider({ spanProcessors: [processor] });
    provider.register();
    setLangfuseTracerProvider(provider);
    await startActiveObservation('wire', async (span) => span.update({ input: 'x' }));
    await provider.forceFlush();
    await provider.shutdown();
    const otlp = harness.exchanges.find((e) => e.route === '/api/public/otel/v1/traces');
    expect(otlp?.requestHeaders['content-type']).toContain('application/json');
    const span = (otlp?.requestBody as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] })
      .resourceSpans[0]?.scopeSpans[0]?.spans[0];
    expect(span?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span?.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(typeof span?.startTimeUnixNano).toBe('string');
    expect(harness.violations).toEqual([]);
  });

  it('accepts gzip-compressed exports', async () => {
    harness = await startHarness({ personality: 'v3' });
    const auth = Buffer.from(`${harness.server.publicKey}:${harness.server.secretKey}`).toString('base64');
    const exporter = new OTLPTraceExporter({
      url: `${harness.server.url}/api/public/otel/v1/traces`,
      headers: { Authorization: `Basic ${auth}` },
      // The enum lives in a transitive package; its runtime value is the string.
      compression: 'gzip' as NonNullable<
        NonNullable<ConstructorParameters<typeof OTLPTraceExporter>[0]>['compression']
      >,
    });
    const processor = new LangfuseSpanProcessor({ exporter, exportMode: 'immediate' });
    const provider = new NodeTracerProvider({ spanProcessors: [processor] });
    setLangfuseTracerProvider(provider);
    let traceId = '';
    await startActiveObservation('zipped', async (span) => {
      traceId = span.traceId;
      span.update({ output: 'ok' });
    });
    await provider.forceFlush();
    await provider.shutdown();
    expect(
      harness.exchanges.find((e) => e.route === '/api/public/otel/v1/traces')?.requestHeaders['content-encoding'],
    ).toBe('gzip');
    expect(harness.server.store.getTrace(traceId)?.name).toBe('zipped');

    const raw = await fetch(`${harness.server.url}/api/public/otel/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'no-ids' }] }] }] })),
    });
    expect(raw.status).toBe(400);
    expect(harness.violations).toEqual([]);
  });

  it("accepts OTLP protobuf (what OpenLLMetry's exporter sends) and answers in protobuf; a broken message is a 400", async () => {
    harness = await startHarness({ personality: 'v3' });
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const span = provider
      .getTracer('proto-test')
      .startSpan('retrieve', { attributes: { 'traceloop.entity.output': '["doc"]' } });
    span.end();
    const body = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans())!;
    const auth = Buffer.from(`${harness.server.publicKey}:${harness.server.secretKey}`).toString('base64');
    const post = (payload: Uint8Array) =>
      fetch(`${harness!.server.url}/api/public/otel/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-protobuf' },
        body: payload,
      });
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    expect(harness.server.store.getObservation(span.spanContext().spanId)).toMatchObject({
      name: 'retrieve',
      output: '["doc"]',
    });
    const broken = await post(body.subarray(0, body.length - 3));
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { message: string }).message).toMatch(/protobuf/);
  });

  it('persists to JSON and loads it back on the next start', async () => {
    const persistPath = join(mkdtempSync(join(tmpdir(), 'lf-persist-')), 'langfuse.json');
    const first = await startLangfuseServer({ personality: 'v3', persistPath });
    first.store.upsertTrace({ id: 'kept', name: 'persisted' });
    first.store.createDataset({ name: 'golden' });
    await first.close();
    const second = await startLangfuseServer({ personality: 'v3', persistPath });
    try {
      expect(second.store.getTrace('kept')?.name).toBe('persisted');
      expect(second.store.getDataset('golden')).toBeDefined();
    } finally {
      await second.close();
    }
  });
});
