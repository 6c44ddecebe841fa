import { describe, expect, it } from 'vitest';
import { decideCheck, decideGate, type GateEvidence } from '../../../src/experiment/gate.js';

const evidence = (over: Partial<GateEvidence> = {}): GateEvidence => ({
  check: 'faithfulness',
  threshold: 0.85,
  higherIsBetter: true,
  n: 60,
  value: 0.9,
  interval: { low: 0.87, high: 0.93 },
  minN: 30,
  ...over,
});

describe('a gate check', () => {
  it('point rule: the mean against the threshold, at or above passes', () => {
    expect(decideCheck(evidence({ value: 0.85, interval: { low: 0.86, high: 0.9 } }), 'point').outcome).toBe('passed');
    expect(decideCheck(evidence({ value: 0.5, interval: { low: 0.4, high: 0.6 } }), 'point')).toMatchObject({
      outcome: 'failed',
      borderline: false,
      line: 'faithfulness: 0.500 [0.400, 0.600], n = 60, threshold ≥ 0.85: failed',
    });
  });

  it('point rule: a verdict whose interval holds the threshold is said to be borderline', () => {
    // answer relevancy 0.790 [0.736, 0.841] against 0.8 fails like 0.5 would, but says so.
    const c = decideCheck(
      evidence({ check: 'answer_relevancy', threshold: 0.8, value: 0.79, interval: { low: 0.736, high: 0.841 } }),
      'point',
    );
    expect(c).toMatchObject({ outcome: 'failed', borderline: true });
    expect(c.line).toContain('borderline: the interval holds the threshold');
  });

  it('interval rule: passes on the whole interval, fails on the whole interval, else not enough evidence', () => {
    expect(decideCheck(evidence({ interval: { low: 0.86, high: 0.93 } }), 'interval').outcome).toBe('passed');
    expect(decideCheck(evidence({ value: 0.7, interval: { low: 0.6, high: 0.84 } }), 'interval').outcome).toBe(
      'failed',
    );
    const borderline = decideCheck(
      evidence({ check: 'answer_relevancy', threshold: 0.8, value: 0.79, interval: { low: 0.736, high: 0.841 } }),
      'interval',
    );
    expect(borderline.outcome).toBe('not_enough_evidence');
    expect(borderline.line).toContain('the interval holds the threshold');
  });

  it('a lower-is-better figure is gated from above', () => {
    const noise = { check: 'noise_sensitivity', threshold: 0.3, higherIsBetter: false };
    expect(decideCheck(evidence({ ...noise, value: 0.3, interval: { low: 0.2, high: 0.29 } }), 'point').outcome).toBe(
      'passed',
    );
    expect(
      decideCheck(evidence({ ...noise, value: 0.4, interval: { low: 0.35, high: 0.45 } }), 'interval'),
    ).toMatchObject({
      outcome: 'failed',
      line: 'noise_sensitivity: 0.400 [0.350, 0.450], n = 60, threshold ≤ 0.3: failed (the whole interval)',
    });
  });

  it('too few items, or nothing scored, is not enough evidence under either rule, never a fail or a 0', () => {
    for (const rule of ['point', 'interval'] as const) {
      const few = decideCheck(evidence({ n: 2, value: 0.2, interval: { low: 0.05, high: 0.9 } }), rule);
      expect(few.outcome).toBe('not_enough_evidence');
      expect(few.line).toContain('fewer than 30 items');
      const none = decideCheck(evidence({ n: 0, value: null, interval: null }), rule);
      expect(none).toMatchObject({ outcome: 'not_enough_evidence', line: expect.stringContaining('nothing scored') });
    }
  });
});

describe('the gate', () => {
  it('fails when one check fails on enough evidence, even beside an undecided one', () => {
    const g = decideGate(
      [
        evidence({ check: 'faithfulness', n: 10 }),
        evidence({ check: 'context_recall', threshold: 0.8, value: 0.5, interval: { low: 0.4, high: 0.6 } }),
      ],
      'point',
    );
    expect(g.outcome).toBe('failed');
    expect(g.deciding?.check).toBe('context_recall');
  });

  it('is not enough evidence when nothing failed and something is undecided, naming it', () => {
    const g = decideGate([evidence(), evidence({ check: 'abstention', threshold: 0.8, n: 4, minN: 10 })], 'point');
    expect(g.outcome).toBe('not_enough_evidence');
    expect(g.deciding?.check).toBe('abstention');
  });

  it('passes when every check passed, naming the closest call', () => {
    const g = decideGate(
      [evidence({ value: 0.95 }), evidence({ check: 'answer_relevancy', threshold: 0.8, value: 0.82 })],
      'point',
    );
    expect(g.outcome).toBe('passed');
    expect(g.deciding?.check).toBe('answer_relevancy');
  });
});
