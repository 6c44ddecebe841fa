import BetterSqlite3 from 'better-sqlite3';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGoldenHarness, type GoldenHarness } from './harness.js';

/**
 * Issue 30, part 3 ("nothing twice, nothing empty"): a build that has finished sends nothing on a rerun (the
 * accepted questions' embeddings are in the state store, by hash), and a corpus with no chunk that may seed a
 * question creates nothing in Langfuse.
 */

let h: GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const datasetCreations = (h: GoldenHarness) =>
  h.exchanges.filter((e) => e.method === 'POST' && e.path === '/api/public/v2/datasets').length;

describe.each(['v3', 'v4'] as const)('golden build run again on Langfuse %s', (personality) => {
  it('after a finished build: no judge, generator or embeddings request, no dataset created again', async () => {
    h = await startGoldenHarness(personality, { yaml: 'golden: {seeds: {min: 12}}' });
    const first = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(first.code, first.stderr).toBe(0);
    const built = JSON.parse(first.stdout);
    expect(built.complete).toBe(true);
    expect(built.cost.embeddings.requests).toBeGreaterThan(0);
    expect(datasetCreations(h)).toBe(1);
    const db = new BetterSqlite3(join(h.dir, 'state.db'), { readonly: true });
    const kept = (db.prepare('SELECT COUNT(*) AS n FROM golden_question_vectors').get() as { n: number }).n;
    db.close();
    expect(kept).toBeGreaterThan(0);

    const requests = h.judge.requests.length;
    const embeddings = h.judge.requests.filter((r) => r.path.endsWith('/embeddings')).length;
    expect(embeddings).toBeGreaterThan(0);
    const again = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(again.code, again.stderr).toBe(0);
    const rerun = JSON.parse(again.stdout);
    expect(rerun.complete).toBe(true);
    expect(rerun.resume).toEqual({ done: 12, generated: 0, pending: 0 });
    expect(h.judge.requests.length - requests).toBe(0);
    expect(rerun.cost.embeddings.requests).toBe(0);
    expect(rerun.cost.generator.calls + rerun.cost.judge.calls).toBe(0);
    expect(rerun.duplicates).toBe(0);
    expect(datasetCreations(h)).toBe(1);
    expect(h.violations).toEqual([]);
  }, 60_000);
});

describe('golden build on a corpus whose every chunk carries personal data', () => {
  it('exits 2 before creating anything in Langfuse, with a short account instead of the whole plan', async () => {
    h = await startGoldenHarness('v4', { corpus: false });
    await mkdir(join(h.dir, 'people'));
    const lines = Array.from({ length: 6 }, (_, i) =>
      JSON.stringify({
        id: `contact-${i}`,
        text: `Para cambiar la dirección de envío escriba a ana.garcia${i}@example.com o llame al 612 34 56 7${i}; el equipo de soporte responde en un día laborable y confirma el cambio por correo electrónico.`,
        metadata: { section: `s${i % 3}` },
      }),
    );
    await writeFile(join(h.dir, 'people', 'contacts.jsonl'), `${lines.join('\n')}\n`);
    const before = h.exchanges.length;

    for (const dryRun of [[], ['--dry-run']]) {
      const run = await h.cli('golden', 'build', '--corpus', 'people', ...dryRun);
      expect(run.code, run.stderr).toBe(2);
      const out = `${run.stdout}${run.stderr}`;
      expect(out).toMatch(/no chunk can seed a question/);
      expect(out).toMatch(/6 with personal data/);
      expect(out).not.toMatch(/strata|seeds by stratum|questions:/i);
      expect(out).not.toMatch(/ana\.garcia|612 34/);
      expect(out.split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(4);
    }
    const writes = h.exchanges.slice(before).filter((e) => e.method !== 'GET');
    expect(writes.map((e) => `${e.method} ${e.path}`)).toEqual([]);
    expect(h.langfuse.store.datasetItems('rag-golden-candidates')).toHaveLength(0);
    expect(h.judge.requests).toHaveLength(0);
  }, 60_000);
});
