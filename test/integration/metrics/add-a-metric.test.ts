/**
 * "A metric is one file": a copy of the source tree gains a test-only metric by one new file under
 * src/metrics/ and one entry in the registry (its import and its line in the list), nothing else. The copy's
 * own modules then accept it in config and `--metrics`, score it, describe its score config, export its gauge,
 * show it in the weekly report with its direction, gate on it, version it in run metadata and list it in the
 * protocol doc.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMetricName } from '../../../src/metrics/registry.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';
import { FakeEmbeddings, FakeJudge } from '../../unit/metrics/fakes.js';

const METRIC_FILE = `/** Unsupported claims: the share of the answer's claims the contexts do not support (test-only). */
import { notScorable, scored, type MetricDefinition } from './definition.js';
import { promptVersion } from './prompts/build.js';
import { answerClaims } from './steps.js';

export const unsupportedClaims: MetricDefinition<'unsupported_claims'> = {
  name: 'unsupported_claims',
  label: 'Unsupported claims',
  definitionVersion: '1',
  scoreDescription: 'Share of the answer’s claims the contexts do not support (unsupported claims, 0–1, lower is better).',
  gaugeHelp: 'Mean share of unsupported claims of the last online tick that scored traces (0-1).',
  higherIsBetter: false,
  needsReference: false,
  jobs: ['online', 'experiment'],
  judgeTasks: ['faithfulness'],
  usesEmbeddings: false,
  valueRule: 'unsupported claims / claims; no claims → not scorable',
  precondition: (s) => (s.answer === '' ? 'the answer is empty' : undefined),
  async score(ctx) {
    const { items } = await answerClaims(ctx);
    if (items.length === 0) return notScorable('unsupported_claims', 'no claims', ctx.meter.total);
    const unsupported = items.filter((c) => !c.supported).length;
    const reason = \`\${unsupported} of \${items.length} claims unsupported\`;
    const version = promptVersion('faithfulness', ctx.sample.language);
    return scored('unsupported_claims', unsupported / items.length, reason, { unsupported }, ctx.meter.total, version);
  },
};
`;
const IMPORT_LINE = "import { unsupportedClaims } from './unsupported-claims.js';";
const LIST_LINE = '  unsupportedClaims,';

let tree: string;
const load = (path: string) => import(join(tree, path));

/** Copies what the checked modules load (sources, the doc, package.json for the version, tsconfig). */
function copyTree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-add-metric-'));
  for (const path of ['src', 'docs/judge-protocol.md', 'package.json', 'tsconfig.json']) {
    cpSync(join(REPO_ROOT, path), join(dir, path), { recursive: true });
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The one registry entry: the import after the last import, the list line after the list's last line. */
function register(registry: string): string {
  const lines = registry.split('\n');
  const lastImport = lines.findLastIndex((l) => l.startsWith('import '));
  lines.splice(lastImport + 1, 0, IMPORT_LINE);
  const listEnd = lines.findIndex((l, i) => i > lines.indexOf('const definitions = [') && l === '] as const;');
  lines.splice(listEnd, 0, LIST_LINE);
  return lines.join('\n');
}

/** TypeScript's diagnostics for the given files of the copy and everything they import, with its tsconfig. */
function typeErrors(roots: string[]): string[] {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  const config = ts.getParsedCommandLineOfConfigFile(join(tree, 'tsconfig.json'), { noEmit: true }, host);
  if (config === undefined) throw new Error('the copy has no readable tsconfig.json');
  const program = ts.createProgram(
    roots.map((r) => join(tree, r)),
    config.options,
  );
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

beforeAll(() => {
  tree = copyTree();
  writeFileSync(join(tree, 'src/metrics/unsupported-claims.ts'), METRIC_FILE);
  const registryPath = join(tree, 'src/metrics/registry.ts');
  writeFileSync(registryPath, register(readFileSync(registryPath, 'utf8')));
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('adding a metric by one file and one registry entry', () => {
  it('changes the registry by exactly its import and its line in the list', () => {
    const before = readFileSync(join(REPO_ROOT, 'src/metrics/registry.ts'), 'utf8').split('\n');
    const after = readFileSync(join(tree, 'src/metrics/registry.ts'), 'utf8').split('\n');
    expect(after.filter((l) => !before.includes(l))).toEqual([IMPORT_LINE, LIST_LINE]);
    expect(after.filter((l) => l !== IMPORT_LINE && l !== LIST_LINE)).toEqual(before);
    expect(isMetricName('unsupported_claims')).toBe(false);
  });

  it('config validation takes it in metrics.online and experiment.metrics, and --metrics parses it', async () => {
    // As the composition root loads it: the configuration checked against the copy's registry.
    const { loadConfig: loadWith } = await load('src/config/load.ts');
    const { allMetrics } = await load('src/metrics/registry.ts');
    const loadConfig = (options: object) => loadWith({ metrics: allMetrics(), ...options });
    const file = join(tree, 'ragwatch.yaml');
    const yaml =
      'metrics:\n  online: [faithfulness, unsupported_claims]\nexperiment:\n  metrics: [unsupported_claims]\n';
    writeFileSync(file, yaml);
    const loaded = loadConfig({ file, env: {} });
    expect(loaded.problems ?? []).toEqual([]);
    expect(loaded.config.metrics.online).toEqual(['faithfulness', 'unsupported_claims']);
    writeFileSync(file, 'experiment:\n  metrics: [unsupported_claim]\n');
    expect(loadConfig({ file, env: {} }).problems).toEqual([
      'config: experiment.metrics.0: must be one of faithfulness, answer_relevancy, context_precision, ' +
        'context_recall, noise_sensitivity, unsupported_claims (got "unsupported_claim")',
    ]);
    writeFileSync(file, 'metrics:\n  thresholds:\n    unsupported_claims: 0.2\n');
    expect(loadConfig({ file, env: {} }).config.metrics.thresholds).toMatchObject({
      faithfulness: 0.85,
      unsupported_claims: 0.2,
    });
    const { parseMetricList } = await load('src/metrics/registry.ts');
    const parsed = parseMetricList('unsupported_claims,faithfulness');
    expect(parsed).toEqual({ metrics: ['unsupported_claims', 'faithfulness'], unknown: [] });
  });

  it('is scored, sharing the faithfulness call, and gets its score config and its gauge', async () => {
    const { scoreSample, allMetrics } = await load('src/metrics/index.ts');
    const { configSchemaFor } = await load('src/config/schema.ts');
    const defaultMetricsOptions = () => configSchemaFor(allMetrics()).parse({}).metrics;
    const claims = [
      { claim: 'Redis keeps data in memory.', chunks: [1], verdict: 1 },
      { claim: 'Redis was written in Rust.', chunks: [], verdict: 0 },
      { claim: 'Redis supports clustering.', chunks: [1], verdict: 1 },
      { claim: 'Redis ships a JSON type in its core.', chunks: [], verdict: 0 },
    ];
    const judge = new FakeJudge({ ragwatch_faithfulness: () => ({ claims }) });
    const sample = {
      traceId: 't1',
      question: 'What is Redis?',
      answer: 'Redis is in memory.',
      contexts: ['In memory.'],
    };
    const deps = { judge, embeddings: new FakeEmbeddings(), options: defaultMetricsOptions() };
    type Result = { metric: string; status: string; value?: number };
    const results: Result[] = await scoreSample(sample, ['unsupported_claims', 'faithfulness'], deps);
    expect(results.map((r) => [r.metric, r.status, r.value])).toEqual([
      ['unsupported_claims', 'scored', 0.5],
      ['faithfulness', 'scored', 0.5],
    ]);
    expect(judge.requests).toHaveLength(1);

    const { scoreConfigDefinitions } = await load('src/scores/index.ts');
    expect(scoreConfigDefinitions('ragas-', ['unsupported_claims'])).toEqual([
      {
        name: 'ragas-unsupported-claims',
        description: expect.stringContaining('do not support'),
        min: 0,
        max: 1,
        renameKey: 'metrics.scorePrefix',
      },
    ]);
    const { createServiceMetrics } = await load('src/service/metrics.ts');
    const gauges = createServiceMetrics({ scoreMetrics: ['unsupported_claims'], processMetrics: false });
    gauges.scoreMeans({ unsupported_claims: 0.25 });
    const text: string = await gauges.render();
    expect(text).toContain('# HELP rag_unsupported_claims_score Mean share of unsupported claims of the last online');
    expect(text).toContain('\nrag_unsupported_claims_score 0.25\n');
  });

  it('the weekly report shows it by label with its direction, and run metadata versions it', async () => {
    const { buildReport, renderMarkdown, renderHtml } = await load('src/experiment/report/index.ts');
    const result = (metric: string, value: number) => ({
      metric,
      status: 'scored',
      value,
      reason: `${metric} ${value}`,
      details: {},
      usage: { calls: 1, promptTokens: 1, completionTokens: 1 },
      promptVersion: 'v',
    });
    const outcomes = [0.1, 0.6, 0.3, 0.2].map((u, i) => ({
      itemId: `item-${i}`,
      split: 'dev',
      stratum: 'single-hop',
      adversarial: false,
      results: [result('faithfulness', 0.9), result('unsupported_claims', u)],
    }));
    const report = buildReport({
      runName: 'weekly-2026-W49',
      datasetName: 'rag-golden',
      startedAt: '2026-11-30T03:00:00.000Z',
      finishedAt: '2026-11-30T03:10:00.000Z',
      split: 'all',
      run: {
        ragwatchVersion: '0',
        judgeModel: 'j',
        embeddingsModel: 'e',
        promptVersions: {},
        configHash: 'h',
        seed: 1,
        target: 't',
        definitionVersions: {},
      },
      metrics: ['faithfulness', 'unsupported_claims'],
      thresholds: { faithfulness: 0.5 },
      outcomes,
      previous: null,
      history: [{ runName: 'weekly-2026-W48', date: '2026-11-23', means: { unsupported_claims: 0.2 } }],
      bootstrap: { samples: 100, seed: 1 },
    });
    // Lower is better: the worst dev item is the one with the most unsupported claims.
    expect(report.worstItems[0]).toMatchObject({ itemId: 'item-1', metric: 'unsupported_claims', value: 0.6 });
    const markdown: string = renderMarkdown(report);
    expect(markdown).toMatch(/\| Unsupported claims \(lower is better\) \| — \| 0\.300 /);
    const html: string = renderHtml(report);
    expect(html).toContain('<td>Unsupported claims (lower is better)</td>');
    expect(html).toContain('style="fill:#0891b2">Unsupported claims</text>');

    const { promptVersions, definitionVersions } = await load('src/experiment/metadata.ts');
    const prompts = promptVersions(['unsupported_claims'], false, false);
    expect(Object.keys(prompts)).toEqual(['faithfulness.en', 'faithfulness.es']);
    expect(definitionVersions(['unsupported_claims'], false)).toEqual({ unsupported_claims: '1' });
  });

  it('the weekly gate takes a threshold for it and, lower being better, fails it from above', async () => {
    const { gateSummary } = await load('src/experiment/report/gate-summary.ts');
    const cell = (metric: string, mean: number) => ({
      metric,
      split: 'all',
      stratum: 'all',
      summary: { n: 40, mean, ci: { low: mean - 0.02, high: mean + 0.02, method: 'bca' } },
      notScorable: 0,
      failed: 0,
    });
    const gate = (unsupported: number) =>
      gateSummary({
        outcomes: [],
        cells: [cell('faithfulness', 0.9), cell('unsupported_claims', unsupported)],
        metrics: ['faithfulness', 'unsupported_claims'],
        thresholds: { faithfulness: 0.85, unsupported_claims: 0.2 },
        gate: { rule: 'point', minItems: 30, minAbstention: 0.8, minAbstentionItems: 10 },
        judge: null,
      });
    expect(gate(0.1)).toMatchObject({ outcome: 'passed' });
    expect(gate(0.3)).toMatchObject({
      outcome: 'failed',
      lines: ['unsupported_claims: 0.300 [0.280, 0.320], n = 40, threshold ≤ 0.2: failed'],
    });
  });

  it('the protocol doc’s generated metrics table lists it, and no other part of the doc changes', async () => {
    const { protocolSections, rewriteProtocolDoc } = await load('src/metrics/protocol-doc.ts');
    const sections: Record<string, string> = protocolSections();
    expect(sections.metrics).toContain(
      '| unsupported_claims | 1 | online, experiment | `ragwatch_faithfulness` | ' +
        'unsupported claims / claims; no claims → not scorable; lower is better |',
    );
    expect(sections.metrics).toContain('`ragwatch_faithfulness` (faithfulness, noise_sensitivity, unsupported_claims)');
    const doc = readFileSync(join(tree, 'docs/judge-protocol.md'), 'utf8');
    const rewritten: string = rewriteProtocolDoc(doc);
    const metricsSection = /<!-- generated:metrics [\s\S]*?<!-- \/generated:metrics -->/;
    expect(rewritten.replace(metricsSection, '')).toBe(doc.replace(metricsSection, ''));
    expect(rewritten).not.toBe(doc);
  });

  // The consumers above, type-checked in the copy: the file fits MetricDefinition, and MetricName (derived from
  // the registry's list) takes 'unsupported_claims' without any other edit. About 3 s of CPU.
  it('type-checks in the copy with the consumers that read the registry', () => {
    const roots = [
      'src/metrics/unsupported-claims.ts',
      'src/metrics/index.ts',
      'src/config/load.ts',
      'src/scores/index.ts',
      'src/service/metrics.ts',
      'src/experiment/report/index.ts',
      'src/experiment/metadata.ts',
      'src/metrics/protocol-doc.ts',
      'src/metrics/gate.ts',
    ];
    expect(typeErrors(roots)).toEqual([]);
  }, 120_000);
});
