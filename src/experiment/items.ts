import type { RagwatchConfig } from '../config/index.js';
import { evaluatePath, parsePath, answerFrom } from '../extract/index.js';
import { getDataset, listDatasetItems, type Dataset, type DatasetItem, type LangfuseHttp } from '../langfuse/index.js';
import type { Logger } from '../runtime/index.js';
import { ExperimentInputError } from './errors.js';
import type { SplitFilter } from './report/model.js';

/** One golden-set question as the experiment uses it. */
export interface GoldenItem {
  id: string;
  question: string;
  /** The expected answer; null when the item has none (context recall and precision are then not scorable). */
  reference: string | null;
  /** From metadata `experiment.strataKey` (`single-hop`, `multi-hop`, `adversarial`…), `unknown` when absent. */
  stratum: string;
  /** From metadata `experiment.splitKey`: `dev`, `test`, or `unknown`. */
  split: string;
  /** Judged on abstention instead of the metrics (stratum in `experiment.adversarialStrata`). */
  adversarial: boolean;
  /** The dataset item as read, for replay mode and the experiment spans. */
  raw: DatasetItem;
}

export type ItemMapping = Pick<
  RagwatchConfig['experiment'],
  'questionPath' | 'referencePath' | 'strataKey' | 'splitKey' | 'adversarialStrata'
>;

export type ItemReading = { ok: true; item: GoldenItem } | { ok: false; itemId: string; reason: string };

/** Maps a dataset item; an item without a question cannot be run and is reported, not guessed. */
export function readGoldenItem(raw: DatasetItem, mapping: ItemMapping): ItemReading {
  const question = textAt(raw.input, mapping.questionPath);
  if (!question) return { ok: false, itemId: raw.id, reason: `no question at input.${mapping.questionPath}` };
  const metadata = raw.metadata && typeof raw.metadata === 'object' ? (raw.metadata as Record<string, unknown>) : {};
  const stratum = label(metadata[mapping.strataKey]) ?? 'unknown';
  const split = label(metadata[mapping.splitKey])?.toLowerCase() ?? 'unknown';
  return {
    ok: true,
    item: {
      id: raw.id,
      question,
      reference: textAt(raw.expectedOutput, mapping.referencePath),
      stratum,
      split,
      adversarial: mapping.adversarialStrata.includes(stratum),
      raw,
    },
  };
}

/** A plain string is the text itself; otherwise the value at `path` (answer-like objects are unwrapped). */
export function textAt(value: unknown, path: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() || null;
  let found: unknown[];
  try {
    found = evaluatePath(value, parsePath(path));
  } catch {
    return null;
  }
  for (const v of found) {
    const text = answerFrom(v);
    if (text) return text;
  }
  return null;
}

function label(value: unknown): string | null {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

export function inSplit(item: Pick<GoldenItem, 'split'>, split: SplitFilter): boolean {
  return split === 'all' || item.split === split;
}

export interface LoadedItems {
  items: GoldenItem[];
  /** Items of the dataset that could not be read (no question). */
  unreadable: Array<{ itemId: string; reason: string }>;
  /** Active items in the dataset before the split filter. */
  total: number;
}

/** Every active item of the dataset (all pages), mapped and filtered to `split`, in ID order. */
export async function loadGoldenItems(
  http: LangfuseHttp,
  datasetName: string,
  mapping: ItemMapping,
  split: SplitFilter,
  signal?: AbortSignal,
): Promise<LoadedItems> {
  const items: GoldenItem[] = [];
  const unreadable: LoadedItems['unreadable'] = [];
  let total = 0;
  for await (const raw of listDatasetItems(http, datasetName, { signal })) {
    total++;
    const reading = readGoldenItem(raw, mapping);
    if (!reading.ok) unreadable.push({ itemId: reading.itemId, reason: reading.reason });
    else if (inSplit(reading.item, split)) items.push(reading.item);
  }
  items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { items, unreadable, total };
}

export interface ItemSelection extends LoadedItems {
  dataset: Dataset;
  split: SplitFilter;
}

/**
 * The run's items: the dataset's active items in `split`. An unknown dataset or nothing to run is bad input
 * (`ExperimentInputError`); items without a question are logged and reported, not run.
 */
export async function selectItems(
  http: LangfuseHttp,
  request: { dataset: string; split: SplitFilter; mapping: ItemMapping },
  logger: Logger,
  signal: AbortSignal,
): Promise<ItemSelection> {
  const { dataset: name, split, mapping } = request;
  const dataset = await getDataset(http, name, signal);
  if (!dataset) {
    throw new ExperimentInputError([`experiment: dataset "${name}" does not exist in Langfuse at ${http.baseUrl}`]);
  }
  const loaded = await loadGoldenItems(http, name, mapping, split, signal);
  for (const u of loaded.unreadable) logger.warn({ itemId: u.itemId, reason: u.reason }, 'dataset item skipped');
  if (loaded.items.length === 0) {
    const why =
      loaded.total === 0
        ? 'has no active items'
        : `has no readable items in split "${split}" (${loaded.total} active items, ` +
          `${loaded.unreadable.length} without a question at input.${mapping.questionPath})`;
    throw new ExperimentInputError([`experiment: dataset "${name}" ${why}`]);
  }
  return { ...loaded, dataset, split };
}
