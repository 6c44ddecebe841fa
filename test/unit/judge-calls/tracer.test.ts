import { describe, expect, it } from 'vitest';
import {
  createJudgeCallTracer,
  judgeTraceEvents,
  judgeTraceSpans,
  recordingJudge,
  type JudgeCallRecord,
} from '../../../src/judge-calls/index.js';
import { JudgeCallError, type JudgeClient } from '../../../src/judge/types.js';
import { createLangfuseHttp } from '../../../src/langfuse/core/http.js';
import { IngestionEvent } from '@ragwatch/devkit/langfuse/ingestion-schema.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { scriptedFetch } from '../langfuse/fake-fetch.js';

const keys = { baseUrl: 'http://127.0.0.1:1', publicKey: 'pk', secretKey: 'sk-secret', maxAttempts: 1 };

const calls: JudgeCallRecord[] = [
  {
    name: 'ragwatch_faithfulness',
    model: 'judge-1',
    messages: [
      { role: 'system', content: 'rules' },
      { role: 'user', content: '<answer>Call <PERSON_1> at <PHONE_1>.</answer>' },
    ],
    startedAt: Date.parse('2025-03-01T10:00:00Z'),
    endedAt: Date.parse('2025-03-01T10:00:01.500Z'),
    value: [{ claim: 'Call <PERSON_1>.', chunks: [1], supported: true }],
    usage: { calls: 2, promptTokens: 900, completionTokens: 60, latencyMs: 1500 },
  },
  {
    name: 'ragwatch_answer_relevancy',
    model: 'judge-1',
    messages: [{ role: 'user', content: '<answer>x</answer>' }],
    startedAt: Date.parse('2025-03-01T10:00:02Z'),
    endedAt: Date.parse('2025-03-01T10:00:03Z'),
    error: { kind: 'schema_mismatch', message: 'questions: expected array, received "Call <PERSON_1>"' },
  },
];
const input = { executionTraceId: 'a'.repeat(32), evaluatedTraceId: 'trace-7', calls };
const options = { environment: 'ragwatch', includeTexts: true, modelParameters: { temperature: 0, max_tokens: 2048 } };

describe('judge call traces', () => {
  it('as ingestion events: a trace in ragwatch’s environment and one valid generation per call', () => {
    const events = judgeTraceEvents(input, options);
    for (const e of events) expect(IngestionEvent.safeParse(e).error).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['trace-create', 'generation-create', 'generation-create']);
    expect(events[0]!.body).toMatchObject({
      id: input.executionTraceId,
      name: 'ragwatch-judge',
      environment: 'ragwatch',
      metadata: { source: 'ragwatch', evaluatedTraceId: 'trace-7', calls: 2 },
    });
    expect(events[1]!.body).toMatchObject({
      traceId: input.executionTraceId,
      name: 'ragwatch_faithfulness',
      environment: 'ragwatch',
      model: 'judge-1',
      startTime: '2025-03-01T10:00:00.000Z',
      endTime: '2025-03-01T10:00:01.500Z',
      input: calls[0]!.messages,
      output: calls[0]!.value,
      usageDetails: { input: 900, output: 60, total: 960 },
      level: 'DEFAULT',
      metadata: { attempts: 2, latencyMs: 1500 },
    });
    expect(events[2]!.body).toMatchObject({
      level: 'ERROR',
      statusMessage: expect.stringMatching(/^schema_mismatch: /),
    });
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
  });

  it('as OTLP spans: a root with the trace name and metadata, generation children with model, usage and IO', () => {
    const spans = judgeTraceSpans(input, options);
    const attr = (i: number) => Object.fromEntries(spans[i]!.attributes.map((a) => [a.key, a.value.stringValue]));
    expect(spans.map((s) => s.traceId)).toEqual([
      input.executionTraceId,
      input.executionTraceId,
      input.executionTraceId,
    ]);
    expect(spans[1]!.parentSpanId).toBe(spans[0]!.spanId);
    expect(attr(0)).toMatchObject({
      'langfuse.trace.name': 'ragwatch-judge',
      'langfuse.environment': 'ragwatch',
      'langfuse.trace.metadata.evaluatedTraceId': 'trace-7',
    });
    expect(attr(1)).toMatchObject({
      'langfuse.observation.type': 'generation',
      'langfuse.observation.model.name': 'judge-1',
      'langfuse.observation.usage_details': '{"input":900,"output":60,"total":960}',
      'langfuse.observation.input': JSON.stringify(calls[0]!.messages),
      'langfuse.environment': 'ragwatch',
    });
    expect(spans[0]!.startTimeUnixNano).toBe(`${Date.parse('2025-03-01T10:00:00Z')}000000`);
    expect(spans[0]!.endTimeUnixNano).toBe(`${Date.parse('2025-03-01T10:00:03Z')}000000`);
    expect(spans[2]!.status.code).toBe(2);
  });

  it('leaves every text out when anonymization is off: names, tokens and latency only', () => {
    const plain = { ...options, includeTexts: false };
    const text = JSON.stringify([judgeTraceEvents(input, plain), judgeTraceSpans(input, plain)]);
    for (const leaked of ['<PERSON_1>', 'rules', 'Call ']) expect(text).not.toContain(leaked);
    expect(text).toContain('anonymize.enabled is false');
    expect(text).toContain('schema_mismatch');
    expect(text).toContain('"total":960');
  });

  it('resolves to the trace id when Langfuse takes it, to null (never an error) when it refuses or is down', async () => {
    const answers = [
      (events: Array<{ id: string }>) => ({
        status: 207,
        body: { successes: events.map((e) => ({ id: e.id, status: 201 })), errors: [] },
      }),
      (events: Array<{ id: string }>) => ({
        status: 207,
        body: {
          successes: events.slice(1).map((e) => ({ id: e.id, status: 201 })),
          errors: [{ id: events[0]!.id, status: 400, message: 'bad' }],
        },
      }),
      () => ({ status: 503, body: {} }),
      () => new Error('ECONNREFUSED'),
    ];
    const { fetch, requests } = scriptedFetch((req, i) =>
      answers[i]!((req.body as { batch: Array<{ id: string }> }).batch),
    );
    const tracer = createJudgeCallTracer({
      ...options,
      http: createLangfuseHttp({ ...keys, fetch }),
      generation: 'v3',
      logger: silentLogger(),
      newTraceId: () => 'f'.repeat(32),
    });
    expect(await tracer.record({ traceId: 't', calls })).toBe('f'.repeat(32));
    expect(await tracer.record({ traceId: 't', calls })).toBeNull();
    expect(await tracer.record({ traceId: 't', calls })).toBeNull();
    expect(await tracer.record({ traceId: 't', calls })).toBeNull();
    expect(await tracer.record({ traceId: 't', calls: [] })).toBeNull();
    expect(requests).toHaveLength(4);
    expect(requests.every((r) => r.url.pathname === '/api/public/ingestion')).toBe(true);
  });

  it('sends OTLP on v4 and reads its partial success', async () => {
    const { fetch, requests } = scriptedFetch((_req, i) => ({
      status: 200,
      body: i === 0 ? {} : { partialSuccess: { rejectedSpans: 1 } },
    }));
    const tracer = createJudgeCallTracer({
      ...options,
      http: createLangfuseHttp({ ...keys, fetch }),
      generation: 'v4',
      logger: silentLogger(),
    });
    expect(await tracer.record({ traceId: 't', calls })).toMatch(/^[0-9a-f]{32}$/);
    expect(await tracer.record({ traceId: 't', calls })).toBeNull();
    expect(requests.map((r) => r.url.pathname)).toEqual(['/api/public/otel/v1/traces', '/api/public/otel/v1/traces']);
  });
});

describe('recordingJudge', () => {
  it('records each call in order: messages, parsed answer, usage, or the error kind', async () => {
    let t = 100;
    const inner: JudgeClient = {
      model: 'm',
      structured: async (request) => {
        t += 50;
        if (request.name === 'bad') throw new JudgeCallError('bad: schema_mismatch', true, 'schema_mismatch', 4);
        return {
          value: { ok: request.name } as never,
          usage: { calls: 1, promptTokens: 10, completionTokens: 2, latencyMs: 50 },
        };
      },
    };
    const sink: JudgeCallRecord[] = [];
    const judge = recordingJudge(inner, sink, () => t);
    await judge.structured({ name: 'good', schema: {}, parse: (v) => v, messages: [{ role: 'user', content: 'q' }] });
    await expect(judge.structured({ name: 'bad', schema: {}, parse: (v) => v, messages: [] })).rejects.toThrow('bad');
    expect(sink).toEqual([
      {
        name: 'good',
        model: 'm',
        messages: [{ role: 'user', content: 'q' }],
        startedAt: 100,
        endedAt: 150,
        value: { ok: 'good' },
        usage: { calls: 1, promptTokens: 10, completionTokens: 2, latencyMs: 50 },
      },
      {
        name: 'bad',
        model: 'm',
        messages: [],
        startedAt: 150,
        endedAt: 200,
        error: { kind: 'schema_mismatch', message: 'bad: schema_mismatch' },
      },
    ]);
  });
});
