import { LangfuseClient } from '@langfuse/client';
import { GOLDEN_DATASET_NAME, seedGoldenDataset, type GoldenDatasetSummary } from './dataset.js';
import { emitDemoTraces, type Personality } from './emit/emit.js';
import { generateDemoTraces } from './generate.js';
import type { DemoKind, DemoShape, DemoTrace, DemoVariant } from './model.js';
import type { PiiKind } from './pii.js';
import type { DemoLanguage } from './types.js';

const PII_KINDS: PiiKind[] = ['person', 'email', 'phone', 'dni', 'nie', 'iban', 'card', 'address'];

export interface SeedDemoOptions {
  langfuseUrl: string;
  publicKey: string;
  secretKey: string;
  personality: Personality;
  seed?: number | string;
  /** Number of traces to generate (default 120). */
  count?: number;
  /** End of the window the traces are spread over: a date or an injected clock (default: the wall clock). */
  now?: Date | (() => number);
  windowMinutes?: number;
  /** Golden dataset name (default `rag-golden`); `false` skips the dataset. */
  dataset?: string | false;
  /** Read the traces back through the v2 observations API and report any missing (default true). */
  verify?: boolean;
}

export interface SeedDemoSummary {
  langfuseUrl: string;
  personality: Personality;
  seed: string;
  window: { from: Date; to: Date };
  /** Every generated trace, sent or not. */
  traces: DemoTrace[];
  /** Ids of the traces sent to Langfuse. */
  traceIds: string[];
  emitted: {
    total: number;
    byShape: Record<DemoShape, number>;
    byVariant: Partial<Record<DemoVariant, number>>;
    byLanguage: Record<DemoLanguage, number>;
    byKind: Record<DemoKind, number>;
    byEnvironment: Record<string, number>;
    withPii: number;
    /** Traces carrying each kind of personal data. */
    byPiiKind: Partial<Record<PiiKind, number>>;
  };
  skipped: Array<{ id: string; shape: DemoShape; reason: string }>;
  ingestionErrors: Array<{ id: string; traceId: string; status: number; message?: string }>;
  dataset: GoldenDatasetSummary | null;
  /** Present when `verify` is on: which sent traces are readable back from the server. */
  verified?: { found: number; missing: string[] };
}

function tally<K extends string>(
  traces: DemoTrace[],
  key: (t: DemoTrace) => K,
  keys: readonly K[] = [],
): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const t of traces) out[key(t)] = (out[key(t)] ?? 0) + 1;
  return out;
}

/** Trace ids readable through `GET /api/public/v2/observations` (served by both API generations). */
async function readBackTraceIds(client: LangfuseClient, from: Date, to: Date): Promise<Set<string>> {
  const found = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.api.observations.getMany({
      fromStartTime: from.toISOString(),
      toStartTime: to.toISOString(),
      limit: 1000,
      fields: 'core',
      ...(cursor ? { cursor } : {}),
    });
    for (const o of page.data) found.add(o.traceId ?? '');
    cursor = page.meta.cursor ?? undefined;
  } while (cursor);
  return found;
}

/**
 * Fills a Langfuse server with the demo: `count` support-assistant traces emitted through the real SDKs
 * in four integration shapes, plus the golden dataset. Used by `ragwatch demo` and by tests of other
 * areas that need realistic data behind a Langfuse URL.
 */
export async function seedDemo(options: SeedDemoOptions): Promise<SeedDemoSummary> {
  const seed = String(options.seed ?? 42);
  const nowMs =
    options.now === undefined ? Date.now() : typeof options.now === 'function' ? options.now() : options.now.getTime();
  const windowMinutes = options.windowMinutes ?? 60;
  const traces = generateDemoTraces({ seed, count: options.count ?? 120, now: new Date(nowMs), windowMinutes });
  const credentials = { publicKey: options.publicKey, secretKey: options.secretKey };
  const outcome = await emitDemoTraces(traces, {
    langfuseUrl: options.langfuseUrl,
    personality: options.personality,
    ...credentials,
  });
  const client = new LangfuseClient({ baseUrl: options.langfuseUrl.replace(/\/+$/, ''), ...credentials });
  const dataset =
    options.dataset === false
      ? null
      : await seedGoldenDataset(client, { name: options.dataset ?? GOLDEN_DATASET_NAME });
  const window = { from: new Date(nowMs - windowMinutes * 60_000), to: new Date(nowMs) };
  const sent = outcome.emitted;
  const summary: SeedDemoSummary = {
    langfuseUrl: options.langfuseUrl,
    personality: options.personality,
    seed,
    window,
    traces,
    traceIds: sent.map((t) => t.id),
    emitted: {
      total: sent.length,
      byShape: tally(sent, (t) => t.shape, ['langchain', 'openai', 'tracing', 'ingestion']),
      byVariant: tally(sent, (t) => t.variant),
      byLanguage: tally(sent, (t) => t.language, ['es', 'en']),
      byKind: tally(sent, (t) => t.kind, ['rag', 'no-retrieval', 'empty-context', 'non-rag']),
      byEnvironment: tally(sent, (t) => t.environment ?? 'default', ['default']),
      withPii: sent.filter((t) => t.pii.length > 0).length,
      byPiiKind: Object.fromEntries(
        PII_KINDS.map((k) => [k, sent.filter((t) => t.pii.includes(k)).length]).filter(([, n]) => Number(n) > 0),
      ),
    },
    skipped: outcome.skipped,
    ingestionErrors: outcome.ingestionErrors,
    dataset,
  };
  if (options.verify !== false) {
    const found = await readBackTraceIds(client, window.from, new Date(nowMs + 1));
    const missing = summary.traceIds.filter((id) => !found.has(id));
    summary.verified = { found: summary.traceIds.length - missing.length, missing };
  }
  return summary;
}
