import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExposition, type ExportedFamily } from '../../unit/deploy/support/exposition.js';
import { readObjects } from '../../unit/deploy/support/k8s.js';
import {
  ALERTS_FILE,
  DASHBOARD_FILE,
  PROMETHEUS_RULE_FILE,
  readText,
  readYaml,
  type RuleFile,
} from '../../unit/deploy/support/paths.js';
import { metricUses, type MetricUse } from '../../unit/deploy/support/promql.js';
import { startLiveDaemon, type LiveDaemon } from './live-daemon.js';

/**
 * Every metric the alert rules and the dashboard name must be one a running ragwatch exports: the real
 * daemon runs a tick against the devkit stand-ins, /metrics is scraped, and every selector of
 * deploy/prometheus/alerts.yaml, the k8s PrometheusRule and deploy/grafana/ragwatch.json is checked, with
 * the labels of its matchers, as Prometheus stores them (target labels job and instance added, a
 * conflicting exported `job` renamed exported_job).
 */

const TARGET_LABELS = new Set(['job', 'instance']);

interface Use extends MetricUse {
  where: string;
}

function ruleUses(file: string, groups: RuleFile['groups']): Use[] {
  return groups.flatMap((g) =>
    g.rules.flatMap((r) => metricUses(r.expr).map((u) => ({ ...u, where: `${file}: ${r.alert ?? r.record}` }))),
  );
}

function queryUses(): Use[] {
  const [rule] = readObjects(PROMETHEUS_RULE_FILE) as unknown as { spec: RuleFile }[];
  const dashboard = JSON.parse(readText(DASHBOARD_FILE)) as {
    panels: { title: string; targets?: { expr: string }[] }[];
  };
  return [
    ...ruleUses('alerts.yaml', readYaml<RuleFile>(ALERTS_FILE).groups),
    ...ruleUses('prometheusrule.yaml', rule!.spec.groups),
    ...dashboard.panels.flatMap((p) =>
      (p.targets ?? []).flatMap((t) => metricUses(t.expr).map((u) => ({ ...u, where: `ragwatch.json: ${p.title}` }))),
    ),
  ];
}

/** Label names a query can match on a family once Prometheus has scraped it. */
function storedLabels(family: ExportedFamily): Set<string> {
  const out = new Set(TARGET_LABELS);
  for (const l of family.labels) out.add(TARGET_LABELS.has(l) ? `exported_${l}` : l);
  return out;
}

let daemon: LiveDaemon | undefined;
let exported: Map<string, ExportedFamily>;

beforeAll(async () => {
  // The experiment's gauges are exported only once a golden-set run has set them (never-set gauges would
  // read 0); here the state file holds those of an earlier weekly run, which the daemon restores.
  const persistedGauges = {
    rag_golden_gate_passed: 1,
    rag_golden_gate_inconclusive: 0,
    rag_golden_last_run_timestamp_seconds: Math.floor(Date.now() / 1000) - 3600,
    'rag_golden_score{metric="faithfulness",split="test"}': 0.91,
    // and the judge's calibration of that run: agreement with people, drift on the anchors, their bars.
    'rag_judge_human_agreement{metric="faithfulness"}': 0.62,
    rag_judge_human_agreement_floor: 0.4,
    'rag_judge_drift{metric="faithfulness"}': 0.012,
    rag_judge_drift_tolerance: 0.03,
  };
  daemon = await startLiveDaemon({ traces: 24, seed: 'crosscheck', persistedGauges });
  exported = parseExposition(daemon.metrics);
}, 180_000);

afterAll(() => daemon?.stop(), 60_000);

describe('metrics named by the alerts and the dashboard', () => {
  const uses = queryUses();

  it('reads selectors from every alert rule, the PrometheusRule and every dashboard panel', () => {
    expect(new Set(uses.map((u) => u.where.split(':')[0])).size).toBe(3);
    expect(uses.length).toBeGreaterThan(20);
  });

  it('are all exported by a running ragwatch', () => {
    const missing = uses.filter((u) => !exported.has(u.name));
    expect(missing.map((u) => `${u.where}: ${u.name}`)).toEqual([]);
  });

  it('match on labels those metrics carry', () => {
    const wrong: string[] = [];
    for (const u of uses) {
      const family = exported.get(u.name);
      if (!family) continue;
      const stored = storedLabels(family);
      for (const label of u.labels) {
        if (stored.has(label)) continue;
        wrong.push(
          family.samples === 0
            ? `${u.where}: ${u.name}{${label}}: no series after a tick to check the label against`
            : `${u.where}: ${u.name}{${label}}: labels are ${[...stored].join(', ')}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  });

  it('include the score gauges of the first seed’s alert, with values in [0, 1]', () => {
    for (const name of ['rag_faithfulness_score', 'rag_answer_relevancy_score'])
      expect(exported.get(name)?.type).toBe('gauge');
  });
});
