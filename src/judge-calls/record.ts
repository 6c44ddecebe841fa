/**
 * What the judge was asked and what it answered, one record per structured call: `sample --trace` prints
 * them, and with `judge.traceCalls` they become generations in Langfuse.
 */
import type { CallUsage, ChatMessage, JudgeClient, StructuredRequest, StructuredResult } from '../judge/index.js';

export interface JudgeCallRecord {
  /** The structured request's name: which prompt (`ragwatch_faithfulness`, ...). */
  name: string;
  model: string;
  /** The messages sent (repair turns of retries are not repeated here). */
  messages: ChatMessage[];
  startedAt: number;
  endedAt?: number;
  /** The parsed answer: claims and verdicts, generated questions, per-chunk verdicts. */
  value?: unknown;
  /** Tokens and time of the call, retries included. */
  usage?: CallUsage;
  /** Why the call gave no usable answer after every attempt. */
  error?: { kind: string; message: string };
}

/** A judge client that records every call into `sink`, in the order the calls were made. */
export function recordingJudge(inner: JudgeClient, sink: JudgeCallRecord[], now: () => number = Date.now): JudgeClient {
  return {
    get model() {
      return inner.model;
    },
    async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      const record: JudgeCallRecord = {
        name: request.name,
        model: inner.model,
        messages: request.messages.map((m) => ({ ...m })),
        startedAt: now(),
      };
      sink.push(record);
      try {
        const result = await inner.structured(request);
        record.value = result.value;
        record.usage = result.usage;
        return result;
      } catch (err) {
        const kind = (err as { kind?: unknown }).kind;
        record.error = {
          kind: typeof kind === 'string' ? kind : 'error',
          message: err instanceof Error ? err.message : String(err),
        };
        throw err;
      } finally {
        record.endedAt = now();
      }
    },
  };
}
