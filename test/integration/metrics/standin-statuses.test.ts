import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchSamples } from '../../../bench/judge-cost-samples.js';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { answerQuestion } from '@ragwatch/devkit/rag/answer.js';
import { judgeClientsFromConfig } from '../../../src/judge/index.js';
import { judgeAbstention } from '../../../src/experiment/abstention.js';
import { allMetricNames, scoreSample } from '../../../src/metrics/index.js';
import type { RagSample } from '../../../src/sample.js';
import { configSchema } from '../../helpers/config.js';

/**
 * The normal stand-in's answers through every metric: how many results are scored, not scorable and failed.
 * Tightening the schemas and resolving answers in the parsers must not move these counts; the figures were
 * measured before that change (context precision with no retrieved context aside: it is 0 now, by definition).
 */
function samples(): RagSample[] {
  const golden = GOLDEN_ITEMS.filter((i) => i.type !== 'adversarial').flatMap((item) =>
    [false, true].map((degraded) => {
      const a = answerQuestion(item.question, { degraded });
      return {
        traceId: `${item.id}-${degraded}`,
        question: item.question,
        answer: a.answer,
        contexts: a.contexts,
        reference: item.reference,
        meta: {},
      };
    }),
  );
  return [...golden, ...benchSamples.map((s) => ({ ...s, reference: s.answer }))];
}

let judge: JudgeServer;
beforeAll(async () => {
  judge = await startJudgeServer({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await judge?.close();
});

describe('statuses of the normal judge stand-in', () => {
  it('every metric keeps the scored / not-scorable / failed counts it had before the schema work', async () => {
    const config = configSchema.parse({
      judge: { baseUrl: judge.url, model: judge.model },
      embeddings: { model: judge.embeddingModel },
    });
    const { judge: client, embeddings } = judgeClientsFromConfig(config);
    const counts: Record<string, Record<string, number>> = {};
    const sums: Record<string, number> = {};
    for (const sample of samples()) {
      for (const r of await scoreSample(sample, allMetricNames(), {
        judge: client,
        embeddings,
        options: config.metrics,
      })) {
        const row = (counts[r.metric] ??= { scored: 0, not_scorable: 0, failed: 0 });
        row[r.status] = (row[r.status] ?? 0) + 1;
        if (r.status === 'scored') sums[r.metric] = (sums[r.metric] ?? 0) + r.value;
      }
    }
    expect(counts).toEqual({
      faithfulness: { scored: 121, not_scorable: 3, failed: 0 },
      answer_relevancy: { scored: 124, not_scorable: 0, failed: 0 },
      context_precision: { scored: 124, not_scorable: 0, failed: 0 },
      context_recall: { scored: 124, not_scorable: 0, failed: 0 },
      noise_sensitivity: { scored: 121, not_scorable: 3, failed: 0 },
    });
    // The values stay too: the stand-in's cosines are never negative, so clamping the mean changes nothing here.
    const means = Object.fromEntries(
      Object.entries(sums).map(([m, sum]) => [m, Number((sum / counts[m]!.scored!).toFixed(6))]),
    );
    expect(means).toEqual({
      faithfulness: 0.767355,
      answer_relevancy: 0.582206,
      context_precision: 0.640009,
      context_recall: 0.67621,
      noise_sensitivity: 0.18595,
    });
  }, 120_000);

  it('the abstention judgement of every adversarial golden item is a verdict', async () => {
    const config = configSchema.parse({ judge: { baseUrl: judge.url, model: judge.model } });
    const { judge: client } = judgeClientsFromConfig(config);
    const verdicts: boolean[] = [];
    for (const item of GOLDEN_ITEMS.filter((i) => i.type === 'adversarial')) {
      const a = answerQuestion(item.question, { degraded: false });
      verdicts.push((await judgeAbstention(client, { question: item.question, answer: a.answer })).abstained);
    }
    expect(verdicts).toHaveLength(14);
    expect(verdicts.filter(Boolean)).toHaveLength(1);
  }, 120_000);
});
