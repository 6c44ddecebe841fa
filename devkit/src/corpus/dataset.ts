import type { LangfuseClient } from '@langfuse/client';
import { GOLDEN_ITEMS } from './knowledge.js';
import type { GoldenItem } from './types.js';

/** Default golden dataset name; matches `experiment.dataset` in the configuration. */
export const GOLDEN_DATASET_NAME = 'rag-golden';

export interface GoldenDatasetSummary {
  name: string;
  items: number;
  byType: Record<GoldenItem['type'], number>;
  bySplit: Record<GoldenItem['split'], number>;
  byLanguage: Record<GoldenItem['lang'], number>;
}

/** The body of one dataset item: `{ question }` in, the reference answer out, strata in metadata. */
export function datasetItemFor(item: GoldenItem, datasetName: string) {
  return {
    datasetName,
    id: item.id,
    input: { question: item.question },
    expectedOutput: item.reference,
    metadata: { type: item.type, split: item.split, language: item.lang, sources: item.sources },
  };
}

export function summarizeGolden(items: readonly GoldenItem[], name: string): GoldenDatasetSummary {
  const count = <K extends string>(key: (i: GoldenItem) => K, keys: K[]) =>
    Object.fromEntries(keys.map((k) => [k, items.filter((i) => key(i) === k).length])) as Record<K, number>;
  return {
    name,
    items: items.length,
    byType: count((i) => i.type, ['single-hop', 'multi-hop', 'adversarial']),
    bySplit: count((i) => i.split, ['dev', 'test']),
    byLanguage: count((i) => i.lang, ['es', 'en']),
  };
}

/**
 * Creates (or updates: Langfuse upserts datasets on name and items on id) the golden dataset through the
 * public API, the way a team curates one with `@langfuse/client`.
 */
export async function seedGoldenDataset(
  client: LangfuseClient,
  options: { name?: string; items?: readonly GoldenItem[]; concurrency?: number } = {},
): Promise<GoldenDatasetSummary> {
  const name = options.name ?? GOLDEN_DATASET_NAME;
  const items = options.items ?? GOLDEN_ITEMS;
  await client.api.datasets.create({
    name,
    description:
      'Golden set of the Lumora support assistant: single-hop, multi-hop and adversarial questions (ES/EN) with reference answers.',
    metadata: { owner: 'ragwatch-demo', strata: 'type', splits: ['dev', 'test'] },
  });
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift())
      await client.api.datasetItems.create(datasetItemFor(item, name));
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return summarizeGolden(items, name);
}
