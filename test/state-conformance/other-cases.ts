import { describe, expect, it } from 'vitest';
import type { ExperimentRunRecord } from '../../src/state/index.js';
import type { StateBackend } from './backend.js';
import { freshState } from './context.js';

const run = (runName: string, startedAt: number, extra: Partial<ExperimentRunRecord> = {}): ExperimentRunRecord => ({
  dataset: 'rag-golden-v1',
  runName,
  datasetRunId: `dr-${runName}`,
  startedAt,
  finishedAt: startedAt + 10,
  split: 'all',
  gatePassed: true,
  means: { faithfulness: 0.91, answer_relevancy: null },
  perItem: { faithfulness: { 'item-1': 1, 'item-2': 0.82 }, answer_relevancy: { 'item-1': 0.5 } },
  ...extra,
});

/** Experiment history, meta, gauges, health and the golden-set builder's state. */
export function otherCases(backend: StateBackend): void {
  describe(`${backend.name}: experiment history, meta and gauges`, () => {
    const ctx = freshState(backend);

    it('records runs, lists them newest first without per-item values, replaces a run of one name', async () => {
      const { store } = ctx;
      await store.recordExperimentRun(run('w1', 100));
      await store.recordExperimentRun(run('w2', 200, { gatePassed: false, split: 'test', datasetRunId: null }));
      await store.recordExperimentRun(run('w0', 50));
      await store.recordExperimentRun({ ...run('other', 300), dataset: 'another' });
      const listed = await store.listExperimentRuns('rag-golden-v1', 10);
      expect(listed.map((r) => r.runName)).toEqual(['w2', 'w1', 'w0']);
      expect(listed[0]).toEqual({
        ...run('w2', 200, { gatePassed: false, split: 'test', datasetRunId: null }),
        perItem: {},
      });
      expect((await store.listExperimentRuns('rag-golden-v1', 1)).map((r) => r.runName)).toEqual(['w2']);
      expect(await store.getExperimentItemValues('rag-golden-v1', 'w1')).toEqual(run('w1', 100).perItem);
      await store.recordExperimentRun(
        run('w1', 100, { perItem: { faithfulness: { 'item-3': 0.25 } }, means: { faithfulness: 0.25 } }),
      );
      expect(await store.getExperimentItemValues('rag-golden-v1', 'w1')).toEqual({ faithfulness: { 'item-3': 0.25 } });
      expect((await store.listExperimentRuns('rag-golden-v1', 10)).find((r) => r.runName === 'w1')!.means).toEqual({
        faithfulness: 0.25,
      });
      expect(await store.getExperimentItemValues('rag-golden-v1', 'none')).toEqual({});
    });

    it('keeps reports whole, replaces one of the same run, lists them newest first and prunes by age', async () => {
      const { store } = ctx;
      expect(await store.listReports()).toEqual([]);
      expect(await store.getReportFile('weekly-2026-W48', 'report.html')).toBeNull();
      const html = `<!doctype html><p>${'¿Qué cubre la póliza? '.repeat(5000)}</p>`;
      await store.putReport({
        runDir: 'weekly-2026-W48',
        files: { 'report.html': html, 'report.md': '# w48', 'report.json': '{"runName":"weekly-2026-W48"}' },
        createdAt: 1000,
      });
      await store.putReport({ runDir: 'weekly-2026-W49', files: { 'report.md': '# w49 first' }, createdAt: 2000 });
      // A run's report written again (a rerun of one name) replaces the old one whole.
      await store.putReport({ runDir: 'weekly-2026-W49', files: { 'report.html': '<p>w49</p>' }, createdAt: 3000 });
      const reopened = await ctx.open();
      expect(await reopened.getReportFile('weekly-2026-W48', 'report.html')).toBe(html);
      expect(await reopened.getReportFile('weekly-2026-W49', 'report.md')).toBeNull();
      expect(await reopened.getReportFile('weekly-2026-W49', 'report.html')).toBe('<p>w49</p>');
      expect(await reopened.listReports()).toEqual([
        { runDir: 'weekly-2026-W49', createdAt: 3000 },
        { runDir: 'weekly-2026-W48', createdAt: 1000 },
      ]);
      expect(await store.pruneReports(1000)).toBe(0);
      expect(await store.pruneReports(2500)).toBe(1);
      expect((await store.listReports()).map((r) => r.runDir)).toEqual(['weekly-2026-W49']);
      expect(await store.getReportFile('weekly-2026-W48', 'report.md')).toBeNull();
    });

    it('keeps meta facts and gauges', async () => {
      const { store } = ctx;
      expect(await store.getMeta('langfuse.api')).toBeNull();
      await store.setMeta('langfuse.api', '{"generation":"v4"}', 5);
      await store.setMeta('langfuse.api', '{"generation":"v3"}', 6);
      expect(await store.getMeta('langfuse.api')).toEqual({ value: '{"generation":"v3"}', updatedAt: 6 });
      expect(await store.getGauges()).toEqual({});
      await store.setGauges({ rag_faithfulness_score: 0.9 }, 1);
      await store.setGauges({ rag_faithfulness_score: 0.8, rag_answer_relevancy_score: 0.7 }, 2);
      expect(await (await ctx.open()).getGauges()).toEqual({
        rag_faithfulness_score: 0.8,
        rag_answer_relevancy_score: 0.7,
      });
    });

    it('answers health and ping while open, and says closed after close', async () => {
      const s = await ctx.open();
      expect(await s.ping()).toBe(true);
      expect(await s.health()).toEqual({ ok: true });
      expect(typeof s.location).toBe('string');
      await s.close();
      expect(await s.ping()).toBe(false);
      const health = await s.health();
      expect(health.ok).toBe(false);
      if (!health.ok) expect(health.problem.kind).toBe('closed');
      await s.close();
    });
  });

  describe(`${backend.name}: golden-set builder state`, () => {
    const ctx = freshState(backend);

    it('keeps builds, seeds, candidates, the review queue and publications', async () => {
      const g = await ctx.instance.golden();
      try {
        await g.startBuild({ buildId: 'b1', candidatesDataset: 'cands', planHash: 'h', startedAt: 1 });
        await g.startBuild({ buildId: 'b2', candidatesDataset: 'cands', planHash: 'h2', startedAt: 2 });
        await g.finishBuild('b2', 'complete', { seeds: 3 }, 5);
        expect(await g.lastBuild('cands')).toEqual({
          buildId: 'b2',
          candidatesDataset: 'cands',
          planHash: 'h2',
          startedAt: 2,
          finishedAt: 5,
          outcome: 'complete',
          counts: { seeds: 3 },
        });
        expect(await g.lastBuild('other')).toBeNull();
        const seed = {
          candidatesDataset: 'cands',
          seedKey: 'k1',
          stratum: 'multi-hop' as const,
          chunkIds: ['a', 'b'],
          stage: 'generated' as const,
          candidateIds: ['c1'],
          lastError: null,
          attempts: 1,
          updatedAt: 2,
        };
        await g.putSeed(seed);
        await g.putSeed({ ...seed, stage: 'failed', lastError: 'judge:http_503', attempts: 2, updatedAt: 3 });
        await g.putSeed({ ...seed, seedKey: 'k0' });
        expect(await g.seeds('cands')).toEqual([
          { ...seed, seedKey: 'k0' },
          { ...seed, stage: 'failed', lastError: 'judge:http_503', attempts: 2, updatedAt: 3 },
        ]);
        const cand = {
          candidatesDataset: 'cands',
          candidateId: 'c1',
          seedKey: 'k1',
          stratum: 'multi-hop' as const,
          contentHash: 'x',
          status: 'generated' as const,
          reason: null,
          reviewTraceId: null,
          updatedAt: 4,
        };
        await g.putCandidates([cand, { ...cand, candidateId: 'c0', status: 'rejected', reason: 'trivial' }]);
        await g.putCandidates([{ ...cand, status: 'accepted', reviewTraceId: 'rt1', updatedAt: 5 }]);
        await g.putCandidates([]);
        expect(await g.candidates('cands')).toEqual([
          { ...cand, candidateId: 'c0', status: 'rejected', reason: 'trivial' },
          { ...cand, status: 'accepted', reviewTraceId: 'rt1', updatedAt: 5 },
        ]);
        expect(await g.reviewQueue('cands')).toBeNull();
        await g.setReviewQueue('cands', 'q1', 6);
        await g.setReviewQueue('cands', 'q2', 7);
        expect(await g.reviewQueue('cands')).toBe('q2');
        const pub = {
          prefix: 'rag-golden',
          datasetName: 'rag-golden-v1',
          version: 1,
          candidatesDataset: 'cands',
          contentHash: 'p',
          items: 40,
          publishedAt: 8,
        };
        await g.recordPublication({ ...pub, version: 2, datasetName: 'rag-golden-v2' });
        await g.recordPublication(pub);
        expect((await g.publications('rag-golden')).map((p) => p.version)).toEqual([1, 2]);
        expect((await g.publications('rag-golden'))[0]).toEqual(pub);
      } finally {
        await g.close();
      }
    });

    it('keeps embeddings of questions by model and hash, every float as it was', async () => {
      const g = await ctx.instance.golden();
      try {
        const v1 = [0.1, -0.25, 1e-310, 3.141592653589793, -0, 1e300];
        const v2 = [Number.NaN, Number.POSITIVE_INFINITY, 0];
        expect(await g.questionVectors('emb', ['h1'])).toEqual(new Map());
        await g.putQuestionVectors('emb', [], 1);
        await g.putQuestionVectors(
          'emb',
          [
            { hash: 'h1', vector: v1 },
            { hash: 'h2', vector: v2 },
          ],
          1,
        );
        await g.putQuestionVectors('other-model', [{ hash: 'h1', vector: [7, 8] }], 2);
        const got = await g.questionVectors('emb', ['h1', 'h2', 'h3']);
        expect([...got.keys()].sort()).toEqual(['h1', 'h2']);
        expect(Object.is(got.get('h1')![4], -0)).toBe(true);
        expect(got.get('h1')).toEqual(v1);
        expect(got.get('h2')).toEqual(v2);
        expect(await g.questionVectors('other-model', ['h1', 'h2'])).toEqual(new Map([['h1', [7, 8]]]));
        await g.putQuestionVectors('emb', [{ hash: 'h1', vector: [9] }], 2);
        expect((await g.questionVectors('emb', ['h1'])).get('h1')).toEqual([9]);
        const many = Array.from({ length: 1200 }, (_, i) => ({ hash: `m${i}`, vector: [i, i / 3] }));
        await g.putQuestionVectors('emb', many, 3);
        const back = await g.questionVectors(
          'emb',
          many.map((m) => m.hash),
        );
        expect(back.size).toBe(1200);
        expect(back.get('m1199')).toEqual([1199, 1199 / 3]);
      } finally {
        await g.close();
      }
    });
  });
}
