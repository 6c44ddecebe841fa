import { describe, expect, it } from 'vitest';
import { attemptsWithin, retry, retryDelay, RetryAbortedError, sleep } from '../../../src/internal/index.js';

const policy = { attempts: 4, baseMs: 100, maxMs: 1000, jitter: 1, maxRetryAfterMs: 3000 };

describe('retryDelay', () => {
  it('draws below an exponentially growing, capped ceiling; jitter sets how much of it is random', () => {
    expect(retryDelay(policy, 1, () => 0.5)).toBe(50);
    expect(retryDelay(policy, 10, () => 1)).toBe(1000);
    expect(retryDelay({ ...policy, jitter: 0.25 }, 1, () => 0)).toBe(75);
    expect(retryDelay({ ...policy, jitter: 0 }, 3, () => 0)).toBe(400);
  });

  it('waits at least a Retry-After, up to its bound', () => {
    expect(retryDelay(policy, 1, () => 0, 2000)).toBe(2000);
    expect(retryDelay(policy, 1, () => 0, 60_000)).toBe(3000);
  });
});

describe('retry', () => {
  it('retries what shouldRetry accepts, hands on the previous error, and stops after the attempts', async () => {
    const delays: number[] = [];
    const seen: unknown[] = [];
    const error = await retry(
      policy,
      async ({ attempt, previous }) => {
        seen.push(previous);
        throw new Error(`a${attempt}`);
      },
      { shouldRetry: () => true, sleep: async (ms) => void delays.push(ms), random: () => 1 },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('a4');
    expect(delays).toEqual([100, 200, 400]);
    expect(seen.map((e) => (e as Error | undefined)?.message)).toEqual([undefined, 'a1', 'a2', 'a3']);
  });

  it('throws at once what shouldRetry refuses', async () => {
    let calls = 0;
    const error = await retry(
      policy,
      async () => {
        calls += 1;
        throw new TypeError('bug');
      },
      { shouldRetry: (e) => !(e instanceof TypeError), sleep: async () => {} },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(calls).toBe(1);
  });

  it('ends a wait when the signal aborts, with the last error', async () => {
    const controller = new AbortController();
    const pending = retry(
      { ...policy, baseMs: 60_000, jitter: 0 },
      async () => {
        throw new Error('down');
      },
      { shouldRetry: () => true, signal: controller.signal },
    ).catch((e: unknown) => e);
    setTimeout(() => controller.abort(new Error('stop')), 5);
    const error = await pending;
    expect(error).toBeInstanceOf(RetryAbortedError);
    expect(((error as RetryAbortedError).last as Error).message).toBe('down');
  });

  it('sleep rejects with the reason of an aborted signal', async () => {
    await expect(sleep(10, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});

describe('attemptsWithin', () => {
  const stateWrite = { baseMs: 500, maxMs: 5000, jitter: 0 };
  it('counts the attempts whose waits at their ceilings fit in the total', () => {
    // Waits 500, 1000, 2000, 4000, 5000, 5000: prefix sums 500, 1500, 3500, 7500, 12500, 17500.
    expect(attemptsWithin(stateWrite, 0)).toBe(1);
    expect(attemptsWithin(stateWrite, 499)).toBe(1);
    expect(attemptsWithin(stateWrite, 500)).toBe(2);
    expect(attemptsWithin(stateWrite, 7499)).toBe(4);
    expect(attemptsWithin(stateWrite, 7500)).toBe(5);
    expect(attemptsWithin(stateWrite, 60_000)).toBe(15);
  });
});
