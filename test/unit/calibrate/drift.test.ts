import { describe, expect, it } from 'vitest';
import { judgeDrift, type AnchorScore, type AnchorSet } from '../../../src/calibrate/drift.js';
import { fingerprintChanges, type JudgeFingerprint } from '../../../src/calibrate/fingerprint.js';
import { createRng } from '@ragwatch/devkit/corpus/random.js';

const options = { bootstrap: { resamples: 500, seed: 1 } };

function anchorSet(n: number, metric = 'faithfulness', version = 'v3'): AnchorSet {
  const rng = createRng(`anchors/${metric}`);
  return {
    version,
    scores: Array.from({ length: n }, (_, i) => ({ anchorId: `a${i}`, metric, score: Math.round(rng.next() * 8) / 8 })),
  };
}
const rescore = (set: AnchorSet, change: (s: AnchorScore, i: number) => number | null, version = set.version) => ({
  anchorSetVersion: version,
  scores: set.scores.map((s, i) => ({ ...s, score: change(s, i) })),
});
const clip = (x: number) => Math.max(0, Math.min(1, x));

describe('judgeDrift', () => {
  it('finds no change when the judge gives the same scores', () => {
    const set = anchorSet(60);
    const r = judgeDrift(
      set,
      rescore(set, (s) => s.score),
      options,
    );
    expect(r).toMatchObject({
      anchorSetVersion: 'v3',
      tolerance: 0.03,
      judgeChanged: false,
      fingerprintChanges: [],
      unknownAnchors: 0,
    });
    expect(r.metrics[0]).toMatchObject({
      metric: 'faithfulness',
      status: 'unchanged',
      anchors: 60,
      paired: 60,
      missing: 0,
      changed: 0,
      meanAbsoluteChange: 0,
      meanChange: 0,
      interval: { low: 0, high: 0 },
    });
    expect(r.metrics[0]!.summary).toMatch(
      /^mean absolute change 0.000 \(95 % CI 0.000–0.000\), all of it below the tolerance 0.03;/,
    );
  });

  it('flags a judge whose scores moved beyond the tolerance, with the direction', () => {
    const set = anchorSet(60);
    const r = judgeDrift(
      set,
      rescore(set, (s, i) => (i % 3 === 0 ? clip(s.score! - 0.25) : s.score)),
      options,
    );
    expect(r.judgeChanged).toBe(true);
    const m = r.metrics[0]!;
    expect(m.status).toBe('changed');
    expect(m.interval!.low).toBeGreaterThan(0.03);
    expect(m.meanChange).toBeLessThan(0);
    expect(m.meanChangeInterval!.high).toBeLessThan(0);
    expect(m.summary).toMatch(
      /^mean absolute change 0\.0\d\d \(95 % CI 0\.\d{3}–0\.\d{3}\), all of it above the tolerance 0.03; \d+ of 60 anchors scored differently$/,
    );
  });

  it('sees verdict flips both ways that leave the mean where it was', () => {
    const set = anchorSet(80);
    // Every fifth anchor up, every fifth (offset) down by 0.25: the signed mean barely moves.
    const r = judgeDrift(
      set,
      rescore(set, (s, i) => (i % 5 === 0 ? clip(s.score! + 0.25) : i % 5 === 1 ? clip(s.score! - 0.25) : s.score)),
      options,
    );
    expect(r.metrics[0]!.status).toBe('changed');
    expect(Math.abs(r.metrics[0]!.meanChange!)).toBeLessThan(0.03);
  });

  it('calls a mean above the tolerance that the interval cannot confirm inconclusive', () => {
    const set = anchorSet(40);
    set.scores = set.scores.map((s, i) => (i < 2 ? { ...s, score: 0.1 } : s));
    // Two anchors move by 0.8: mean 0.04 > 0.03, but a resample often misses them.
    const r = judgeDrift(
      set,
      rescore(set, (s, i) => (i < 2 ? 0.9 : s.score)),
      options,
    );
    expect(r.metrics[0]).toMatchObject({
      status: 'inconclusive',
      meanAbsoluteChange: expect.closeTo(0.04, 10),
      changed: 2,
    });
    expect(r.metrics[0]!.summary).toMatch(/more anchors would decide/);
  });

  it('decides by the interval on both sides: a mean just below the tolerance whose interval holds it is inconclusive', () => {
    // 100 anchors, 11 moved by 0.26 each: mean 0.0286 < 0.03, but the interval reaches well above it.
    const set = anchorSet(100);
    set.scores = set.scores.map((s) => ({ ...s, score: 0.5 }));
    const below = judgeDrift(
      set,
      rescore(set, (s, i) => (i < 11 ? s.score! + 0.26 : s.score)),
      options,
    );
    const m = below.metrics[0]!;
    expect(m.meanAbsoluteChange).toBeCloseTo(0.0286, 4);
    expect(m.interval!.low).toBeLessThan(0.03);
    expect(m.interval!.high).toBeGreaterThan(0.03);
    expect(m.status).toBe('inconclusive');
    expect(m.summary).toMatch(/holds the tolerance 0.03: not enough evidence either way, more anchors would decide/);
    // The same spread just above the tolerance: the same verdict, not another.
    const above = judgeDrift(
      set,
      rescore(set, (s, i) => (i < 11 ? s.score! + 0.28 : s.score)),
      options,
    );
    expect(above.metrics[0]!.meanAbsoluteChange).toBeGreaterThan(0.03);
    expect(above.metrics[0]!.status).toBe('inconclusive');
    expect(below.judgeChanged).toBe(false);
  });

  it('calls a judge unchanged only when the whole interval lies below the tolerance', () => {
    const set = anchorSet(100);
    set.scores = set.scores.map((s) => ({ ...s, score: 0.5 }));
    const r = judgeDrift(
      set,
      rescore(set, (s, i) => (i < 5 ? s.score! + 0.1 : s.score)),
      options,
    );
    expect(r.metrics[0]!.interval!.high).toBeLessThan(0.03);
    expect(r.metrics[0]!.status).toBe('unchanged');
  });

  it('counts an anchor that became or stopped being not scorable as a full change', () => {
    const set = { ...anchorSet(40), scores: anchorSet(40).scores.map((s, i) => (i === 0 ? { ...s, score: null } : s)) };
    const r = judgeDrift(
      set,
      rescore(set, (s, i) => (i === 0 ? 0.5 : i === 1 ? null : s.score)),
      options,
    );
    expect(r.metrics[0]).toMatchObject({
      scorabilityChanged: 2,
      changed: 2,
      meanAbsoluteChange: expect.closeTo(2 / 40, 12),
      paired: 40,
    });
    // Signed change only over anchors scored both times.
    expect(r.metrics[0]!.meanChange).toBe(0);
    const bothNull = judgeDrift(
      set,
      rescore(set, (s) => s.score),
      options,
    );
    expect(bothNull.metrics[0]).toMatchObject({ scorabilityChanged: 0, meanAbsoluteChange: 0 });
  });

  it('needs enough anchors scored both times, and counts the missing ones', () => {
    const set = anchorSet(50);
    const partial = { anchorSetVersion: 'v3', scores: set.scores.slice(0, 25) };
    const r = judgeDrift(set, partial, options);
    expect(r.metrics[0]).toMatchObject({
      status: 'not_estimable',
      paired: 25,
      missing: 25,
      meanAbsoluteChange: null,
      interval: null,
    });
    expect(r.metrics[0]!.summary).toBe('25 of 50 anchors scored both times; at least 30 are needed');
    expect(judgeDrift(set, partial, { ...options, minAnchors: 20 }).metrics[0]!.status).toBe('unchanged');
  });

  it('will not compare re-scores of another anchor set version', () => {
    const set = anchorSet(40);
    const r = judgeDrift(
      set,
      rescore(set, (s) => s.score, 'v2'),
      options,
    );
    expect(r.judgeChanged).toBe(false);
    expect(r.metrics[0]).toMatchObject({
      status: 'not_estimable',
      summary: 'the re-scores are of anchor set v2, the stored scores of v3: not comparable',
    });
  });

  it('decides per metric, ignores anchors it does not know, and resamples each metric with its own seed', () => {
    const faith = anchorSet(40, 'faithfulness');
    const rel = anchorSet(40, 'answer_relevancy');
    const stored = { version: 'v3', scores: [...faith.scores, ...rel.scores] };
    const now = {
      anchorSetVersion: 'v3',
      scores: [
        ...faith.scores,
        ...rel.scores.map((s) => ({ ...s, score: clip(s.score! - 0.2) })),
        { anchorId: 'new', metric: 'faithfulness', score: 1 },
      ],
    };
    const r = judgeDrift(stored, now, options);
    expect(r.metrics.map((m) => [m.metric, m.status])).toEqual([
      ['answer_relevancy', 'changed'],
      ['faithfulness', 'unchanged'],
    ]);
    expect(r).toMatchObject({ judgeChanged: true, unknownAnchors: 1 });
    expect(r.metrics[0]!.interval!.seed).not.toBe(r.metrics[1]!.interval!.seed);
  });

  it('takes the tolerance it is given', () => {
    const set = anchorSet(60);
    const moved = rescore(set, (s, i) => (i % 2 === 0 ? clip(s.score! + 0.1) : s.score));
    expect(judgeDrift(set, moved, options).metrics[0]!.status).toBe('changed');
    expect(judgeDrift(set, moved, { ...options, tolerance: 0.2 }).metrics[0]!.status).toBe('unchanged');
  });

  it('refuses scores it cannot compare and duplicate anchors, naming the anchor', () => {
    const set = anchorSet(40);
    expect(() =>
      judgeDrift(
        set,
        rescore(set, (s, i) => (i === 3 ? Number.NaN : s.score)),
        options,
      ),
    ).toThrow('re-scores: anchor a3 (faithfulness) has score NaN, not a number in [0, 1] or null');
    expect(() =>
      judgeDrift(
        { ...set, scores: [...set.scores, set.scores[0]!] },
        rescore(set, (s) => s.score),
        options,
      ),
    ).toThrow('anchor set v3: anchor a0 (faithfulness) is listed twice');
    expect(() =>
      judgeDrift(
        set,
        rescore(set, (s) => s.score),
        { tolerance: 1 },
      ),
    ).toThrow(/tolerance/);
    expect(() =>
      judgeDrift(
        set,
        rescore(set, (s) => s.score),
        { minAnchors: 1 },
      ),
    ).toThrow(/minAnchors/);
  });

  it('says what changed in the judge’s fingerprint', () => {
    const before: JudgeFingerprint = {
      model: 'llama-3.1-70b',
      vllmVersion: '0.11.0',
      promptVersions: { 'faithfulness/es': 'a1', 'faithfulness/en': 'b1' },
    };
    const after: JudgeFingerprint = {
      model: 'llama-3.1-70b',
      vllmVersion: null,
      promptVersions: { 'faithfulness/es': 'a2', 'answer_relevancy/es': 'c1' },
    };
    expect(fingerprintChanges(before, after)).toEqual([
      'vLLM version: 0.11.0 → unknown',
      'prompt answer_relevancy/es: none → c1',
      'prompt faithfulness/en: b1 → none',
      'prompt faithfulness/es: a1 → a2',
    ]);
    expect(fingerprintChanges(before, before)).toEqual([]);
    const set = anchorSet(40);
    const r = judgeDrift(
      { ...set, judge: before },
      { ...rescore(set, (s) => s.score), judge: { ...before, model: 'qwen2.5-72b' } },
      options,
    );
    expect(r.fingerprintChanges).toEqual(['model: llama-3.1-70b → qwen2.5-72b']);
  });
});
