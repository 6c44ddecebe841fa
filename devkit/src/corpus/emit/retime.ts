import type { Context } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime } from '@opentelemetry/core';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface SpanTimes {
  startTime: Date;
  endTime: Date;
}

/**
 * Places spans that an SDK opens on the wall clock (the `@langfuse/openai` wrapper never takes a start
 * time) onto the demo's injected timeline. Plans are keyed by trace id and span name and consumed in
 * order; every other span passes through untouched. The exported span is a read-only view: the SDK's
 * own span object is not modified.
 */
export class RetimingSpanProcessor implements SpanProcessor {
  private readonly plans = new Map<string, SpanTimes[]>();

  constructor(private readonly inner: SpanProcessor) {}

  plan(traceId: string, spanName: string, times: SpanTimes): void {
    const key = `${traceId}\u0000${spanName}`;
    const queue = this.plans.get(key) ?? [];
    queue.push(times);
    this.plans.set(key, queue);
  }

  /** Plans not consumed yet (a non-zero count after a flush means a span never ended). */
  pending(): number {
    let n = 0;
    for (const queue of this.plans.values()) n += queue.length;
    return n;
  }

  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const key = `${span.spanContext().traceId}\u0000${span.name}`;
    const queue = this.plans.get(key);
    const times = queue?.shift();
    if (queue && queue.length === 0) this.plans.delete(key);
    if (!times) {
      this.inner.onEnd(span);
      return;
    }
    const startTime = millisToHrTime(times.startTime.getTime());
    const endTime = millisToHrTime(times.endTime.getTime());
    const view = Object.create(span) as ReadableSpan;
    Object.defineProperties(view, {
      startTime: { value: startTime, enumerable: true },
      endTime: { value: endTime, enumerable: true },
      duration: { value: hrTimeDuration(startTime, endTime), enumerable: true },
    });
    this.inner.onEnd(view);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}
