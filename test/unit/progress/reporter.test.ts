import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countingJudge,
  createProgress,
  formatDuration,
  formatProgress,
  type ProgressSnapshot,
  type Timers,
} from '../../../src/progress/index.js';
import type { JudgeClient } from '../../../src/judge/types.js';

/** A clock and interval timers driven by hand: nothing waits. */
function fakeTime(start = 1_000_000) {
  let t = start;
  const intervals = new Map<number, { fn: () => void; ms: number; next: number }>();
  let ids = 0;
  const timers: Timers = {
    setInterval: (fn, ms) => {
      const id = ++ids;
      intervals.set(id, { fn, ms, next: t + ms });
      return id;
    },
    clearInterval: (id) => void intervals.delete(id as number),
  };
  return {
    now: () => t,
    timers,
    intervals,
    /** Moves the clock, firing every interval that comes due on the way. */
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        const due = [...intervals.values()].filter((i) => i.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        t = due.next;
        due.next += due.ms;
        due.fn();
      }
      t = end;
    },
  };
}

function liveReporter(columns?: number) {
  const time = fakeTime();
  const out: string[] = [];
  const logs: string[] = [];
  const progress = createProgress({
    live: true,
    write: (s) => out.push(s),
    log: (m) => logs.push(m),
    now: time.now,
    timers: time.timers,
    ...(columns ? { columns } : {}),
  });
  return { time, out, logs, progress, last: () => out[out.length - 1] ?? '' };
}

function logReporter() {
  const time = fakeTime();
  const out: string[] = [];
  const logs: Array<{ message: string; snapshot: ProgressSnapshot }> = [];
  const progress = createProgress({
    live: false,
    write: (s) => out.push(s),
    log: (message, snapshot) => logs.push({ message, snapshot }),
    now: time.now,
    timers: time.timers,
  });
  return { time, out, logs, progress };
}

describe('progress on a terminal (live line)', () => {
  it('draws the line at once, redraws on progress (at most every 100 ms) and every second for the clock', () => {
    const { time, out, logs, progress, last } = liveReporter();
    progress.stage('experiment: clean pass', { total: 4, unit: 'items' });
    expect(out).toHaveLength(1);
    expect(last()).toBe('\r\x1b[2Kexperiment: clean pass 0/4 items (0 %) · 0 judge calls in flight · 0:00 elapsed');

    time.advance(10_000);
    expect(out).toHaveLength(11);
    expect(last()).toContain('0:10 elapsed');
    // Right after a redraw: counted now, drawn by the next tick.
    progress.advance();
    expect(out).toHaveLength(11);
    time.advance(1000);
    expect(last()).toBe(
      '\r\x1b[2Kexperiment: clean pass 1/4 items (25 %) · 0 judge calls in flight · 0:11 elapsed · ETA 0:33',
    );

    // Two more within 100 ms: counted, drawn at the next chance.
    const before = out.length;
    progress.callStarted();
    progress.callStarted();
    expect(out).toHaveLength(before);
    time.advance(150);
    progress.advance();
    expect(out).toHaveLength(before + 1);
    expect(last()).toContain('2/4 items (50 %) · 2 judge calls in flight');
    expect(logs).toEqual([]);
  });

  it('shows an open total while a listing goes on, and an ETA once it is known', () => {
    const { time, progress, last } = liveReporter();
    progress.stage('online tick', { unit: 'traces' });
    expect(last()).toContain('online tick 0 traces');
    progress.grow();
    progress.grow();
    time.advance(1000);
    progress.note('listed 340');
    progress.advance();
    time.advance(1000);
    expect(last()).toContain('online tick 1/2+ traces · listed 340');
    expect(last()).not.toContain('ETA');
    progress.totalKnown();
    time.advance(1000);
    expect(last()).toContain('1/2 traces (50 %)');
    expect(last()).toContain('ETA 0:03');
  });

  it('clears the line and stops its timer at the end; nothing is written after', () => {
    const { time, out, progress, last } = liveReporter();
    progress.stage('evaluate', { total: 2, unit: 'samples' });
    expect(time.intervals.size).toBe(1);
    progress.end();
    expect(last()).toBe('\r\x1b[2K');
    expect(time.intervals.size).toBe(0);
    const n = out.length;
    progress.advance();
    progress.stage('again', { total: 1 });
    time.advance(5000);
    progress.end();
    expect(out).toHaveLength(n);
  });

  it('cuts the line to the terminal width', () => {
    const { progress, last } = liveReporter(40);
    progress.stage('a rather long label for a narrow terminal', { total: 100, unit: 'items' });
    const text = last().replace('\r\x1b[2K', '');
    expect(text).toHaveLength(39);
    expect(text.endsWith('…')).toBe(true);
  });

  it('writes nothing before a stage starts', () => {
    const { out, progress } = liveReporter();
    progress.advance();
    progress.callStarted();
    progress.end();
    expect(out).toEqual([]);
  });
});

describe('progress without a terminal (log lines)', () => {
  it('logs one progress record every 15 s and never draws a live line', () => {
    const { time, out, logs, progress } = logReporter();
    progress.stage('backfill', { unit: 'traces' });
    progress.grow(3);
    progress.advance();
    expect(logs).toEqual([]);
    time.advance(14_999);
    expect(logs).toEqual([]);
    time.advance(1);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.message).toBe('progress: backfill 1/3+ traces · 0 judge calls in flight · 0:15 elapsed');
    expect(logs[0]!.snapshot).toMatchObject({
      label: 'backfill',
      unit: 'traces',
      done: 1,
      total: 3,
      totalFinal: false,
      inFlight: 0,
      elapsedMs: 15_000,
      etaMs: null,
    });
    time.advance(30_000);
    expect(logs).toHaveLength(3);
    progress.end();
    time.advance(60_000);
    expect(logs).toHaveLength(3);
    expect(out).toEqual([]);
  });

  it('a new stage restarts the count and the clock of its ETA', () => {
    const { time, logs, progress } = logReporter();
    progress.stage('experiment: clean pass', { total: 10 });
    progress.advance(10);
    time.advance(15_000);
    progress.stage('experiment: noise pass', { total: 8 });
    progress.advance(2);
    time.advance(15_000);
    expect(logs.map((l) => l.message)).toEqual([
      'progress: experiment: clean pass 10/10 items (100 %) · 0 judge calls in flight · 0:15 elapsed',
      'progress: experiment: noise pass 2/8 items (25 %) · 0 judge calls in flight · 0:15 elapsed · ETA 0:45',
    ]);
  });
});

describe('the progress line', () => {
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(35_400)).toBe('0:35');
    expect(formatDuration(724_000)).toBe('12:04');
    expect(formatDuration(3_729_000)).toBe('1:02:09');
  });

  it('is always one line with non-negative figures, an ETA only for a final total (property)', () => {
    const ops = fc.array(
      fc.oneof(
        fc.record({ op: fc.constant('grow' as const), n: fc.integer({ min: 0, max: 50 }) }),
        fc.record({ op: fc.constant('advance' as const), n: fc.integer({ min: 0, max: 50 }) }),
        fc.record({ op: fc.constantFrom('known' as const, 'start' as const, 'end' as const) }),
        fc.record({ op: fc.constant('wait' as const), n: fc.integer({ min: 0, max: 100_000 }) }),
      ),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }), ops, (total, steps) => {
        const time = fakeTime();
        const snaps: ProgressSnapshot[] = [];
        const progress = createProgress({
          live: false,
          write: () => {},
          log: (_m, s) => snaps.push(s),
          now: time.now,
          timers: time.timers,
          logEveryMs: 1000,
        });
        progress.stage('work', total === undefined ? {} : { total });
        for (const s of steps) {
          if (s.op === 'grow') progress.grow(s.n);
          else if (s.op === 'advance') progress.advance(s.n);
          else if (s.op === 'known') progress.totalKnown();
          else if (s.op === 'start') progress.callStarted();
          else if (s.op === 'end') progress.callEnded();
          else if (s.op === 'wait') time.advance(s.n);
        }
        time.advance(1000);
        for (const snap of snaps) {
          const text = formatProgress(snap);
          expect(text).not.toMatch(/[\n\r]|NaN|Infinity|-\d/);
          expect(snap.inFlight).toBeGreaterThanOrEqual(0);
          if (snap.etaMs !== null) {
            expect(snap.totalFinal).toBe(true);
            expect(snap.etaMs).toBeGreaterThanOrEqual(0);
          }
        }
      }),
    );
  });
});

describe('countingJudge', () => {
  it('counts judge calls in flight, failed ones included, and keeps the model name', async () => {
    const seen: number[] = [];
    let inFlight = 0;
    const releases: Array<(ok: boolean) => void> = [];
    const inner: JudgeClient = {
      model: 'judge-x',
      structured: () =>
        new Promise((resolve, reject) => {
          releases.push((ok) =>
            ok
              ? resolve({ value: 1 as never, usage: { calls: 1, promptTokens: 1, completionTokens: 1, latencyMs: 1 } })
              : reject(new Error('down')),
          );
        }),
    };
    const judge = countingJudge(inner, {
      callStarted: () => seen.push(++inFlight),
      callEnded: () => seen.push(--inFlight),
    });
    expect(judge.model).toBe('judge-x');
    const request = { name: 'x', schema: {}, parse: (v: unknown) => v, messages: [] };
    const a = judge.structured(request);
    const b = judge.structured(request).catch((e: Error) => e.message);
    expect(inFlight).toBe(2);
    releases[0]!(true);
    releases[1]!(false);
    await a;
    expect(await b).toBe('down');
    expect(seen).toEqual([1, 2, 1, 0]);
  });
});
