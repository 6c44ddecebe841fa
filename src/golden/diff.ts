import type { GoldenItemView } from './items.js';

/** Two versions of the golden set compared item by item (matched on the item's golden id). Pure. */

export interface GoldenDiff {
  from: string;
  to: string;
  /** A version published with `--unreviewed`, before anyone reviewed a candidate. */
  fromPublishedWithoutReview: boolean;
  toPublishedWithoutReview: boolean;
  added: GoldenItemView[];
  removed: GoldenItemView[];
  changed: Array<{ goldenId: string; fields: Array<'question' | 'reference' | 'stratum'> }>;
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
  for (const [id, item] of b) if (!a.has(id)) diff.added.push(item);
  for (const [id, item] of a) if (!b.has(id)) diff.removed.push(item);
  for (const [id, before] of a) {
    const after = b.get(id);
    if (!after) continue;
    const fields = (['question', 'reference', 'stratum'] as const).filter((f) => before[f] !== after[f]);
    if (fields.length > 0) diff.changed.push({ goldenId: id, fields });
    if (before.split !== after.split) diff.splitMoves.push({ goldenId: id, from: before.split, to: after.split });
    if (fields.length === 0 && before.split === after.split) diff.unchanged += 1;
  }
  diff.added.sort(byId);
  diff.removed.sort(byId);
  diff.changed.sort((x, y) => (x.goldenId < y.goldenId ? -1 : 1));
  diff.splitMoves.sort((x, y) => (x.goldenId < y.goldenId ? -1 : 1));
  return diff;
}
