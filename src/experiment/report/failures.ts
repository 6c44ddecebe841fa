/**
 * Failures per item, as the report lists them: a metric that failed after its retries, the RAG service that
 * could not answer the item, an abstention judgement or a noise-pass answer that failed. Each is that item's
 * failure only (its other metrics stand); the run stops only for an outage or when failed items exceed
 * `experiment.maxFailedShare`. Dev items are listed by id; items of other splits only counted (the Goodhart
 * guard).
 */
import type { ItemOutcome } from './build.js';
import type { FailureRow, FailureSummary } from './model.js';

export const RAG_SERVICE = 'rag_service';
export const ABSTENTION = 'abstention';
export const NOISE_PASS = 'noise_faithfulness';

/** What failed for one item, each with its failure kind (`connection`, `http_503`, `schema_mismatch`, …). */
export function itemFailures(o: ItemOutcome): Array<{ what: string; kind: string }> {
  const out: Array<{ what: string; kind: string }> = [];
  if (o.targetError !== undefined) out.push({ what: RAG_SERVICE, kind: o.targetErrorKind ?? 'error' });
  for (const r of o.results) if (r.status === 'failed') out.push({ what: r.metric, kind: failureKind(r) });
  if (o.abstentionFailure !== undefined) out.push({ what: ABSTENTION, kind: o.abstentionFailure });
  if (o.noiseFailure !== undefined) out.push({ what: NOISE_PASS, kind: o.noiseFailure });
  return out;
}

/** The kind of a failed metric result. */
export function failureKind(r: { kind: string }): string {
  return r.kind;
}

export function summarizeFailures(outcomes: readonly ItemOutcome[], maxShare: number): FailureSummary {
  const rows = new Map<string, FailureRow>();
  let items = 0;
  for (const o of outcomes) {
    const failures = itemFailures(o);
    if (failures.length > 0) items += 1;
    for (const f of failures) {
      const row = rows.get(f.what) ?? { what: f.what, count: 0, kinds: {}, devItems: [], otherItems: 0 };
      row.count += 1;
      row.kinds[f.kind] = (row.kinds[f.kind] ?? 0) + 1;
      if (o.split === 'dev') row.devItems.push(o.itemId);
      else row.otherItems += 1;
      rows.set(f.what, row);
    }
  }
  const sorted = [...rows.values()].sort((a, b) => b.count - a.count || (a.what < b.what ? -1 : 1));
  for (const row of sorted) {
    row.devItems.sort();
    row.kinds = Object.fromEntries(Object.entries(row.kinds).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
  return { items, share: outcomes.length === 0 ? 0 : items / outcomes.length, maxShare, rows: sorted };
}
