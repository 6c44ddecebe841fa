/** Aggregates `ragwatch evaluate` results per metric and renders the summary table. */
import type { MetricName, MetricResult } from '../types.js';

export interface MetricSummary {
  metric: MetricName;
  mean: number | null;
  scored: number;
  notScorable: number;
  failed: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  embeddingRequests: number;
}

export function summarise(metrics: readonly MetricName[], results: readonly MetricResult[][]): MetricSummary[] {
  return metrics.map((metric) => {
    const s: MetricSummary = {
      metric,
      mean: null,
      scored: 0,
      notScorable: 0,
      failed: 0,
      calls: 0,
      promptTokens: 0,
      completionTokens: 0,
      embeddingRequests: 0,
    };
    let sum = 0;
    for (const row of results) {
      const r = row.find((x) => x.metric === metric);
      if (r === undefined) continue;
      if (r.status === 'scored') {
        s.scored += 1;
        sum += r.value;
      } else if (r.status === 'not_scorable') s.notScorable += 1;
      else s.failed += 1;
      s.calls += r.usage?.calls ?? 0;
      s.promptTokens += r.usage?.promptTokens ?? 0;
      s.completionTokens += r.usage?.completionTokens ?? 0;
      s.embeddingRequests += r.usage?.embeddingRequests ?? 0;
    }
    s.mean = s.scored === 0 ? null : sum / s.scored;
    return s;
  });
}

export function renderSummary(
  rows: readonly MetricSummary[],
  extra: { samples: number; malformed: number; piiBlocked: number },
): string {
  const header = [
    'metric',
    'mean',
    'scored',
    'not_scorable',
    'failed',
    'calls',
    'prompt_tok',
    'compl_tok',
    'embed_req',
  ];
  const body = rows.map((r) => [
    r.metric,
    r.mean === null ? '-' : r.mean.toFixed(3),
    String(r.scored),
    String(r.notScorable),
    String(r.failed),
    String(r.calls),
    String(r.promptTokens),
    String(r.completionTokens),
    String(r.embeddingRequests),
  ]);
  const total = rows.reduce(
    (t, r) => ({
      calls: t.calls + r.calls,
      prompt: t.prompt + r.promptTokens,
      compl: t.compl + r.completionTokens,
      emb: t.emb + r.embeddingRequests,
    }),
    { calls: 0, prompt: 0, compl: 0, emb: 0 },
  );
  body.push([
    'total',
    '',
    '',
    '',
    '',
    String(total.calls),
    String(total.prompt),
    String(total.compl),
    String(total.emb),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const fmt = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const lines = [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(fmt)];
  const notes = [`${extra.samples} sample${extra.samples === 1 ? '' : 's'} evaluated`];
  if (extra.piiBlocked > 0) notes.push(`${extra.piiBlocked} kept from the judge (pii_residual)`);
  if (extra.malformed > 0) notes.push(`${extra.malformed} malformed line${extra.malformed === 1 ? '' : 's'} skipped`);
  return `${lines.join('\n')}\n${notes.join('; ')}\n`;
}
