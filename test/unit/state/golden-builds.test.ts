import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/state/migrations.js';
import { sqliteGoldenStore } from '../../../src/state/golden-builds.js';

function store() {
  const db = new BetterSqlite3(':memory:');
  migrate(db);
  return { db, store: sqliteGoldenStore(db) };
}

describe('golden build state (SQLite)', () => {
  it('keeps seeds, candidates, the queue, builds and publications by id, per candidates dataset', async () => {
    const { store: s } = store();
    await s.startBuild({ buildId: 'b1', candidatesDataset: 'cands', planHash: 'h', startedAt: 1 });
    await s.finishBuild('b1', 'complete', { seeds: 3 }, 5);
    expect(await s.lastBuild('cands')).toEqual({
      buildId: 'b1',
      candidatesDataset: 'cands',
      planHash: 'h',
      startedAt: 1,
      finishedAt: 5,
      outcome: 'complete',
      counts: { seeds: 3 },
    });
    expect(await s.lastBuild('other')).toBeNull();

    const seed = {
      candidatesDataset: 'cands',
      seedKey: 'k1',
      stratum: 'multi-hop' as const,
      chunkIds: ['a', 'b'],
      stage: 'generated' as const,
      candidateIds: ['c1', 'c2'],
      lastError: null,
      attempts: 1,
      updatedAt: 2,
    };
    await s.putSeed(seed);
    await s.putSeed({ ...seed, stage: 'done', attempts: 2, updatedAt: 3 });
    expect(await s.seeds('cands')).toEqual([{ ...seed, stage: 'done', attempts: 2, updatedAt: 3 }]);
    expect(await s.seeds('other')).toEqual([]);

    const c = {
      candidatesDataset: 'cands',
      candidateId: 'c1',
      seedKey: 'k1',
      stratum: 'multi-hop' as const,
      contentHash: 'x',
      status: 'accepted' as const,
      reason: null,
      reviewTraceId: null,
      updatedAt: 3,
    };
    await s.putCandidates([c, { ...c, candidateId: 'c2', status: 'rejected', reason: 'trivial' }]);
    await s.putCandidates([{ ...c, reviewTraceId: 'f'.repeat(32) }]);
    expect((await s.candidates('cands')).map((r) => [r.candidateId, r.status, r.reason, r.reviewTraceId])).toEqual([
      ['c1', 'accepted', null, 'f'.repeat(32)],
      ['c2', 'rejected', 'trivial', null],
    ]);

    expect(await s.reviewQueue('cands')).toBeNull();
    await s.setReviewQueue('cands', 'q1', 4);
    await s.setReviewQueue('cands', 'q2', 5);
    expect(await s.reviewQueue('cands')).toBe('q2');

    const pub = {
      prefix: 'rag-golden',
      datasetName: 'rag-golden-v1',
      version: 1,
      candidatesDataset: 'cands',
      contentHash: 'h1',
      items: 10,
      publishedAt: 6,
    };
    await s.recordPublication(pub);
    await s.recordPublication({ ...pub, datasetName: 'rag-golden-v2', version: 2 });
    expect((await s.publications('rag-golden')).map((p) => p.datasetName)).toEqual(['rag-golden-v1', 'rag-golden-v2']);
  });

  it('refuses a stage or status outside its codes', async () => {
    const { store: s } = store();
    const seed = {
      candidatesDataset: 'c',
      seedKey: 'k',
      stratum: 'single-hop' as const,
      chunkIds: [],
      stage: 'weird' as never,
      candidateIds: [],
      lastError: null,
      attempts: 0,
      updatedAt: 0,
    };
    await expect(s.putSeed(seed)).rejects.toThrow(/CHECK constraint/);
  });
});
