import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { seedDemo } from '../../../src/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '../../../src/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '../../../src/devkit/langfuse/index.js';
import { spawnCli } from '../../helpers/run-cli.js';
import { parseExposition, type ExportedFamily } from '../../unit/deploy/support/exposition.js';
import { readObjects } from '../../unit/deploy/support/k8s.js';
import { ALERTS_FILE, DASHBOARD_FILE, K8S_DIR, readText, readYaml, type RuleFile } from '../../unit/deploy/support/paths.js';
import { metricUses, type MetricUse } from '../../unit/deploy/support/promql.js';

/**
 * Every metric the alert rules and the dashboard name must be one a running ragwatch exports: the real
 * daemon runs a tick against the devkit stand-ins, /metrics is scraped, and every selector of
 * deploy/prometheus/alerts.yaml, the k8s PrometheusRule and deploy/grafana/ragwatch.json is checked, with
 * the labels of its matchers, as Prometheus stores them (target labels job and instance added, a
 * conflicting exported `job` renamed exported_job).
 */

/**
 * Names the weekly golden-set experiment (a later issue) will export; the daemon does not have them yet.
 * A ratchet, not an exemption: the test fails as soon as one of them is exported, so this list shrinks
 * to nothing and the check covers them.
 */
const AWAITING_EXPERIMENT = ['rag_golden_score', 'ragwatch_experiment_gate_passed'];

const TARGET_LABELS = new Set(['job', 'instance']);

interface Use extends MetricUse {
  where: string;
}

function ruleUses(file: string, groups: RuleFile['groups']): Use[] {
  return groups.flatMap((g) => g.rules.flatMap((r) => metricUses(r.expr).map((u) => ({ ...u, where: `${file}: ${r.alert ?? r.record}` }))));
}

function queryUses(): Use[] {
  const [rule] = readObjects(join(K8S_DIR, 'prometheusrule.yaml')) as unknown as { spec: RuleFile }[];
  const dashboard = JSON.parse(readText(DASHBOARD_FILE)) as { panels: { title: string; targets?: { expr: string }[] }[] };
  return [
    ...ruleUses('alerts.yaml', readYaml<RuleFile>(ALERTS_FILE).groups),
    ...ruleUses('prometheusrule.yaml', rule!.spec.groups),
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => metricUses(t.expr).map((u) => ({ ...u, where: `ragwatch.json: ${p.title}` })))),
  ];
}

/** Label names a query can match on a family once Prometheus has scraped it. */
function storedLabels(family: ExportedFamily): Set<string> {
  const out = new Set(TARGET_LABELS);
  for (const l of family.labels) out.add(TARGET_LABELS.has(l) ? `exported_${l}` : l);
  return out;
}

const work = mkdtempSync(join(tmpdir(), 'ragwatch-crosscheck-'));
let langfuse: LangfuseServer;
let judge: JudgeServer;
let daemon: ChildProcess | undefined;
let output = '';
let exported: Map<string, ExportedFamily>;

async function scrape(port: number): Promise<string | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) });
    return res.ok ? await res.text() : null;
  } catch {
    return null;
  }
}

beforeAll(async () => {
  [langfuse, judge] = await Promise.all([startLangfuseServer({ personality: 'v3', host: '127.0.0.1', port: 0 }), startJudgeServer({ host: '127.0.0.1', port: 0 })]);
  // Settled production traces in the daemon's first window: RAG traces of several shapes, non-RAG ones.
  await seedDemo({
    langfuseUrl: langfuse.url,
    publicKey: langfuse.publicKey,
    secretKey: langfuse.secretKey,
    personality: 'v3',
    seed: 'crosscheck',
    count: 24,
    now: new Date(Date.now() - 20 * 60_000),
    windowMinutes: 20,
    dataset: false,
    verify: false,
  });
  const configFile = join(work, 'ragwatch.yaml');
  writeFileSync(
    configFile,
    stringify({
      sampling: { rate: 1 },
      online: { schedule: '* * * * *' },
      state: { path: join(work, 'ragwatch.db') },
      http: { host: '127.0.0.1', port: 0 },
    }),
  );
  // A free port for the listener: bind, read, release.
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  daemon = spawnCli(['run', '--config', configFile], {
    cwd: work,
    env: {
      LANGFUSE_BASE_URL: langfuse.url,
      LANGFUSE_PUBLIC_KEY: langfuse.publicKey,
      LANGFUSE_SECRET_KEY: langfuse.secretKey,
      RAGWATCH_JUDGE_BASE_URL: judge.url,
      RAGWATCH_JUDGE_MODEL: judge.model,
      RAGWATCH_EMBEDDINGS_MODEL: judge.embeddingModel,
      RAGWATCH_HTTP_PORT: String(port),
    },
  });
  daemon.stdout!.on('data', (d) => (output += d));
  daemon.stderr!.on('data', (d) => (output += d));

  // Until the first online tick has succeeded, so the labelled families have series.
  for (let i = 0; i < 2400; i++) {
    if (daemon.exitCode !== null) throw new Error(`ragwatch run exited ${daemon.exitCode}:\n${output}`);
    const text = await scrape(port);
    if (text && /^ragwatch_job_last_success_timestamp_seconds\{[^}]*job="online"/m.test(text)) {
      exported = parseExposition(text);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no successful online tick on /metrics:\n${output}`);
}, 180_000);

afterAll(async () => {
  if (daemon && daemon.exitCode === null) {
    const exited = new Promise((r) => daemon!.once('exit', r));
    daemon.kill('SIGTERM');
    await exited;
  }
  await Promise.all([langfuse?.close(), judge?.close()]);
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('metrics named by the alerts and the dashboard', () => {
  const uses = queryUses();

  it('reads selectors from every alert rule, the PrometheusRule and every dashboard panel', () => {
    expect(new Set(uses.map((u) => u.where.split(':')[0])).size).toBe(3);
    expect(uses.length).toBeGreaterThan(20);
  });

  it('are all exported by a running ragwatch', () => {
    const missing = uses.filter((u) => !exported.has(u.name) && !AWAITING_EXPERIMENT.includes(u.name));
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

  it('still await the experiment only for names it has not exported yet', () => {
    expect(AWAITING_EXPERIMENT.filter((name) => exported.has(name))).toEqual([]);
    expect(uses.filter((u) => AWAITING_EXPERIMENT.includes(u.name)).length).toBeGreaterThan(0);
  });

  it('include the score gauges of the first seed’s alert, with values in [0, 1]', () => {
    for (const name of ['rag_faithfulness_score', 'rag_answer_relevancy_score']) expect(exported.get(name)?.type).toBe('gauge');
  });
});
