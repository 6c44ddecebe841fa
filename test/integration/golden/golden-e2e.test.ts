import { afterEach, describe, expect, it } from 'vitest';
import { reviewGoldenQueue, type ReviewLabel } from '@ragwatch/devkit/demo/golden-reviewer.js';
import { listAnnotationQueues, listQueueItems } from '../../../src/langfuse/resources/annotation-queues.js';
import { REJECTION_REASONS, STRATA } from '../../../src/golden/types.js';
import { startGoldenHarness, type GoldenHarness } from './harness.js';

let h: GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Meta = Record<string, unknown> & {
  type?: string;
  split?: string;
  status?: string;
  reason?: string;
  golden_id?: string;
};
const meta = (item: { metadata: unknown }) => (item.metadata ?? {}) as Meta;

describe.each(['v3', 'v4'] as const)('golden set end to end on Langfuse %s', (personality) => {
  it('corpus folder → candidates and review queue → people review → resumed build adds nothing → published version → experiment run → next version and its diff', async () => {
    h = await startGoldenHarness(personality, {
      yaml: 'golden: {seeds: {min: 12}, review: {share: 0.34, minAcceptance: 0.4}, testShare: 0.3}',
    });
    const store = h.langfuse.store;

    const built = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(built.code, built.stderr).toBe(0);
    const summary = JSON.parse(built.stdout);
    expect(summary.complete).toBe(true);
    expect(summary.plan.excluded.personal_data).toBe(2);
    expect(summary.plan.seeds).toBe(12);
    expect(Object.keys(summary.plan.byStratum)).toEqual([...STRATA]);
    const candidates = store.datasetItems('rag-golden-candidates');
    expect(candidates).toHaveLength(24);
    for (const c of candidates) {
      const m = meta(c);
      expect(STRATA).toContain(m.type);
      if (c.status === 'ARCHIVED') {
        expect(m.status).toBe('rejected');
        expect(REJECTION_REASONS).toContain(m.reason);
        expect(String(m.detail ?? '')).not.toBe('');
      } else {
        expect(m.status).toBe('accepted');
      }
    }
    for (const stratum of STRATA)
      expect(candidates.filter((c) => c.status === 'ACTIVE' && meta(c).type === stratum).length).toBeGreaterThan(0);
    const accepted = candidates.filter((c) => c.status === 'ACTIVE').length;

    // The review queue: one item per sampled candidate, each a review trace in ragwatch's own environment.
    const [queue] = await listAnnotationQueues(h.http);
    expect(queue?.name).toBe('rag-golden review');
    const items = await listQueueItems(h.http, queue!.id);
    const sampled = candidates.filter((c) => (meta(c).review as { trace_id?: string } | undefined)?.trace_id);
    expect(items.map((i) => i.objectId).sort()).toEqual(
      sampled.map((c) => (meta(c).review as { trace_id: string }).trace_id).sort(),
    );
    expect(items.length).toBeGreaterThanOrEqual(3);
    for (const item of items) {
      const trace = store.getTrace(item.objectId)!;
      expect(trace).toMatchObject({ name: 'ragwatch-golden-review', environment: 'ragwatch' });
      expect(JSON.parse(trace.input!)).toMatchObject({ question: expect.any(String), stratum: expect.any(String) });
    }

    // A person reviews: the first item rejected as trivial, the rest accepted.
    const first = items[0]!.objectId;
    const decide = (id: string): ReviewLabel => (id === first ? 'reject-trivial' : 'accept');
    expect(await reviewGoldenQueue(h.http, { queueName: 'rag-golden review', decide })).toEqual({
      accept: items.length - 1,
      'reject-trivial': 1,
      'reject-parametric': 0,
      'reject-ambiguous': 0,
    });

    // A second build resumes: no judge request, no new candidate, no new queue item.
    const requestsBefore = h.judgeRequests();
    const again = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(h.judgeRequests()).toBe(requestsBefore);
    expect(JSON.parse(again.stdout).resume).toEqual({ done: 12, generated: 0, pending: 0 });
    expect(store.datasetItems('rag-golden-candidates')).toHaveLength(24);
    expect(await listQueueItems(h.http, queue!.id)).toHaveLength(items.length);

    const applied = await h.cli('golden', 'review', '--apply', '--json');
    expect(applied.code, applied.stderr).toBe(0);
    const review = JSON.parse(applied.stdout);
    expect(review.published).toMatchObject({ datasetName: 'rag-golden-v1', unchanged: false });
    expect(review.heldBack).toEqual([]);
    expect(
      Object.values(review.perStratum)
        .map((r) => (r as { reviewed: number }).reviewed)
        .reduce((a, b) => a + b),
    ).toBe(items.length);
    const v1 = store.datasetItems('rag-golden-v1');
    expect(v1).toHaveLength(accepted - 1);
    expect(review.published.items).toBe(accepted - 1);
    for (const item of v1) {
      const m = meta(item);
      expect(STRATA).toContain(m.type);
      expect(['dev', 'test']).toContain(m.split);
      expect(item.input).toEqual({ question: expect.any(String) });
      expect(item.expectedOutput).toEqual({ answer: expect.any(String) });
      expect(m).toMatchObject({
        source_chunks: expect.any(Array),
        generator: { model: h.judge.model },
        review: { status: expect.stringMatching(/^(accepted|unreviewed)$/) },
      });
    }
    for (const stratum of STRATA) {
      const inStratum = v1.filter((i) => meta(i).type === stratum);
      expect(inStratum.filter((i) => meta(i).split === 'test').length).toBe(Math.round(0.3 * inStratum.length));
    }
    // The rejected candidate is archived with the review's reason, and not in the golden set.
    const rejected = store
      .datasetItems('rag-golden-candidates')
      .find((c) => (meta(c).review as { trace_id?: string } | undefined)?.trace_id === first)!;
    expect(rejected).toMatchObject({ status: 'ARCHIVED', metadata: { status: 'rejected', reason: 'review_trivial' } });
    expect(v1.map((i) => meta(i).golden_id)).not.toContain(rejected.id);

    // Applying the same review again changes nothing.
    const same = await h.cli('golden', 'review', '--apply', '--json');
    expect(JSON.parse(same.stdout).published).toMatchObject({ datasetName: 'rag-golden-v1', unchanged: true });
    expect(store.getDataset('rag-golden-v2')).toBeUndefined();

    const experiment = await h.cli('experiment', 'run', '--dataset', 'rag-golden-v1', '--json');
    // A golden set of this size cannot carry a verdict: not enough evidence, exit 4, never a pass on a few items.
    expect(experiment.code, experiment.stderr).toBe(4);
    const run = JSON.parse(experiment.stdout);
    expect(run.items.total).toBe(v1.length);
    expect(run.outcome).toBe('not_enough_evidence');
    expect(run.gate.deciding.line).toMatch(/not enough evidence \(fewer than 30 items\)/);

    // A later decision replaces the earlier one: an accepted item rejected as ambiguous makes v2.
    const second = items[1]!.objectId;
    const reviewed = await reviewGoldenQueue(h.http, { queueName: 'rag-golden review', decide: () => 'accept' });
    expect(reviewed.accept).toBe(0); // nothing pending any more
    await reviewAgain(h, second, 'reject-ambiguous');
    const next = await h.cli('golden', 'review', '--apply', '--json');
    expect(JSON.parse(next.stdout).published).toMatchObject({ datasetName: 'rag-golden-v2', unchanged: false });
    const v2 = store.datasetItems('rag-golden-v2');
    expect(v2).toHaveLength(v1.length - 1);
    const splitOf = new Map(v1.map((i) => [meta(i).golden_id, meta(i).split]));
    for (const item of v2) expect(meta(item).split).toBe(splitOf.get(meta(item).golden_id));

    const diff = await h.cli('golden', 'diff', '--json');
    expect(diff.code, diff.stderr).toBe(0);
    const d = JSON.parse(diff.stdout);
    expect(d).toMatchObject({
      from: 'rag-golden-v1',
      to: 'rag-golden-v2',
      added: [],
      changed: [],
      splitMoves: [],
      unchanged: v2.length,
    });
    expect(d.removed).toHaveLength(1);
    const text = await h.cli('golden', 'diff');
    expect(text.stdout).toContain('rag-golden-v1 → rag-golden-v2: 0 added, 1 removed');

    expect(h.violations).toEqual([]);
  }, 120_000);
});

/** A reviewer changing their mind: a new decision on an already completed item (the latest one counts). */
async function reviewAgain(h: GoldenHarness, traceId: string, label: ReviewLabel): Promise<void> {
  const [queue] = await listAnnotationQueues(h.http);
  const config = h.langfuse.store.scoreConfigs().find((c) => c.name === 'golden-review')!;
  await h.http.request({
    method: 'POST',
    path: '/api/public/scores',
    body: {
      traceId,
      name: 'golden-review',
      value: label,
      configId: config.id,
      queueId: queue!.id,
      source: 'ANNOTATION',
    },
  });
}

describe('golden review --apply cut short', () => {
  it('completes the same version on the next --apply instead of starting another', async () => {
    h = await startGoldenHarness('v3', { yaml: 'golden: {seeds: {min: 12}}' });
    const { readFile, writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const file = join(h.dir, 'ragwatch.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace(
        'secretKey: sk-lf-devkit, maxAttempts: 2',
        'secretKey: sk-lf-devkit, maxAttempts: 1',
      ),
    );
    expect((await h.cli('golden', 'build', '--corpus', 'corpus')).code).toBe(0);
    let uploaded = 0;
    const stop = h.langfuse.onExchange((e) => {
      if (e.method !== 'POST' || e.route !== '/api/public/dataset-items') return;
      if ((e.requestBody as { datasetName?: string }).datasetName !== 'rag-golden-v1') return;
      if (++uploaded === 3)
        h!.langfuse.faults.set('POST /api/public/dataset-items', { errorRate: 1, errorStatus: 503 });
    });
    // Nobody reviewed: --unreviewed publishes anyway (the floor test covers the refusal).
    const cut = await h.cli('golden', 'review', '--apply', '--unreviewed');
    expect(cut.code).toBe(3);
    expect(cut.stderr).toContain('langfuse unreachable');
    expect(h.langfuse.store.datasetItems('rag-golden-v1')).toHaveLength(3);
    stop();
    h.langfuse.faults.clear();
    const done = await h.cli('golden', 'review', '--apply', '--unreviewed', '--json');
    expect(done.code, done.stderr).toBe(0);
    const published = JSON.parse(done.stdout).published;
    expect(published).toMatchObject({ datasetName: 'rag-golden-v1', unchanged: false });
    expect(h.langfuse.store.datasetItems('rag-golden-v1')).toHaveLength(published.items);
    expect(h.langfuse.store.getDataset('rag-golden-v2')).toBeUndefined();
    expect(
      JSON.parse((await h.cli('golden', 'review', '--apply', '--unreviewed', '--json')).stdout).published.unchanged,
    ).toBe(true);
  }, 60_000);
});
