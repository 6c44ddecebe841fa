import { join } from 'node:path';
import { configSchemaFor } from 'ragwatch/config/schema.js';
import { allMetrics } from 'ragwatch/metrics/registry.js';
import { runJudgeStage } from 'ragwatch/calibrate/index.js';
import { connectExperiment } from 'ragwatch/experiment/edges.js';
import { outcomeLabel } from 'ragwatch/experiment/report/index.js';
import { runExperiment } from 'ragwatch/experiment/run.js';
import { applyGoldenReview } from 'ragwatch/golden/apply.js';
import { goldenNames, runGoldenBuild } from 'ragwatch/golden/build.js';
import { readCorpusFolder } from 'ragwatch/golden/corpus.js';
import { costLine, emptyCost } from 'ragwatch/golden/cost.js';
import { buildDeps, connectGolden } from 'ragwatch/golden/edges.js';
import { STRATA } from 'ragwatch/golden/types.js';
import { noProgress } from 'ragwatch/progress/index.js';
import { openState } from 'ragwatch/state/index.js';
import { openSqliteGoldenStore } from 'ragwatch/state/golden-builds.js';
import { writeCorpusExport } from '../../corpus/export.js';
import { startToyRag } from '../../rag/index.js';
import { DEMO_ANSWER_RELEVANCY_THRESHOLD } from './experiment.js';
import { reviewGoldenQueue, seededDecisions } from '../golden-reviewer.js';
import type { DemoEnvironment, DemoStep, DemoStepResult } from '../run-demo.js';

/**
 * The golden set built from scratch: the demo knowledge base exported as a corpus folder, `golden build` (seed
 * chunks, generation, filters, review queue), a scripted reviewer annotating the queue through Langfuse's API,
 * `golden review --apply` publishing the first version, and the weekly experiment run on it.
 */
export const goldenStep: DemoStep = {
  name: 'golden',
  title: 'Golden set from the corpus: build, review in Langfuse, publish, run (ragwatch golden build / review --apply)',
  async run(env: DemoEnvironment): Promise<DemoStepResult> {
    const corpusDir = join(env.workDir, 'corpus');
    writeCorpusExport(corpusDir);
    const config = configSchemaFor(allMetrics()).parse({
      ...env.config,
      metrics: {
        ...env.config.metrics,
        thresholds: { ...env.config.metrics.thresholds, answer_relevancy: DEMO_ANSWER_RELEVANCY_THRESHOLD },
      },
      // A small corpus: a larger review share than production's, so every stratum gets a few reviewed items.
      golden: {
        ...env.config.golden,
        seeds: { ...env.config.golden.seeds, min: 12 },
        review: { ...env.config.golden.review, share: 0.35 },
      },
    });
    const names = goldenNames(config.golden);
    const corpus = await readCorpusFolder(corpusDir);
    const store = openSqliteGoldenStore({ path: config.state.path });
    const rag = await startToyRag({});
    const state = await openState(config);
    try {
      const edges = await connectGolden(config, { runtime: env.runtime });
      const cost = emptyCost();
      const deps = buildDeps(config, edges, { store, progress: noProgress, clock: { now: env.now }, cost });
      const built = await runGoldenBuild(deps, {
        chunks: corpus.chunks,
        settings: config.golden,
        names,
        budgetTokens: config.metrics.maxContextTokens,
      });
      const reviewed = await reviewGoldenQueue(edges.langfuse.http, {
        queueName: names.queueName,
        decide: seededDecisions(0.85, 'ana'),
      });
      const applied = await applyGoldenReview(
        { datasets: edges.datasets, queue: edges.queue, store, clock: { now: env.now }, progress: noProgress },
        { settings: config.golden, names, apply: true },
      );
      const published = applied.published;
      const lines = [
        `corpus export: ${corpus.chunks.length} chunks in ${corpusDir}; ${built.plan.excluded.personal_data} left out for personal data`,
        `build: ${built.plan.seeds.length} seeds (${STRATA.map((s) => `${built.plan.byStratum[s]} ${s}`).join(', ')}), ${STRATA.reduce((n, s) => n + built.tally[s].candidates, 0)} candidates, ` +
          `${STRATA.reduce((n, s) => n + built.tally[s].accepted, 0)} accepted; rejected: ${
            Object.entries(built.rejections)
              .map(([r, n]) => `${n} ${r}`)
              .join(', ') || 'none'
          }`,
        `  ${costLine(built.cost)}`,
        `review: a scripted reviewer annotated ${Object.values(reviewed).reduce((a, b) => a + b, 0)} queue items in Langfuse (${Object.entries(
          reviewed,
        )
          .filter(([, n]) => n > 0)
          .map(([l, n]) => `${n} ${l}`)
          .join(', ')})`,
        `  acceptance: ${STRATA.map((s) => `${s} ${fmt(applied.outcome.perStratum[s].acceptance)}${applied.outcome.perStratum[s].heldBack ? ' (held back)' : ''}`).join(', ')}`,
      ];
      if (!published) return { ok: false, lines: [...lines, 'nothing was published'] };
      lines.push(
        `published ${published.datasetName}: ${published.items} items, ${STRATA.map((s) => `${s} ${applied.sizes[s].dev} dev / ${applied.sizes[s].test} test`).join(', ')}`,
      );
      const experimentConfig = configSchemaFor(allMetrics()).parse({
        ...config,
        experiment: { ...config.experiment, dataset: published.datasetName, target: { url: rag.askUrl } },
      });
      const run = await runExperiment(
        await connectExperiment(experimentConfig, {
          runtime: env.runtime,
          state,
          judgeStage: runJudgeStage,
        }),
        { reportsDir: experimentConfig.experiment.reportsDir, runName: `demo-${published.datasetName}` },
      );
      const r = run.report;
      lines.push(
        `experiment on ${published.datasetName}: run ${run.runName}, ${r.items.total} items, gate ${outcomeLabel(r.gate.outcome)}${r.gate.deciding ? ` (${r.gate.deciding.line})` : ''}; report ${run.files.html}`,
      );
      return {
        ok: built.complete && !published.unchanged && r.items.total === published.items,
        lines,
        data: {
          build: { tally: built.tally, rejections: built.rejections, cost: built.cost },
          review: reviewed,
          published,
          experiment: { runName: run.runName, passed: run.passed, outcome: run.outcome },
        },
      };
    } finally {
      store.close();
      await state.close();
      await rag.close();
    }
  },
};

function fmt(x: number | null): string {
  return x === null ? '-' : `${Math.round(x * 100)} %`;
}
