import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema } from '../../../config/schema.js';
import { connectExperiment } from '../../../experiment/edges.js';
import { runExperiment, type ExperimentResult } from '../../../experiment/run.js';
import { formatScore, METRIC_LABELS, cell } from '../../../experiment/report/index.js';
import { createLogger } from '../../../service/logger.js';
import { openState } from '../../../state/index.js';
import { startToyRag } from '../../rag/index.js';
import type { DemoEnvironment, DemoStep, DemoStepResult } from '../run-demo.js';

/** Reports outlive the demo's scratch directory, so the printed paths stay valid after it ends. */
export const DEMO_REPORTS_DIR = join(tmpdir(), 'ragwatch-demo-reports');

/**
 * The weekly golden-set experiment twice against the toy RAG service: as it is (baseline), then with its
 * degraded switch on (noisier retrieval, a hallucinated sentence), so the second report shows the regressions.
 */
export const experimentStep: DemoStep = {
  name: 'experiment',
  title: 'Golden-set experiment: baseline, then a degraded RAG (ragwatch experiment run)',
  async run(env: DemoEnvironment): Promise<DemoStepResult> {
    const lf = env.config.langfuse;
    const rag = await startToyRag({ langfuse: { baseUrl: lf.baseUrl, publicKey: lf.publicKey, secretKey: lf.secretKey } });
    const config = configSchema.parse({
      ...env.config,
      metrics: {
        ...env.config.metrics,
        // The judge stand-in's lexical answer relevancy tops out near 0.6 even for good answers.
        thresholds: { ...env.config.metrics.thresholds, answer_relevancy: 0.55 },
      },
      experiment: {
        ...env.config.experiment,
        reportsDir: DEMO_REPORTS_DIR,
        noise: { enabled: true, distractors: 2, threshold: 0.15 },
        target: { url: rag.askUrl, body: { question: '{{question}}', distractors: '{{distractors}}' }, response: { answer: 'answer', contexts: 'contexts', traceId: 'traceId' } },
      },
    });
    const state = openState(config);
    try {
      const deps = await connectExperiment(config, { logger: createLogger({ level: 'silent' }), state, now: env.now });
      const baseline = await runExperiment(deps, { reportsDir: DEMO_REPORTS_DIR, runName: 'demo-baseline' });
      rag.degraded = true;
      const degraded = await runExperiment(deps, { reportsDir: DEMO_REPORTS_DIR, runName: 'demo-degraded' });
      const lines = [...describe('baseline', baseline), ...describe('degraded', degraded)];
      lines.push(`reports in ${DEMO_REPORTS_DIR} (open ${degraded.files.html})`);
      return {
        ok: baseline.passed && !degraded.passed && (degraded.report.comparison?.regressions.length ?? 0) > 0,
        lines,
        data: { baseline: summary(baseline), degraded: summary(degraded) },
      };
    } finally {
      await state.close();
      await rag.close();
    }
  },
};

function describe(label: string, result: ExperimentResult): string[] {
  const r = result.report;
  const means = r.metrics.map((m) => `${METRIC_LABELS[m].toLowerCase()} ${formatScore(cell(r, m)?.summary.mean)}`).join(', ');
  const lines = [
    `${label}: run ${result.runName}, ${r.items.total} items, gate ${r.gate.passed ? 'passed' : `FAILED (${r.gate.lines.join('; ')})`}`,
    `  ${means}`,
  ];
  if (r.abstention) lines.push(`  abstention rate ${formatScore(r.abstention.rate)} on ${r.abstention.n} adversarial items`);
  if (r.noise) lines.push(`  ΔFaithfulness ${formatScore(r.noise.deltaFaithfulness)}${r.noise.flagged ? ' (flagged)' : ''}`);
  if (r.diagnosis) lines.push(`  diagnosis: ${r.diagnosis.status} → ${r.diagnosis.action}`);
  if (r.comparison) lines.push(`  against ${r.comparison.previousRun}: ${r.comparison.regressions.length > 0 ? `regressions in ${r.comparison.regressions.join(', ')}` : 'no regression'}`);
  lines.push(`  report: ${result.files.html}`);
  return lines;
}

function summary(result: ExperimentResult) {
  return {
    runName: result.runName,
    passed: result.passed,
    regressions: result.report.comparison?.regressions ?? [],
    report: result.files,
  };
}
