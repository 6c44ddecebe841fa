import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGoldenHarness, type GoldenHarness } from './harness.js';

/**
 * Issue 30, part 1: v1 from a corpus, then v2 after one seed chunk's text changed. Items whose chunks did not change
 * keep their ids, strata and splits; the changed chunk's items are regenerated and `golden diff` lists them as
 * changed (reason `regenerated`, with the id they had), not as removed and added.
 */

let h: GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Meta = { golden_id: string; type: string; split: string; source_chunks: string[]; lineage?: string };
const meta = (item: { metadata: unknown }) => item.metadata as Meta;

async function changeChunk(dir: string, id: string): Promise<void> {
  for (const file of await readdir(dir)) {
    const path = join(dir, file);
    const lines = (await readFile(path, 'utf8')).split('\n');
    const at = lines.findIndex((l) => l.includes(`"id":"${id}"`));
    if (at < 0) continue;
    const row = JSON.parse(lines[at]!) as { text: string };
    row.text = `${row.text} This paragraph was revised in the second edition of the documentation.`;
    lines[at] = JSON.stringify(row);
    await writeFile(path, lines.join('\n'));
    return;
  }
  throw new Error(`chunk ${id} not found`);
}

describe.each(['v3', 'v4'] as const)('golden set versions on Langfuse %s', (personality) => {
  it('a changed chunk regenerates its items only; golden diff reports them as changed, the rest keep their ids', async () => {
    h = await startGoldenHarness(personality, { yaml: 'golden: {seeds: {min: 12}, review: {share: 0}}' });
    expect((await h.cli('golden', 'build', '--corpus', 'corpus')).code).toBe(0);
    const first = await h.cli('golden', 'review', '--apply', '--unreviewed', '--json');
    expect(first.code, first.stderr).toBe(0);
    const v1 = h.langfuse.store.datasetItems('rag-golden-v1').filter((i) => i.status === 'ACTIVE');
    expect(v1.length).toBeGreaterThan(6);
    for (const item of v1) expect(meta(item).lineage).toMatch(/^[0-9a-f]{24}$/);

    const target = v1.find((i) => meta(i).type === 'single-hop')!;
    const chunkId = meta(target).source_chunks[0]!;
    await changeChunk(join(h.dir, 'corpus'), chunkId);
    const rebuilt = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const second = await h.cli('golden', 'review', '--apply', '--unreviewed', '--json');
    expect(second.code, second.stderr).toBe(0);
    const v2 = h.langfuse.store.datasetItems('rag-golden-v2').filter((i) => i.status === 'ACTIVE');

    // Every item whose chunks did not change keeps its id, stratum and split.
    const after = new Map(v2.map((i) => [meta(i).golden_id, meta(i)]));
    const untouched = v1.filter((i) => !meta(i).source_chunks.includes(chunkId));
    for (const item of untouched) {
      expect(after.get(meta(item).golden_id), meta(item).golden_id).toMatchObject({
        type: meta(item).type,
        split: meta(item).split,
      });
    }

    const diff = await h.cli('golden', 'diff', '--json');
    expect(diff.code, diff.stderr).toBe(0);
    const d = JSON.parse(diff.stdout) as {
      changed: Array<{ goldenId: string; previousId?: string; reason: string }>;
      removed: Array<{ goldenId: string }>;
      added: Array<{ goldenId: string }>;
    };
    const regenerated = d.changed.filter((c) => c.reason === 'chunk_changed');
    expect(regenerated.map((c) => c.previousId)).toContain(meta(target).golden_id);
    for (const c of regenerated) expect(after.has(c.goldenId)).toBe(true);
    expect(d.removed.map((r) => r.goldenId)).not.toContain(meta(target).golden_id);
    const text = await h.cli('golden', 'diff');
    expect(text.stdout).toContain(`(regenerated: a chunk it was built from changed; was ${meta(target).golden_id})`);
    expect(h.violations).toEqual([]);
  }, 120_000);
});
