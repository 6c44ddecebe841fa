import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffVersions } from '../../../src/golden/diff.js';
import type { GoldenItemView } from '../../../src/golden/items.js';
import { applyReview, decisionsByTrace, reviewSample } from '../../../src/golden/review.js';
import { assignSplits, earlierSplits } from '../../../src/golden/splits.js';
import { STRATA, type Split, type Stratum } from '../../../src/golden/types.js';

const items = (n: number, stratum: Stratum, prefix: string = stratum) =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i}`, stratum }));

describe('review sample', () => {
  it('takes the share of each stratum (one at least), keeps what was queued, grows with the set', () => {
    const pool = [...items(20, 'single-hop'), ...items(3, 'multi-hop'), ...items(1, 'adversarial')];
    const first = reviewSample(pool, new Set(), 0.15, 42);
    expect(
      pool
        .filter((c) => first.has(c.id))
        .map((c) => c.stratum)
        .sort(),
    ).toEqual(['adversarial', 'multi-hop', 'single-hop', 'single-hop', 'single-hop']);
    const grown = [...pool, ...items(20, 'single-hop', 'more')];
    const second = reviewSample(grown, first, 0.15, 42);
    for (const id of first) expect(second.has(id)).toBe(true);
    expect(grown.filter((c) => second.has(c.id) && c.stratum === 'single-hop')).toHaveLength(6);
    expect(reviewSample(pool, new Set(), 0, 42).size).toBe(0);
  });
});

describe('review decisions', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, s)).toISOString();
  it('takes each trace’s latest decision, ignores labels outside the categories, and applies the floor', () => {
    const decisions = decisionsByTrace([
      { traceId: 't1', name: 'golden-review', label: 'reject-trivial', comment: null, timestamp: at(1) },
      { traceId: 't1', name: 'golden-review', label: 'accept', comment: 'fine after all', timestamp: at(5) },
      { traceId: 't2', name: 'golden-review', label: 'reject-ambiguous', comment: null, timestamp: at(2) },
      { traceId: 't2', name: 'golden-review-note', label: 'unclear pronoun', comment: null, timestamp: at(3) },
      { traceId: 't3', name: 'golden-review', label: 'maybe', comment: null, timestamp: at(9) },
      { traceId: 't4', name: 'golden-review', label: 'reject-parametric', comment: null, timestamp: at(1) },
    ]);
    expect(decisions.get('t1')).toEqual({ decision: 'accept', comment: 'fine after all', note: null });
    expect(decisions.get('t2')).toEqual({ decision: 'reject-ambiguous', comment: null, note: 'unclear pronoun' });
    expect(decisions.has('t3')).toBe(false);
    const outcome = applyReview(
      [
        { id: 's1', stratum: 'single-hop', reviewTraceId: 't1' },
        { id: 's2', stratum: 'single-hop', reviewTraceId: null },
        { id: 'm1', stratum: 'multi-hop', reviewTraceId: 't2' },
        { id: 'm2', stratum: 'multi-hop', reviewTraceId: 't4' },
        { id: 'm3', stratum: 'multi-hop', reviewTraceId: null },
        { id: 'a1', stratum: 'adversarial', reviewTraceId: 't3' },
      ],
      decisions,
      { minAcceptance: 0.7, minDecisions: 2 },
    );
    expect(outcome.publish).toEqual([
      { id: 's1', review: 'accepted' },
      { id: 's2', review: 'unreviewed' },
      { id: 'a1', review: 'unreviewed' },
    ]);
    expect(Object.fromEntries(outcome.rejected)).toEqual({ m1: 'review_ambiguous', m2: 'review_parametric' });
    expect(outcome.heldBack).toEqual(['m3']);
    expect(outcome.perStratum['multi-hop']).toMatchObject({ reviewed: 2, accepted: 0, acceptance: 0, heldBack: true });
    expect(outcome.perStratum.adversarial).toMatchObject({
      sampled: 1,
      reviewed: 0,
      acceptance: null,
      heldBack: false,
    });
  });
});

describe('the acceptance floor', () => {
  const decided = (labels: string[]) =>
    decisionsByTrace(
      labels.map((label, i) => ({
        traceId: `t${i}`,
        name: 'golden-review',
        label,
        comment: null,
        timestamp: new Date(Date.UTC(2026, 2, 2, 10, 0, i)).toISOString(),
      })),
    );
  const stratum = (reviewed: number, unreviewed: number) => [
    ...Array.from({ length: reviewed }, (_, i) => ({
      id: `r${i}`,
      stratum: 'multi-hop' as const,
      reviewTraceId: `t${i}`,
    })),
    ...Array.from({ length: unreviewed }, (_, i) => ({
      id: `u${i}`,
      stratum: 'multi-hop' as const,
      reviewTraceId: null,
    })),
  ];

  it('needs enough decisions to hold a stratum back: one rejection among three is not evidence', () => {
    const outcome = applyReview(stratum(3, 5), decided(['accept', 'accept', 'reject-trivial']), {
      minAcceptance: 0.7,
      minDecisions: 10,
    });
    expect(outcome.perStratum['multi-hop']).toMatchObject({
      reviewed: 3,
      acceptance: 2 / 3,
      heldBack: false,
      tooFewDecisions: true,
    });
    expect(outcome.heldBack).toEqual([]);
    expect(outcome.publish.filter((p) => p.review === 'unreviewed')).toHaveLength(5);
  });

  it('holds the stratum back once the decisions reach the minimum', () => {
    const labels = [...Array(7).fill('accept'), ...Array(4).fill('reject-ambiguous')];
    const outcome = applyReview(stratum(11, 5), decided(labels), { minAcceptance: 0.7, minDecisions: 10 });
    expect(outcome.perStratum['multi-hop']).toMatchObject({ reviewed: 11, heldBack: true, tooFewDecisions: false });
    expect(outcome.heldBack).toHaveLength(5);
  });

  it('keeps counting a rejection whose candidate an earlier apply archived, annotation or not', () => {
    const labels = [...Array(7).fill('accept'), ...Array(4).fill('reject-ambiguous')];
    const first = applyReview(stratum(11, 5), decided(labels), { minAcceptance: 0.7, minDecisions: 10 });
    // The second apply: the four rejected candidates are archived; two of their annotations were deleted.
    const again = stratum(11, 5).map((c) =>
      first.rejected.has(c.id) ? { ...c, archivedFor: first.rejected.get(c.id)! } : c,
    );
    const remaining = decisionsByTrace(
      labels
        .map((label, i) => ({ traceId: `t${i}`, name: 'golden-review', label, comment: null, timestamp: '2026-03-02' }))
        .filter((_, i) => i < 9),
    );
    const second = applyReview(again, remaining, { minAcceptance: 0.7, minDecisions: 10 });
    expect(second.perStratum['multi-hop']).toEqual(first.perStratum['multi-hop']);
    expect(second.publish).toEqual(first.publish);
    expect(second.heldBack).toEqual(first.heldBack);
    expect(second.rejected.size).toBe(0);
    expect(second.decisions).toBe(11);
  });
});

describe('splits', () => {
  it('puts the test share of every stratum in test, seeded', () => {
    const pool = [...items(10, 'single-hop'), ...items(7, 'multi-hop'), ...items(3, 'adversarial')];
    const splits = assignSplits(pool, new Map(), 0.3, 42);
    const test = (s: Stratum) => pool.filter((i) => i.stratum === s && splits.get(i.id) === 'test').length;
    expect([test('single-hop'), test('multi-hop'), test('adversarial')]).toEqual([3, 2, 1]);
    expect(assignSplits(pool, new Map(), 0.3, 42)).toEqual(splits);
    expect(assignSplits(pool, new Map(), 0.3, 7)).not.toEqual(splits);
  });

  it('never moves an item across versions, whatever is added or removed (property)', () => {
    const version = fc.array(
      fc.record({ id: fc.integer({ min: 0, max: 40 }).map(String), stratum: fc.constantFrom(...STRATA) }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(
        fc.array(version, { minLength: 2, maxLength: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (versions, share) => {
          const history: Array<Array<{ goldenId: string; split: string }>> = [];
          const seen = new Map<string, Split>();
          for (const raw of versions) {
            const unique = [...new Map(raw.map((i) => [i.id, i])).values()];
            const splits = assignSplits(unique, earlierSplits(history), share, 1);
            for (const [id, split] of splits) {
              if (seen.has(id)) expect(split).toBe(seen.get(id));
              seen.set(id, split);
            }
            history.push([...splits].map(([goldenId, split]) => ({ goldenId, split })));
          }
        },
      ),
    );
  });
});

describe('diff', () => {
  const view = (goldenId: string, extra: Partial<GoldenItemView> = {}): GoldenItemView => ({
    goldenId,
    itemId: `i-${goldenId}`,
    question: `q ${goldenId}`,
    reference: `r ${goldenId}`,
    stratum: 'single-hop',
    split: 'dev',
    active: true,
    publishedWithoutReview: false,
    lineage: null,
    sourceHashes: [],
    ...extra,
  });
  it('lists items added, removed and changed, and split moves', () => {
    const d = diffVersions(
      { name: 'v1', items: [view('a'), view('b'), view('c'), view('d'), view('x', { active: false })] },
      {
        name: 'v2',
        items: [view('a'), view('b', { question: 'new q' }), view('c', { split: 'test' }), view('e'), view('x')],
      },
    );
    expect(d.added.map((i) => i.goldenId)).toEqual(['e', 'x']);
    expect(d.removed.map((i) => i.goldenId)).toEqual(['d']);
    expect(d.changed).toEqual([{ goldenId: 'b', fields: ['question'], reason: 'edited' }]);
    expect(d.splitMoves).toEqual([{ goldenId: 'c', from: 'dev', to: 'test' }]);
    expect(d.unchanged).toBe(1);
  });

  it('an item regenerated from the same seed chunk is changed, not one removed and one added (issue 30, part 1)', () => {
    const d = diffVersions(
      {
        name: 'v1',
        items: [
          view('a', { lineage: 'L1', sourceHashes: ['h1'] }),
          view('b', { lineage: 'L2' }),
          view('c', { lineage: null }),
          view('e', { lineage: 'L3', sourceHashes: ['h3'] }),
          view('f', { lineage: 'L4', sourceHashes: ['h4'] }),
        ],
      },
      {
        name: 'v2',
        items: [
          view('a2', { lineage: 'L1', question: 'q a', split: 'test', sourceHashes: ['h1 changed'] }),
          view('b', { lineage: 'L2' }),
          view('e2', { lineage: 'L3', sourceHashes: ['h3'] }),
          view('f2', { lineage: 'L4' }),
          view('d', { lineage: 'L9' }),
        ],
      },
    );
    expect(d.changed).toEqual([
      { goldenId: 'a2', previousId: 'a', fields: ['reference'], reason: 'chunk_changed' },
      { goldenId: 'e2', previousId: 'e', fields: ['question', 'reference'], reason: 'generation_changed' },
      { goldenId: 'f2', previousId: 'f', fields: ['question', 'reference'], reason: 'regenerated' },
    ]);
    expect(d.added.map((i) => i.goldenId)).toEqual(['d']);
    expect(d.removed.map((i) => i.goldenId)).toEqual(['c']);
    expect(d.splitMoves).toEqual([{ goldenId: 'a2', from: 'dev', to: 'test' }]);
    expect(d.unchanged).toBe(1);
  });
});
