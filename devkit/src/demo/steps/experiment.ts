import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { configSchemaFor } from 'ragwatch/config/schema.js';
import { allMetrics } from 'ragwatch/metrics/registry.js';
import { runJudgeStage } from 'ragwatch/calibrate/index.js';
import { connectExperiment } from 'ragwatch/experiment/edges.js';
import { runExperiment, type ExperimentResult } from 'ragwatch/experiment/run.js';
import { formatScore, cell, outcomeLabel } from 'ragwatch/experiment/report/index.js';
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
 * The demo golden set's test split holds 26 scored and 7 adversarial items, under the evidence a gate needs by
 * default (30 and 10): the demo lets its gate decide on 20 and 5, and says so. A real golden set meets the
 * defaults (`experiment.gate.minItems`, `minAbstentionItems`).
 */
export const DEMO_GATE_EVIDENCE = { minItems: 20, minAbstentionItems: 5 };

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
        gate: { ...env.config.experiment.gate, ...DEMO_GATE_EVIDENCE },
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
        `the gate decides on ${DEMO_GATE_EVIDENCE.minItems} scored and ${DEMO_GATE_EVIDENCE.minAbstentionItems} adversarial test items instead of the default 30 and 10: the demo golden set's test split has 26 and 7`,
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
        // The toy RAG answers false premises instead of declining them: its baseline fails on abstention alone,
        // and the degraded run fails on the metrics too, with the regressions against the baseline.
        ok:
          baseline.report.gate.checks.every((c) => c.check === 'abstention' || c.outcome === 'passed') &&
          degraded.outcome === 'failed' &&
          (degraded.report.comparison?.regressions.length ?? 0) > 0,
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
    // The demo's report server answers anyone, as the stand-ins do.
    http: { reportsPublic: true },
  };
  return `# Written by ragwatch demo --keep: the kept stand-ins and toy RAG service. The answer relevancy threshold is\n# lowered for the stand-in judge only.\n${stringify(file)}`;
}

function describe(label: string, result: ExperimentResult): string[] {
  const r = result.report;
  const means = r.metrics
    .map((m) => `${getMetric(m).label.toLowerCase()} ${formatScore(cell(r, m)?.summary.mean)}`)
    .join(', ');
  const lines = [
    `${label}: run ${result.runName}, ${r.items.total} items, gate ${outcomeLabel(r.gate.outcome)} on the ${r.gate.judgedOn} split${r.gate.deciding ? ` (${r.gate.deciding.line})` : ''}`,
    `  means over all items: ${means}`,
  ];
  if (r.abstention)
    lines.push(`  abstention rate ${formatScore(r.abstention.rate)} on all ${r.abstention.n} adversarial items`);
  if (r.noise)
    lines.push(
      `  ΔFaithfulness (clean − with distractors) ${formatScore(r.noise.deltaFaithfulness)} on ${r.noise.n} items${r.noise.flagged ? ' (flagged)' : ''}`,
    );
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
    outcome: result.outcome,
    regressions: result.report.comparison?.regressions ?? [],
    report: result.files,
  };
}
