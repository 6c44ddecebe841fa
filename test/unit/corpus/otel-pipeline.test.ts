import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import { DemoIdGenerator } from '@ragwatch/devkit/corpus/emit/otel-pipeline.js';
import { RetimingSpanProcessor } from '@ragwatch/devkit/corpus/emit/retime.js';

function setup() {
  const exporter = new InMemorySpanExporter();
  const retimer = new RetimingSpanProcessor(new SimpleSpanProcessor(exporter));
  const ids = new DemoIdGenerator();
  const provider = new NodeTracerProvider({ idGenerator: ids, spanProcessors: [retimer] });
  return { exporter, retimer, ids, tracer: provider.getTracer('test'), provider };
}

describe('DemoIdGenerator', () => {
  it('starts the planned trace and derives span ids from it, the same on every run', () => {
    const runOnce = () => {
      const { tracer, ids, exporter } = setup();
      ids.beginTrace('0123456789abcdef0123456789abcdef');
      const root = tracer.startSpan('root');
      root.end();
      return exporter.getFinishedSpans().map((s) => [s.spanContext().traceId, s.spanContext().spanId]);
    };
    const first = runOnce();
    expect(first[0]![0]).toBe('0123456789abcdef0123456789abcdef');
    expect(first[0]![1]).toMatch(/^[0-9a-f]{16}$/);
    expect(runOnce()).toEqual(first);
  });
});

describe('RetimingSpanProcessor', () => {
  it('moves planned spans onto the given timeline and leaves the others alone', async () => {
    const { tracer, retimer, exporter, ids } = setup();
    ids.beginTrace('fedcba9876543210fedcba9876543210');
    const start = new Date('2025-01-01T10:00:00.000Z');
    const end = new Date('2025-01-01T10:00:01.250Z');
    retimer.plan('fedcba9876543210fedcba9876543210', 'wrapped', { startTime: start, endTime: end });
    const wall = tracer.startSpan('wrapped');
    wall.end();
    const other = tracer.startSpan('untouched', { startTime: new Date('2025-01-01T09:00:00.000Z') });
    other.end(new Date('2025-01-01T09:00:00.500Z'));
    const spans = exporter.getFinishedSpans();
    const wrapped = spans.find((s) => s.name === 'wrapped')!;
    expect(hrTimeToMilliseconds(wrapped.startTime)).toBe(start.getTime());
    expect(hrTimeToMilliseconds(wrapped.endTime)).toBe(end.getTime());
    expect(hrTimeToMilliseconds(wrapped.duration)).toBe(1250);
    expect(wrapped.spanContext().traceId).toBe('fedcba9876543210fedcba9876543210');
    const untouched = spans.find((s) => s.name === 'untouched')!;
    expect(hrTimeToMilliseconds(untouched.duration)).toBe(500);
    expect(retimer.pending()).toBe(0);
  });
});
