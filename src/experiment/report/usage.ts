import { costOf, type Pricing } from '../../judge/index.js';
import type { MetricName, MetricResult } from '../../metrics/index.js';

/** What one metric's judge work came to over a run: every result's calls and tokens, retries included. */
export interface UsageRow {
  /** A metric, or `total`. */
  what: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  embeddingTokens: number;
  /** In `UsageSummary.currency`; null without `judge.pricing`. */
  cost: number | null;
}

export interface UsageSummary {
  /** `judge.pricing.currency`; null without a pricing (tokens only). */
  currency: string | null;
  perMetric: UsageRow[];
  total: UsageRow;
  /** Items whose metrics ran. */
  items: number;
  /** `total.cost / items`. */
  costPerItem: number | null;
}

/** The metric results' usage summed per metric and in all, priced when a pricing is given. */
export function usageSummary(
  outcomes: ReadonlyArray<{ results: readonly MetricResult[] }>,
  metrics: readonly MetricName[],
  pricing: Pricing | undefined,
): UsageSummary {
  const empty = (what: string): UsageRow => ({
    what,
    calls: 0,
    promptTokens: 0,
    completionTokens: 0,
    embeddingTokens: 0,
    cost: null,
  });
  const rows = new Map(metrics.map((m) => [m as string, empty(m)]));
  let items = 0;
  for (const o of outcomes) {
    if (o.results.length > 0) items += 1;
    for (const r of o.results) {
      const row = rows.get(r.metric);
      if (!row || !r.usage) continue;
      row.calls += r.usage.calls;
      row.promptTokens += r.usage.promptTokens;
      row.completionTokens += r.usage.completionTokens;
      row.embeddingTokens += r.usage.embeddingTokens ?? 0;
    }
  }
  const total = empty('total');
  for (const row of rows.values()) {
    total.calls += row.calls;
    total.promptTokens += row.promptTokens;
    total.completionTokens += row.completionTokens;
    total.embeddingTokens += row.embeddingTokens;
  }
  const priced = (row: UsageRow): UsageRow => (pricing ? { ...row, cost: costOf(row, pricing) } : row);
  const pricedTotal = priced(total);
  return {
    currency: pricing?.currency ?? null,
    perMetric: [...rows.values()].map(priced),
    total: pricedTotal,
    items,
    costPerItem: pricedTotal.cost !== null && items > 0 ? pricedTotal.cost / items : null,
  };
}
