import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { configSchemaFor } from 'ragwatch/config/schema.js';
import { allMetrics } from 'ragwatch/metrics/registry.js';
import { runJudgeStage } from 'ragwatch/calibrate/index.js';
import { connectExperiment } from 'ragwatch/experiment/edges.js';
import { runExperiment, type ExperimentResult } from 'ragwatch/experiment/run.js';
import { formatScore, cell } from 'ragwatch/experiment/report/index.js';
import { getMetric } from 'ragwatch/metrics/registry.js';
import { openState } from 'ragwatch/state/index.js';
import { startToyRag } from '../../rag/index.js';
import type { DemoEnvironment, DemoStep, DemoStepResult } from '../run-demo.js';

/**
 * The judge stand-in's lexical answer relevancy tops out near 0.6 even for good answers, so the demo judges
 * that metric against this bar instead of `metrics.thresholds.answer_relevancy`, and says so.
 */
export const DEMO_ANSWER_RELEVANCY_THRESHOLD = 0.55;

/**
 * The weekly golden-set experiment twice against the toy RAG service: as it is (baseline), then with its
 * degraded switch on (noisier retrieval, a hallucinated sentence), so the second report shows the regressions.
 * With `--keep` the toy RAG service stays up, with a configuration file to run `experiment run` against it.
 */
export const experimentStep: DemoStep = {
  name: 'experiment',
  title: 'Golden-set experiment: baseline, then a degraded RAG (ragwatch experiment run)',
  async run(env: DemoEnvironment): Promise<DemoStepResult> {
    const lf = env.config.langfuse;
    const rag = await startToyRag({
      langfuse: { baseUrl: lf.baseUrl, publicKey: lf.publicKey, secretKey: lf.secretKey },
    });
    const configured = env.config.metrics.thresholds.answer_relevancy;
    const settings = {
      ...env.config,
      metrics: {
        ...env.config.metrics,
        thresholds: { ...env.config.metrics.thresholds, answer_relevancy: DEMO_ANSWER_RELEVANCY_THRESHOLD },
      },
      experiment: {
        ...env.config.experiment,
        noise: { enabled: true, distractors: 2, threshold: 0.15 },
        target: {
          url: rag.askUrl,
          body: { question: '{{question}}', distractors: '{{distractors}}' },
          response: { answer: 'answer', contexts: 'contexts', traceId: 'traceId' },
        },
      },
    };
    const config = configSchemaFor(allMetrics()).parse(settings);
    const state = await openState(config);
    try {
      const deps = await connectExperiment(config, {
        runtime: env.runtime,
        state,
        judgeStage: runJudgeStage,
      });
      const reportsDir = config.experiment.reportsDir;
      const baseline = await runExperiment(deps, { reportsDir, runName: 'demo-baseline' });
      rag.degraded = true;
      const degraded = await runExperiment(deps, { reportsDir, runName: 'demo-degraded' });
      rag.degraded = false;
      const lines = [
        `answer relevancy judged against ${DEMO_ANSWER_RELEVANCY_THRESHOLD} instead of metrics.thresholds.answer_relevancy (${configured}): the stand-in judge's lexical answer relevancy tops out near 0.6; with your own judge the configured threshold applies`,
        ...describe('baseline', baseline),
        ...describe('degraded', degraded),
        `reports in ${reportsDir} (open ${degraded.files.html}; each run's metadata in Langfuse links to ${degraded.reportUrl})`,
      ];
      if (env.keep) {
        const configFile = join(env.workDir, 'ragwatch-experiment.yaml');
        writeFileSync(configFile, experimentYaml(settings, join(env.workDir, 'ragwatch-yours.db')));
        env.rag = { askUrl: rag.askUrl, configFile };
        env.onClose(() => rag.close());
      }
      return {
        ok: baseline.passed && !degraded.passed && (degraded.report.comparison?.regressions.length ?? 0) > 0,
        lines,
        data: {
          answerRelevancyThreshold: { demo: DEMO_ANSWER_RELEVANCY_THRESHOLD, configured },
          baseline: summary(baseline),
          degraded: summary(degraded),
        },
      };
    } finally {
      await state.close();
      if (!env.keep) await rag.close();
    }
  },
};

/** The configuration a user would write to run the experiment against the kept stand-ins and toy RAG service. */
function experimentYaml(
  settings: Record<string, unknown> & { experiment: Record<string, unknown> },
  statePath: string,
): string {
  const { langfuse, judge, embeddings, metrics, experiment } = settings as Record<string, Record<string, unknown>>;
  const file = {
    langfuse: {
      baseUrl: langfuse!.baseUrl,
      publicKey: langfuse!.publicKey,
      secretKey: langfuse!.secretKey,
      apiGeneration: langfuse!.apiGeneration,
    },
    judge: { baseUrl: judge!.baseUrl, model: judge!.model },
    embeddings: { baseUrl: embeddings!.baseUrl, model: embeddings!.model },
    metrics: { thresholds: { answer_relevancy: (metrics!.thresholds as Record<string, number>).answer_relevancy } },
    experiment: {
      enabled: true,
      reportsDir: experiment!.reportsDir,
      publicUrl: experiment!.publicUrl,
      noise: experiment!.noise,
      target: experiment!.target,
    },
    state: { path: statePath },
  };
  return `# Written by ragwatch demo --keep: the kept stand-ins and toy RAG service. The answer relevancy threshold is\n# lowered for the stand-in judge only.\n${stringify(file)}`;
}

function describe(label: string, result: ExperimentResult): string[] {
  const r = result.report;
  const means = r.metrics
    .map((m) => `${getMetric(m).label.toLowerCase()} ${formatScore(cell(r, m)?.summary.mean)}`)
    .join(', ');
  const lines = [
    `${label}: run ${result.runName}, ${r.items.total} items, gate ${r.gate.passed ? 'passed' : `FAILED (${r.gate.lines.join('; ')})`}`,
    `  ${means}`,
  ];
  if (r.abstention)
    lines.push(`  abstention rate ${formatScore(r.abstention.rate)} on ${r.abstention.n} adversarial items`);
  if (r.noise)
    lines.push(`  ΔFaithfulness ${formatScore(r.noise.deltaFaithfulness)}${r.noise.flagged ? ' (flagged)' : ''}`);
  if (r.diagnosis) lines.push(`  diagnosis: ${r.diagnosis.status} → ${r.diagnosis.action}`);
  if (r.comparison)
    lines.push(
      `  against ${r.comparison.previousRun}: ${r.comparison.regressions.length > 0 ? `regressions in ${r.comparison.regressions.join(', ')}` : 'no regression'}`,
    );
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
