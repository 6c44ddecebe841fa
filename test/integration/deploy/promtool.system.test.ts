import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { readObjects } from '../../unit/deploy/support/k8s.js';
import { substituteGrafanaVariables } from '../../unit/deploy/support/promql.js';
import {
  ALERTS_FILE,
  DASHBOARD_FILE,
  DEPLOY,
  PROMETHEUS_RULE_FILE,
  readText,
  readYaml,
  type RuleFile,
} from '../../unit/deploy/support/paths.js';
import { runTool } from './tools.js';

const work = mkdtempSync(join(tmpdir(), 'ragwatch-promtool-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const promtool = (...args: string[]) => runTool('promtool', args, { cwd: work, debianPackage: 'prometheus' });

describe('promtool', () => {
  it('accepts deploy/prometheus/alerts.yaml', () => {
    const res = promtool('check', 'rules', ALERTS_FILE);
    expect(res.stdout + res.stderr).toMatch(/SUCCESS: \d+ rules found/);
    expect(res.status).toBe(0);
    const rules = readYaml<RuleFile>(ALERTS_FILE).groups.flatMap((g) => g.rules);
    expect(res.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
  });

  it('passes the alert unit tests (each alert fires when it should and stays quiet otherwise)', () => {
    const res = promtool('test', 'rules', join(DEPLOY, 'prometheus', 'alerts.test.yaml'));
    expect(res.stdout + res.stderr).toMatch(/SUCCESS/);
    expect(res.status).toBe(0);
    // Every alert has at least one test that expects it to fire.
    const tests = readYaml<{ tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[] }>(
      join(DEPLOY, 'prometheus', 'alerts.test.yaml'),
    );
    const fired = new Set(
      tests.tests.flatMap((t) =>
        (t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname),
      ),
    );
    const alerts = readYaml<RuleFile>(ALERTS_FILE).groups.flatMap((g) => g.rules.map((r) => r.alert));
    expect([...fired].sort()).toEqual([...alerts].sort());
  });

  it('accepts the PrometheusRule’s groups as a rule file', () => {
    const [rule] = readObjects(PROMETHEUS_RULE_FILE) as unknown as { spec: RuleFile }[];
    const file = join(work, 'prometheusrule-groups.yaml');
    writeFileSync(file, stringify(rule!.spec));
    const res = promtool('check', 'rules', file);
    expect(res.stdout + res.stderr).toMatch(/SUCCESS/);
    expect(res.status).toBe(0);
  });

  it('parses every dashboard query (as recording rules)', () => {
    const dashboard = JSON.parse(readText(DASHBOARD_FILE)) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    const rules = dashboard.panels.flatMap((p, i) =>
      (p.targets ?? []).map((t, j) => ({
        record: `dashboard:panel_${i}_${j}`,
        expr: substituteGrafanaVariables(t.expr),
      })),
    );
    expect(rules.length).toBeGreaterThan(10);
    const file = join(work, 'dashboard-queries.yaml');
    writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules }] }));
    const res = promtool('check', 'rules', file);
    expect(res.stdout + res.stderr).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(res.status).toBe(0);
  });

  it('rejects a broken rule (the check is not a no-op)', () => {
    const file = join(work, 'broken.yaml');
    writeFileSync(
      file,
      stringify({
        groups: [
          { name: 'x', rules: [{ alert: 'X', expr: 'avg_over_time(rag_faithfulness_score[30m] < 0.8', for: '10m' }] },
        ],
      }),
    );
    const res = promtool('check', 'rules', file);
    expect(res.status).not.toBe(0);
  });
});
