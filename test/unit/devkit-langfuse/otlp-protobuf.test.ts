import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { context, SpanStatusCode, trace as traceApi, type Attributes, type AttributeValue } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { decodeTraceExportRequest, ProtobufDecodeError } from '@ragwatch/devkit/langfuse/otel/protobuf.js';
import { ingestResourceSpans, validateResourceSpans } from '@ragwatch/devkit/langfuse/otel/map.js';
import { LangfuseStore } from '@ragwatch/devkit/langfuse/store.js';

/**
 * The stand-in's protobuf decoder against OpenTelemetry's own serializers: the same SDK spans exported as
 * OTLP/JSON and as OTLP/protobuf must land in the store identically.
 */

const primitive: fc.Arbitrary<AttributeValue> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
  fc.boolean(),
);
const attributeValue: fc.Arbitrary<AttributeValue> = fc.oneof(
  primitive,
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }),
  fc.array(fc.integer(), { maxLength: 4 }),
  fc.array(fc.boolean(), { maxLength: 4 }),
);
const attributes: fc.Arbitrary<Attributes> = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'gen_ai.operation.name',
      'gen_ai.request.model',
      'langfuse.observation.input',
      'input.value',
      'llm.token_count.prompt',
    ),
    fc.string({ minLength: 1, maxLength: 12 }),
  ),
  attributeValue,
  { maxKeys: 6 },
);
const spanPlan = fc.record({
  name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  attributes,
  events: fc.array(
    fc.record({ name: fc.constantFrom('gen_ai.user.message', 'gen_ai.choice', 'exception', 'log'), attributes }),
    { maxLength: 3 },
  ),
  status: fc.constantFrom(SpanStatusCode.UNSET, SpanStatusCode.OK, SpanStatusCode.ERROR),
  // Protobuf cannot tell an empty status message from none (proto3 defaults), so none is generated as ''.
  message: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: undefined }),
  children: fc.integer({ min: 0, max: 2 }),
  durationMs: fc.integer({ min: 0, max: 100_000 }),
});

type SpanPlan = typeof spanPlan extends fc.Arbitrary<infer T> ? T : never;

function record(plans: SpanPlan[]): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('differential', '1.2.3');
  const start = Date.UTC(2026, 0, 1, 12, 0, 0);
  for (const plan of plans) {
    const root = tracer.startSpan(plan.name, { attributes: plan.attributes, startTime: start });
    for (const e of plan.events) root.addEvent(e.name, e.attributes, start + 1);
    for (let i = 0; i < plan.children; i++) {
      const ctx = { traceId: root.spanContext().traceId, spanId: root.spanContext().spanId, traceFlags: 1 };
      const child = tracer.startSpan(`${plan.name}-${i}`, { startTime: start + 2 }, trace(ctx));
      child.end(start + 3);
    }
    root.setStatus(plan.message === undefined ? { code: plan.status } : { code: plan.status, message: plan.message });
    root.end(start + plan.durationMs);
  }
  return exporter.getFinishedSpans();
}

function trace(spanContext: { traceId: string; spanId: string; traceFlags: number }) {
  return traceApi.setSpanContext(context.active(), spanContext);
}

function storeFrom(resourceSpans: unknown): LangfuseStore {
  const store = new LangfuseStore({ personality: 'v3', now: () => 1_000 });
  ingestResourceSpans(store, validateResourceSpans(resourceSpans));
  return store;
}

describe('OTLP protobuf decoding', () => {
  it('stores what OpenTelemetry serializes as protobuf exactly as the same spans serialized as JSON', () => {
    fc.assert(
      fc.property(fc.array(spanPlan, { minLength: 1, maxLength: 4 }), (plans) => {
        const spans = record(plans);
        const json = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)!)) as {
          resourceSpans: unknown;
        };
        const proto = decodeTraceExportRequest(ProtobufTraceSerializer.serializeRequest(spans)!);
        const fromJson = storeFrom(json.resourceSpans);
        const fromProto = storeFrom(proto.resourceSpans);
        expect(fromProto.traces()).toEqual(fromJson.traces());
        expect(fromProto.observations()).toEqual(fromJson.observations());
      }),
      { numRuns: 150 },
    );
  });

  it('keeps ids, parent, times, kind, status and typed values', () => {
    const spans = record([
      {
        name: 'root',
        attributes: { big: 2 ** 40, neg: -5, ratio: 0.25, ok: true, tags: ['a', 'b'], text: 'ñ 😀' },
        events: [],
        status: SpanStatusCode.ERROR,
        message: 'boom',
        children: 1,
        durationMs: 1500,
      },
    ]);
    const decoded = decodeTraceExportRequest(ProtobufTraceSerializer.serializeRequest(spans)!);
    const scope = (
      decoded.resourceSpans[0] as {
        scopeSpans: Array<{ scope: { name: string; version: string }; spans: Array<Record<string, unknown>> }>;
      }
    ).scopeSpans[0]!;
    expect(scope.scope).toMatchObject({ name: 'differential', version: '1.2.3' });
    const root = scope.spans.find((s) => s.name === 'root')!;
    const child = scope.spans.find((s) => s.name === 'root-0')!;
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(child.parentSpanId).toBe(root.spanId);
    expect(root.parentSpanId).toBeUndefined();
    expect(root.startTimeUnixNano).toBe((BigInt(Date.UTC(2026, 0, 1, 12)) * 1_000_000n).toString());
    expect(root.status).toEqual({ code: 2, message: 'boom' });
    expect(root.attributes).toEqual(
      expect.arrayContaining([
        { key: 'big', value: { intValue: String(2 ** 40) } },
        { key: 'neg', value: { intValue: '-5' } },
        { key: 'ratio', value: { doubleValue: 0.25 } },
        { key: 'ok', value: { boolValue: true } },
        { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: 'b' }] } } },
        { key: 'text', value: { stringValue: 'ñ 😀' } },
      ]),
    );
  });

  it('rejects malformed input with a decode error, never another exception', () => {
    const valid = ProtobufTraceSerializer.serializeRequest(
      record([
        {
          name: 'x',
          attributes: { a: 'b' },
          events: [],
          status: SpanStatusCode.OK,
          message: undefined,
          children: 0,
          durationMs: 1,
        },
      ]),
    )!;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(), (noise, cut) => {
        for (const input of [
          noise,
          valid.subarray(0, cut % (valid.length + 1)),
          Uint8Array.from([...valid.subarray(0, 10), ...noise]),
        ]) {
          try {
            decodeTraceExportRequest(input);
          } catch (error) {
            expect(error).toBeInstanceOf(ProtobufDecodeError);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
