import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  withRetries,
  type AttemptResult,
  type RequestEvent,
  type RetryPolicy,
} from '../../../src/judge/retry.js';
import { Limiter } from '../../../src/internal/index.js';
import { JudgeCallError } from '../../../src/judge/types.js';

function policy(overrides: Partial<RetryPolicy> = {}): RetryPolicy & { delays: number[]; events: RequestEvent[] } {
  const delays: number[] = [];
  const events: RequestEvent[] = [];
  let clock = 0;
  return {
    kind: 'chat',
    maxAttempts: 4,
    timeoutMs: 1000,
    backoffBaseMs: 100,
    backoffMaxMs: 1000,
    maxRetryAfterMs: 5000,
    limiter: new Limiter(2),
    sleep: async (ms) => {
      delays.push(ms);
      clock += ms;
    },
    random: () => 1,
    now: () => (clock += 1),
    onRequest: (e) => events.push(e),
    delays,
    events,
    ...overrides,
  };
}

const fail = (kind: string, retryable = true, extra: object = {}): AttemptResult<string> => ({
  ok: false,
  failure: { kind, message: kind, retryable, ...extra },
  promptTokens: 10,
  completionTokens: 2,
});

describe('withRetries', () => {
  it('sums usage over attempts and reports each attempt', async () => {
    const p = policy();
    const answers = [
      fail('http_500'),
      fail('invalid_json'),
      { ok: true as const, value: 'done', promptTokens: 7, completionTokens: 3 },
    ];
    const out = await withRetries(p, 'test', undefined, async () => answers.shift()!);
    expect(out).toMatchObject({ value: 'done', attempts: 3, promptTokens: 27, completionTokens: 7 });
    expect(p.events.map((e) => `${e.outcome}:${e.errorKind ?? ''}`)).toEqual([
      'retry:http_500',
      'retry:invalid_json',
      'ok:',
    ]);
    expect(p.delays).toEqual([100, 200]);
  });

  it("aborts an attempt when the caller aborts or its deadline passes, and leaves no listener on the caller's signal", async () => {
    const caller = new AbortController();
    const ok = { ok: true as const, value: 'x', promptTokens: 0, completionTokens: 0 };
    for (let i = 0; i < 5; i++) await withRetries(policy(), 'test', caller.signal, async () => ok);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);

    const timedOut = await withRetries(
      policy({ timeoutMs: 5, maxAttempts: 1 }),
      'test',
      caller.signal,
      (_n, _p, signal) =>
        new Promise<AttemptResult<string>>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason as Error)),
        ),
    ).catch((e: unknown) => e);
    expect(timedOut).toMatchObject({ kind: 'timeout' });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);

    let attemptSignal: AbortSignal | undefined;
    const pending = withRetries(policy(), 'test', caller.signal, (_n, _p, signal) => {
      attemptSignal = signal;
      return new Promise<AttemptResult<string>>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error)),
      );
    }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 1));
    caller.abort(new Error('shutdown'));
    expect(await pending).toMatchObject({ kind: 'aborted', attempts: 1 });
    expect(attemptSignal!.reason).toEqual(new Error('shutdown'));
  });

  it('hands the previous failure to the next attempt', async () => {
    const seen: Array<string | undefined> = [];
    const answers = [fail('schema_mismatch'), { ok: true as const, value: 'x', promptTokens: 0, completionTokens: 0 }];
    await withRetries(policy(), 'test', undefined, async (_n, previous) => {
      seen.push(previous?.kind);
      return answers.shift()!;
    });
    expect(seen).toEqual([undefined, 'schema_mismatch']);
  });

  it('stops at once on a non-retryable failure', async () => {
    const p = policy();
    const error = await withRetries(p, 'test', undefined, async () => fail('http_400', false)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeCallError);
    expect(error).toMatchObject({ kind: 'http_400', retryable: false, attempts: 1 });
    expect(p.delays).toEqual([]);
  });

  it('gives up after maxAttempts with the last failure', async () => {
    const p = policy({ maxAttempts: 3 });
    const error = await withRetries(p, 'judge call x', undefined, async () => fail('truncated')).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: 'truncated', retryable: true, attempts: 3 });
    expect((error as Error).message).toMatch(/^judge call x failed after 3 attempts: truncated/);
  });

  it('classifies thrown errors', async () => {
    const error = await withRetries(policy({ maxAttempts: 1 }), 'test', undefined, async () => {
      throw new TypeError('boom');
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_response', attempts: 1 });
  });

  it('does not start when the caller has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const error = await withRetries(policy(), 'test', controller.signal, async () => {
      calls += 1;
      return fail('x');
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'aborted', retryable: true });
    expect(calls).toBe(0);
  });
});

describe('backoffMs', () => {
  const base = { backoffBaseMs: 100, backoffMaxMs: 1000, maxRetryAfterMs: 3000 };
  it('draws uniformly below an exponentially growing ceiling', () => {
    expect(backoffMs({ ...base, random: () => 0.5 }, 1, { kind: 'x', message: '', retryable: true })).toBe(50);
    expect(backoffMs({ ...base, random: () => 0.5 }, 3, { kind: 'x', message: '', retryable: true })).toBe(200);
    expect(backoffMs({ ...base, random: () => 1 }, 10, { kind: 'x', message: '', retryable: true })).toBe(1000);
    expect(backoffMs({ ...base, random: () => 0 }, 2, { kind: 'x', message: '', retryable: true })).toBe(0);
  });

  it('waits at least Retry-After, capped', () => {
    expect(
      backoffMs({ ...base, random: () => 0 }, 1, {
        kind: 'http_429',
        message: '',
        retryable: true,
        retryAfterMs: 2000,
      }),
    ).toBe(2000);
    expect(
      backoffMs({ ...base, random: () => 0 }, 1, {
        kind: 'http_429',
        message: '',
        retryable: true,
        retryAfterMs: 60_000,
      }),
    ).toBe(3000);
  });
});
