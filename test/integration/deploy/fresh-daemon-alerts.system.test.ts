import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ALERTS_FILE, readYaml, type RuleFile } from '../../unit/deploy/support/paths.js';
import { startLiveDaemon, type LiveDaemon } from './live-daemon.js';
import { runTool } from './tools.js';

/**
 * A ragwatch freshly deployed beside a RAG service that has no traffic yet is healthy: its ticks succeed
 * with nothing to score. What its /metrics says, held for 50 minutes, must raise none of the alerts.
 * (Gauges that were never set read 0 in prom-client, which looks like a score of 0 to a naive rule.)
 */
const work = mkdtempSync(join(tmpdir(), 'ragwatch-fresh-alerts-'));
let daemon: LiveDaemon | undefined;

beforeAll(async () => {
  daemon = await startLiveDaemon({ traces: 0, seed: 'fresh' });
}, 180_000);
afterAll(async () => {
  await daemon?.stop();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

/** Exposition samples → promtool input series as Prometheus would store them (target labels added). */
function inputSeries(exposition: string, minutes: number): { series: string; values: string }[] {
  const out: { series: string; values: string }[] = [];
  for (const line of exposition.split('\n')) {
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m || line.startsWith('#')) continue;
    const value = Number(m[3]);
    if (!Number.isFinite(value)) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      const name = l[1] as string;
      labels[name === 'job' || name === 'instance' ? `exported_${name}` : name] = JSON.parse(`"${l[2]}"`) as string;
    }
    Object.assign(labels, { job: 'ragwatch', instance: 'ragwatch:9464' });
    const selector = Object.entries(labels)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(', ');
    out.push({ series: `${m[1]}{${selector}}`, values: `${value}x${minutes}` });
  }
  return out;
}

describe('a freshly deployed ragwatch without traffic', () => {
  it('ticks successfully and raises no alert', () => {
    const alerts = readYaml<RuleFile>(ALERTS_FILE).groups.flatMap((g) => g.rules.map((r) => r.alert as string));
    const testFile = join(work, 'fresh.test.yaml');
    writeFileSync(join(work, 'alerts.yaml'), stringify(readYaml(ALERTS_FILE)));
    writeFileSync(
      testFile,
      stringify({
        rule_files: ['alerts.yaml'],
        evaluation_interval: '1m',
        tests: [
          {
            name: 'fresh ragwatch, no traffic',
            interval: '1m',
            input_series: inputSeries(daemon!.metrics, 60),
            alert_rule_test: alerts.map((alertname) => ({ eval_time: '50m', alertname, exp_alerts: [] })),
          },
        ],
      }),
    );
    const res = runTool('promtool', ['test', 'rules', testFile], { cwd: work, debianPackage: 'prometheus' });
    expect(res.stdout + res.stderr).toMatch(/SUCCESS/);
    expect(res.status).toBe(0);
  });

  it('the check would see a real problem (the same series with a failing gate after a run)', () => {
    const series = inputSeries(daemon!.metrics, 60).filter(
      (s) => !/^rag_golden_(gate_passed|last_run_timestamp_seconds)\{/.test(s.series),
    );
    series.push(
      { series: 'rag_golden_gate_passed{job="ragwatch", instance="ragwatch:9464"}', values: '0x60' },
      {
        series: 'rag_golden_last_run_timestamp_seconds{job="ragwatch", instance="ragwatch:9464"}',
        values: '1764000000x60',
      },
    );
    const testFile = join(work, 'failing-gate.test.yaml');
    writeFileSync(
      testFile,
      stringify({
        rule_files: ['alerts.yaml'],
        evaluation_interval: '1m',
        tests: [
          {
            name: 'failing gate',
            interval: '1m',
            input_series: series,
            alert_rule_test: [{ eval_time: '50m', alertname: 'RAGGoldenGateFailing', exp_alerts: [] }],
          },
        ],
      }),
    );
    const res = runTool('promtool', ['test', 'rules', testFile], { cwd: work, debianPackage: 'prometheus' });
    expect(res.status).not.toBe(0);
    expect(res.stdout + res.stderr).toContain('RAGGoldenGateFailing');
  });
});
