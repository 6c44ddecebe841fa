import { describe, expect, it } from 'vitest';
import { drawLatency, seededRandom } from '@ragwatch/devkit/judge/random.js';
import { SlotLimiter } from '@ragwatch/devkit/judge/limiter.js';
import { productionProfile, startJudgeServer } from '@ragwatch/devkit/judge/index.js';

describe('latency distributions', () => {
  it('draws fixed, uniform, log-normal and custom service times, never negative', () => {
    const random = seededRandom(3);
    expect(drawLatency(25, random)).toBe(25);
    expect(drawLatency({ kind: 'fixed', ms: 10 }, random)).toBe(10);
    for (let i = 0; i < 100; i++) {
      const u = drawLatency({ kind: 'uniform', minMs: 5, maxMs: 9 }, random);
      expect(u).toBeGreaterThanOrEqual(5);
      expect(u).toBeLessThanOrEqual(9);
    }
    const draws = Array.from({ length: 2001 }, () =>
      drawLatency({ kind: 'lognormal', medianMs: 40, sigma: 0.5 }, random),
    ).sort((a, b) => a - b);
    expect(draws[1000]).toBeGreaterThan(34);
    expect(draws[1000]).toBeLessThan(46);
    expect(draws[1990]!).toBeGreaterThan(draws[1000]! * 2);
    expect(drawLatency(() => -5, random)).toBe(0);
    expect(drawLatency(Number.NaN, random)).toBe(0);
  });

  it('is reproducible from the seed', () => {
    const a = seededRandom(11);
    const b = seededRandom(11);
    expect(Array.from({ length: 5 }, a)).toEqual(Array.from({ length: 5 }, b));
  });
});

describe('SlotLimiter', () => {
  it('serves `parallelism` at once, queues the rest FIFO, and holds everyone while paused', async () => {
    const limiter = new SlotLimiter(2);
    const signal = new AbortController().signal;
    const r1 = await limiter.acquire(signal);
    await limiter.acquire(signal);
    const order: number[] = [];
    const w3 = limiter.acquire(signal).then((r) => (order.push(3), r));
    limiter.pause();
    r1();
    await new Promise((r) => setTimeout(r, 1));
    expect(order).toEqual([]);
    expect(limiter.queued).toBe(1);
    limiter.resume();
    await w3;
    expect(order).toEqual([3]);
    expect(limiter.maxInService).toBe(2);
    expect(limiter.maxQueued).toBe(1);
  });

  it('integrates the requests in service and in flight (in service + queued) over time', async () => {
    let t = 0;
    const limiter = new SlotLimiter(2, () => t);
    const signal = new AbortController().signal;
    const a = await limiter.acquire(signal);
    t = 10;
    const b = await limiter.acquire(signal);
    t = 20;
    const c = limiter.acquire(signal);
    t = 30;
    a();
    const releaseC = await c;
    t = 40;
    b();
    releaseC();
    t = 100;
    limiter.settle();
    // in service: 1 for 10 ms, 2 for 30 ms, 0 after 40 ms; queued: 1 from 20 to 30 ms.
    expect(limiter.inServiceMs).toBe(1 * 10 + 2 * 30);
    expect(limiter.inFlightMs).toBe(1 * 10 + 2 * 10 + 3 * 10 + 2 * 10);
    expect(limiter.granted).toBe(3);
  });

  it('drops a queued request whose client went away', async () => {
    const limiter = new SlotLimiter(1);
    await limiter.acquire(new AbortController().signal);
    const gone = new AbortController();
    const waiting = limiter.acquire(gone.signal);
    gone.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    expect(limiter.queued).toBe(0);
  });
});

describe('productionProfile', () => {
  it('is 64 slots of log-normal service times whose mean is the one asked for, at any time scale', () => {
    for (const meanMs of [40, 4000]) {
      const profile = productionProfile({ meanMs });
      expect(profile.parallelism).toBe(64);
      expect(profile.meanServiceMs).toBe(meanMs);
      const random = seededRandom(7);
      const draws = Array.from({ length: 40_000 }, () => drawLatency(profile.serviceTimeMs, random)).sort(
        (a, b) => a - b,
      );
      const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
      expect(mean / meanMs).toBeGreaterThan(0.97);
      expect(mean / meanMs).toBeLessThan(1.03);
      // A long right tail: the 99th percentile several times the median.
      expect(draws[Math.floor(0.99 * draws.length)]! / draws[draws.length >> 1]!).toBeGreaterThan(5);
    }
    expect(() => productionProfile({ meanMs: 0 })).toThrow(RangeError);
  });

  it('is what the judge stand-in serves, counting the service time it drew', async () => {
    const profile = productionProfile({ meanMs: 5, parallelism: 2 });
    const judge = await startJudgeServer({ parallelism: profile.parallelism, serviceTimeMs: profile.serviceTimeMs });
    try {
      const post = () =>
        fetch(`${judge.url}/embeddings`, {
          method: 'POST',
          body: JSON.stringify({ model: judge.embeddingModel, input: 'x' }),
        });
      await Promise.all([post(), post(), post(), post()]);
      const stats = judge.stats();
      expect(stats.parallelism).toBe(2);
      expect(stats.granted).toBe(4);
      expect(stats.serviceDrawnMs).toBeGreaterThan(0);
      expect(stats.maxServiceDrawnMs).toBeGreaterThan(0);
      expect(stats.maxServiceDrawnMs).toBeLessThanOrEqual(stats.serviceDrawnMs);
      // Slots are held at least as long as drawn (timers never fire early).
      expect(stats.inServiceMs).toBeGreaterThanOrEqual(stats.serviceDrawnMs - 4);
      judge.setParallelism(3);
      expect(judge.stats().parallelism).toBe(3);
    } finally {
      await judge.close();
    }
  });

  it('holds a slot longer for a longer prompt with msPerPromptToken, counted as drawn service time', async () => {
    const judge = await startJudgeServer({ msPerPromptToken: 0.5 });
    try {
      const drawnFor = async (content: string) => {
        const before = judge.stats().serviceDrawnMs;
        await fetch(`${judge.url}/chat/completions`, {
          method: 'POST',
          body: JSON.stringify({ model: judge.model, messages: [{ role: 'user', content }] }),
        });
        return judge.stats().serviceDrawnMs - before;
      };
      const short = await drawnFor('one two three');
      const long = await drawnFor('word '.repeat(200));
      expect(short).toBeGreaterThan(0);
      expect(long).toBeGreaterThan(short + 50);
      expect(judge.requests.at(-1)!.usage!.promptTokens * 0.5).toBeCloseTo(long, 5);
    } finally {
      await judge.close();
    }
  });
});
