import { afterEach, describe, expect, it } from 'vitest';
import { reviewGoldenQueue } from '@ragwatch/devkit/demo/golden-reviewer.js';
import { startGoldenHarness, type GoldenHarness } from './harness.js';

/**
 * The review floor holds: `golden review --apply` never publishes a version as reviewed that nobody reviewed, a
 * stratum is held back only on enough decisions, and applying the same decisions again publishes nothing new
 * (the decisions on candidates the first apply archived still count).
 */
let h: GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Meta = { type?: string; review?: { trace_id?: string; status?: string; published_without_review?: boolean } };
const meta = (item: { metadata: unknown }) => (item.metadata ?? {}) as Meta;

/** Review trace id → stratum of the candidate it shows. */
function strataOfReviewTraces(h: GoldenHarness): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of h.langfuse.store.datasetItems('rag-golden-candidates')) {
    const m = meta(c);
    if (m.review?.trace_id && m.type) out.set(m.review.trace_id, m.type);
  }
  return out;
}

describe.each(['v3', 'v4'] as const)('golden review --apply on Langfuse %s', (personality) => {
  it('refuses to publish when nobody decided anything; --unreviewed publishes and marks the version', async () => {
    h = await startGoldenHarness(personality, { yaml: 'golden: {seeds: {min: 12}, review: {share: 0.34}}' });
    expect((await h.cli('golden', 'build', '--corpus', 'corpus')).code).toBe(0);

    const refused = await h.cli('golden', 'review', '--apply', '--json');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/nobody has decided on any candidate .* nothing published/);
    expect(refused.stderr).toContain('--unreviewed');
    expect(JSON.parse(refused.stdout)).toMatchObject({ decisions: 0, published: null, archived: 0 });
    expect(h.langfuse.store.getDataset('rag-golden-v1')).toBeUndefined();

    const forced = await h.cli('golden', 'review', '--apply', '--unreviewed', '--json');
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).published).toMatchObject({ datasetName: 'rag-golden-v1', unchanged: false });
    expect(h.langfuse.store.getDataset('rag-golden-v1')?.metadata).toMatchObject({ reviewed: false });
    const v1 = h.langfuse.store.datasetItems('rag-golden-v1');
    expect(v1.length).toBeGreaterThan(0);
    for (const item of v1) expect(meta(item).review).toEqual({ status: 'unreviewed', published_without_review: true });

    // People review afterwards: the next version is a reviewed one, and the diff says which was not.
    await reviewGoldenQueue(h.http, { queueName: 'rag-golden review', decide: () => 'accept' });
    const reviewed = await h.cli('golden', 'review', '--apply', '--json');
    expect(reviewed.code, reviewed.stderr).toBe(0);
    expect(JSON.parse(reviewed.stdout).published).toMatchObject({ datasetName: 'rag-golden-v2', unchanged: false });
    expect(h.langfuse.store.getDataset('rag-golden-v2')?.metadata).not.toHaveProperty('reviewed');
    const diff = await h.cli('golden', 'diff');
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toMatch(/^rag-golden-v1 \(published without review\) → rag-golden-v2:/);
    expect(JSON.parse((await h.cli('golden', 'diff', '--json')).stdout)).toMatchObject({
      fromPublishedWithoutReview: true,
      toPublishedWithoutReview: false,
    });
  }, 60_000);

  it('holds a stratum back on enough decisions only, and three applies of one review publish once', async () => {
    h = await startGoldenHarness(personality, {
      yaml: 'golden: {seeds: {min: 12}, review: {share: 1, minAcceptance: 0.7, minDecisions: 3}}',
    });
    expect((await h.cli('golden', 'build', '--corpus', 'corpus')).code).toBe(0);
    const strata = strataOfReviewTraces(h);
    const inStratum = (s: string) => [...strata].filter(([, t]) => t === s).map(([id]) => id);
    const single = inStratum('single-hop');
    const multi = inStratum('multi-hop');
    expect(single.length).toBeGreaterThanOrEqual(3);
    expect(multi.length).toBeGreaterThanOrEqual(2);
    // single-hop: one rejection among three decisions (67 % < 70 %), the rest left unreviewed: held back.
    // multi-hop: one rejection among two decisions (50 %): below the floor, but too few decisions to hold it back.
    const rejected = new Set([single[0]!, multi[0]!]);
    const decided = new Set([...single.slice(0, 3), ...multi.slice(0, 2)]);
    await reviewGoldenQueue(h.http, {
      queueName: 'rag-golden review',
      decide: (id) => (rejected.has(id) ? 'reject-ambiguous' : decided.has(id) ? 'accept' : null),
    });

    const first = await h.cli('golden', 'review', '--apply', '--json');
    expect(first.code, first.stderr).toBe(0);
    const r1 = JSON.parse(first.stdout);
    expect(r1.published).toMatchObject({ datasetName: 'rag-golden-v1', unchanged: false });
    expect(r1.perStratum['single-hop']).toMatchObject({ reviewed: 3, heldBack: true, tooFewDecisions: false });
    expect(r1.perStratum['multi-hop']).toMatchObject({ reviewed: 2, heldBack: false, tooFewDecisions: true });
    expect(r1.warnings.join('\n')).toMatch(/multi-hop: acceptance 50 % is below the floor 0.7 on 2 decision/);
    expect(r1.archived).toBe(2);

    for (const n of [2, 3]) {
      const again = await h.cli('golden', 'review', '--apply', '--json');
      expect(again.code, again.stderr).toBe(0);
      const r = JSON.parse(again.stdout);

      expect(r.published, `apply #${n}`).toMatchObject({ datasetName: 'rag-golden-v1', unchanged: true });
      expect(r.perStratum).toEqual(r1.perStratum);
      expect(r.archived).toBe(0);
    }
    expect(h.langfuse.store.getDataset('rag-golden-v2')).toBeUndefined();
  }, 60_000);
});
