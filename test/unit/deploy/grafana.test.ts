import { describe, expect, it } from 'vitest';
import { metricNames } from './support/promql.js';
import { DASHBOARD_FILE, readText } from './support/paths.js';

interface Panel {
  id: number;
  type: string;
  title: string;
  description?: string;
  datasource?: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { expr: string; refId: string; datasource?: { uid: string } }[];
}
const dashboard = JSON.parse(readText(DASHBOARD_FILE)) as {
  uid: string;
  title: string;
  schemaVersion: number;
  templating: { list: { name: string; type: string; query?: string }[] };
  panels: Panel[];
};
const graphs = dashboard.panels.filter((p) => p.type !== 'row');
const exprs = graphs.flatMap((p) => (p.targets ?? []).map((t) => t.expr));

describe('deploy/grafana/ragwatch.json', () => {
  it('is an importable dashboard bound to a Prometheus data source variable', () => {
    expect(dashboard.uid).toBe('ragwatch');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const variable = dashboard.templating.list.find((v) => v.type === 'datasource');
    expect(variable?.query).toBe('prometheus');
    for (const p of graphs) {
      expect(p.datasource?.uid, p.title).toBe(`\${${variable?.name}}`);
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets ?? []) expect(t.datasource?.uid ?? p.datasource?.uid, p.title).toBe(p.datasource?.uid);
      expect(p.description, `${p.title} says what it shows`).toBeTruthy();
    }
  });

  it('has unique panel ids and a grid without overlaps', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const p of dashboard.panels) {
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
      for (let x = p.gridPos.x; x < p.gridPos.x + p.gridPos.w; x++) {
        for (let y = p.gridPos.y; y < p.gridPos.y + p.gridPos.h; y++) {
          const cell = `${x},${y}`;
          expect(cells.has(cell), `${p.title} overlaps at ${cell}`).toBe(false);
          cells.add(cell);
        }
      }
    }
  });

  it('shows what the issue asks for: scores, sampled vs listed, skips, judge latency and tokens, errors, golden set', () => {
    const uses = (name: string) => exprs.some((e) => metricNames(e).includes(name));
    expect(uses('rag_faithfulness_score') && uses('rag_answer_relevancy_score')).toBe(true);
    expect(uses('ragwatch_traces_listed_total') && uses('ragwatch_traces_sampled_total')).toBe(true);
    expect(exprs.some((e) => /by \(reason\)/.test(e) && metricNames(e).includes('ragwatch_traces_skipped_total'))).toBe(
      true,
    );
    expect(
      exprs.some(
        (e) =>
          e.startsWith('histogram_quantile(') &&
          metricNames(e).includes('ragwatch_judge_request_duration_seconds_bucket'),
      ),
    ).toBe(true);
    expect(uses('ragwatch_judge_tokens_total')).toBe(true);
    expect(uses('ragwatch_traces_failed_total') && uses('ragwatch_langfuse_requests_total')).toBe(true);
    expect(uses('rag_golden_score')).toBe(true);
  });

  it('reads the shared ledger gauge with max, exact while two replicas export it across a hand-over', () => {
    const ledger = exprs.filter((e) => metricNames(e).includes('ragwatch_ledger_entries'));
    expect(ledger.some((e) => e.includes('max by (status) (ragwatch_ledger_entries)'))).toBe(true);
    for (const e of ledger) expect(e).not.toMatch(/sum\b[^(]*\(\s*(max_over_time\()?ragwatch_ledger_entries/);
  });
});
