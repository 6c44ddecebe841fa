import { afterEach, describe, expect, it } from 'vitest';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { extractRagSample } from '../../../src/extract/extract.js';
import { getTrace } from '../../../src/langfuse/resources/trace-reads.js';
import { startStand, type Stand } from './harness.js';

/**
 * Langfuse v4 truncates every metadata value to 200 characters unless the key is named in
 * `expandMetadata`; spans from non-Langfuse instrumentations keep their attributes under
 * `metadata.attributes`, where retrieved documents often are.
 */

let stand: Stand | undefined;
afterEach(async () => {
  await stand?.close();
  stand = undefined;
});

const DOCS = [
  'Orders over 50 EUR ship for free within the peninsula; below that, shipping costs 3.95 EUR and takes 24 to 48 working hours.',
  'Orders to the Canary Islands take 5 to 8 working days, cost 9.95 EUR and go through customs, which may add import taxes.',
];

describe('v4 read path: metadata of third-party spans', () => {
  it('reads metadata.attributes in full, so documents recorded as span attributes survive', async () => {
    stand = await startStand({ personality: 'v4' });
    const auth = Buffer.from(`${stand.server.publicKey}:${stand.server.secretKey}`).toString('base64');
    const exporter = new OTLPTraceExporter({
      url: `${stand.server.url}/api/public/otel/v1/traces`,
      headers: { Authorization: `Basic ${auth}` },
    });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('rag-app');
    const root = tracer.startSpan('POST /chat');
    const traceId = root.spanContext().traceId;
    const parent = { traceId, spanId: root.spanContext().spanId, traceFlags: 1 };
    const { context, trace } = await import('@opentelemetry/api');
    const under = trace.setSpanContext(context.active(), parent);
    tracer
      .startSpan(
        'retrieval kb',
        {
          attributes: {
            'gen_ai.operation.name': 'retrieval',
            'gen_ai.retrieval.documents': JSON.stringify(
              DOCS.map((content, i) => ({ id: `d${i}`, score: 0.9, content })),
            ),
          },
        },
        under,
      )
      .end();
    tracer
      .startSpan(
        'chat gpt-4o-mini',
        {
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': 'gpt-4o-mini',
            'gen_ai.input.messages': JSON.stringify([
              { role: 'user', parts: [{ type: 'text', content: 'How long to the Canaries?' }] },
            ]),
            'gen_ai.output.messages': JSON.stringify([
              { role: 'assistant', parts: [{ type: 'text', content: '5 to 8 working days.' }] },
            ]),
          },
        },
        under,
      )
      .end();
    root.end();
    await provider.forceFlush();
    await provider.shutdown();

    const record = await getTrace(stand.http, traceId, 'v4');
    const retrieval = record?.observations.find((o) => o.name === 'retrieval kb');
    expect(JSON.stringify(retrieval?.metadata)).toContain(DOCS[1]);
    expect(extractRagSample(record!)).toMatchObject({ ok: true, sample: { contexts: DOCS } });
    expect(stand.violations).toEqual([]);
  });
});
