import type { GoldenItemView } from './items.js';

/**
 * Two versions of the golden set compared item by item: matched on the item's golden id, then, for an item of one
 * version only, on its lineage (seed chunk and stratum): the same lineage under a new golden id
 * is an item regenerated because its seed's chunks or generation changed, reported as changed, not as one removed
 * and one added. Pure.
 */

export interface ChangedItem {
  goldenId: string;
  /** The golden id in the older version, when it was regenerated under a new one. */
  previousId?: string;
  fields: Array<'question' | 'reference' | 'stratum'>;
  /**
   * `edited`: same golden id, texts differ. Same lineage under a new golden id: `chunk_changed` (the text of a
   * chunk it was built from changed), `generation_changed` (the same chunks, the generation settings changed), or
   * `regenerated` (an item without the chunks' hashes: either).
   */
  reason: 'edited' | 'chunk_changed' | 'generation_changed' | 'regenerated';
}

export interface GoldenDiff {
  from: string;
  to: string;
  /** A version published with `--unreviewed`, before anyone reviewed a candidate. */
  fromPublishedWithoutReview: boolean;
  toPublishedWithoutReview: boolean;
  added: GoldenItemView[];
  removed: GoldenItemView[];
  changed: ChangedItem[];
  splitMoves: Array<{ goldenId: string; from: string; to: string }>;
  unchanged: number;
}

export function diffVersions(
  from: { name: string; items: readonly GoldenItemView[] },
  to: { name: string; items: readonly GoldenItemView[] },
): GoldenDiff {
  const active = (items: readonly GoldenItemView[]) =>
    new Map(items.filter((i) => i.active).map((i) => [i.goldenId, i]));
  const a = active(from.items);
  const b = active(to.items);
  const byId = (x: GoldenItemView, y: GoldenItemView) =>
    x.goldenId < y.goldenId ? -1 : x.goldenId > y.goldenId ? 1 : 0;
  const diff: GoldenDiff = {
    from: from.name,
    to: to.name,
    fromPublishedWithoutReview: [...a.values()].some((i) => i.publishedWithoutReview),
    toPublishedWithoutReview: [...b.values()].some((i) => i.publishedWithoutReview),
    added: [],
    removed: [],
    changed: [],
    splitMoves: [],
    unchanged: 0,
  };
  const fieldsOf = (x: GoldenItemView, y: GoldenItemView) =>
    (['question', 'reference', 'stratum'] as const).filter((f) => x[f] !== y[f]);
  const newOnly = [...b.values()].filter((i) => !a.has(i.goldenId));
  // The questions of one seed share a lineage: the old ones pair with the new ones in id order, one to one.
  const byLineage = new Map<string, GoldenItemView[]>();
  for (const i of newOnly.filter((x) => x.lineage !== null).sort(byId)) {
    const list = byLineage.get(i.lineage!) ?? [];
    byLineage.set(i.lineage!, [...list, i]);
  }
  const paired = new Set<string>();
  for (const before of [...a.values()].sort(byId)) {
    const id = before.goldenId;
    if (b.has(id)) continue;
    const after = before.lineage === null ? undefined : byLineage.get(before.lineage)?.shift();
    if (!after) {
      diff.removed.push(before);
      continue;
    }
    paired.add(after.goldenId);
    diff.changed.push({
      goldenId: after.goldenId,
      previousId: id,
      fields: fieldsOf(before, after),
      reason: regeneration(before, after),
    });
    if (before.split !== after.split)
      diff.splitMoves.push({ goldenId: after.goldenId, from: before.split, to: after.split });
  }
  for (const item of newOnly) if (!paired.has(item.goldenId)) diff.added.push(item);
  for (const [id, before] of a) {
    const after = b.get(id);
    if (!after) continue;
    const fields = fieldsOf(before, after);
    if (fields.length > 0) diff.changed.push({ goldenId: id, fields, reason: 'edited' });
    if (before.split !== after.split) diff.splitMoves.push({ goldenId: id, from: before.split, to: after.split });
    if (fields.length === 0 && before.split === after.split) diff.unchanged += 1;
  }
  diff.added.sort(byId);
  diff.removed.sort(byId);
  diff.changed.sort((x, y) => (x.goldenId < y.goldenId ? -1 : 1));
  diff.splitMoves.sort((x, y) => (x.goldenId < y.goldenId ? -1 : 1));
  return diff;
}

function regeneration(before: GoldenItemView, after: GoldenItemView): ChangedItem['reason'] {
  if (before.sourceHashes.length === 0 || after.sourceHashes.length === 0) return 'regenerated';
  const same =
    before.sourceHashes.length === after.sourceHashes.length &&
    before.sourceHashes.every((h, i) => after.sourceHashes[i] === h);
  return same ? 'generation_changed' : 'chunk_changed';
}
