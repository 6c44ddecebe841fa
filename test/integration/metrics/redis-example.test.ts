import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { judgeClientsFromConfig } from '../../../src/judge/index.js';
import { averagePrecision, diagnose, scoreSample } from '../../../src/metrics/index.js';
import type { MetricResult } from '../../../src/metrics/types.js';
import { redisSample, scriptRedisExample } from './redis-fixture.js';
import { configSchema } from '../../helpers/config.js';

let server: JudgeServer;

beforeAll(async () => {
  server = await startJudgeServer({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.script.clear();
  server.faults.clear();
  scriptRedisExample(server);
});

function clients() {
  const config = configSchema.parse({ judge: { baseUrl: server.url }, embeddings: { model: server.embeddingModel } });
  return { config, ...judgeClientsFromConfig(config, { sleep: async () => {} }) };
}

function value(results: MetricResult[], metric: string): number {
  const r = results.find((x) => x.metric === metric);
  if (r?.status !== 'scored') throw new Error(`${metric} not scored: ${JSON.stringify(r)}`);
  return r.value;
}

describe('the seeds’ Redis worked example, over HTTP against the judge stand-in', () => {
  it('gives faithfulness 0.75, context recall 1.00, fraction relevant 0.60 and answer relevancy ≈ 0.72', async () => {
    const { config, judge, embeddings } = clients();
    const results = await scoreSample(
      redisSample,
      ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall'],
      {
        judge,
        embeddings,
        options: config.metrics,
      },
    );
    expect(results.map((r) => r.status)).toEqual(['scored', 'scored', 'scored', 'scored']);
    expect(value(results, 'faithfulness')).toBe(0.75);
    expect(value(results, 'context_recall')).toBe(1);
    const precision = results.find((r) => r.metric === 'context_precision');
    expect(precision?.status === 'scored' && precision.details.fraction_relevant).toBe(0.6);
    // Average precision is RAGAS's formula over C1..C5 = 1,1,0,1,0: (1/1 + 2/2 + 3/4) / 3.
    expect(value(results, 'context_precision')).toBeCloseTo((1 + 1 + 3 / 4) / 3, 12);
    expect(value(results, 'context_precision')).toBeCloseTo(averagePrecision([true, true, false, true, false]), 12);
    const relevancy = value(results, 'answer_relevancy');
    expect(relevancy).toBeCloseTo((0.91 + 0.74 + 0.52) / 3, 10);
    expect(relevancy.toFixed(2)).toBe('0.72');
    const faith = results.find((r) => r.metric === 'faithfulness');
    expect(faith?.status === 'scored' && faith.reason).toContain(
      'Redis incluye soporte nativo para JSON desde la versión 7.2.',
    );
    expect(faith?.status === 'scored' && faith.promptVersion).toMatch(/^es-/);
    expect(diagnose({ faithfulness: 0.75, context_recall: value(results, 'context_recall') }).status).toBe(
      'hallucination',
    );

    // Cost: one chat call per metric and one embeddings request (question + 3 generated questions).
    const chat = server.requests.filter((r) => r.path === '/v1/chat/completions');
    const embeds = server.requests.filter((r) => r.path === '/v1/embeddings');
    expect(chat).toHaveLength(4);
    expect(embeds).toHaveLength(1);
    expect((embeds[0]?.body as { input: string[] }).input).toHaveLength(4);
    for (const r of chat) expect((r.body as { temperature: number }).temperature).toBe(0);
    expect(chat.every((r) => (r.body as { n?: number }).n === undefined || (r.body as { n?: number }).n === 1)).toBe(
      true,
    );
  });

  it('scores all five metrics in five chat calls: noise sensitivity reuses the claims and statements steps', async () => {
    const { config, judge, embeddings } = clients();
    // Claims 1–3 are in the reference; claim 4 (native JSON) is not, and no chunk backs it.
    server.script.answer({
      schema: 'ragwatch_claims_in_reference',
      value: { claims: [1, 2, 3, 4].map((claim) => ({ claim, verdict: claim === 4 ? 0 : 1 })) },
    });
    const results = await scoreSample(
      redisSample,
      ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall', 'noise_sensitivity'],
      {
        judge,
        embeddings,
        options: config.metrics,
      },
    );
    expect(results.map((r) => r.status)).toEqual(['scored', 'scored', 'scored', 'scored', 'scored']);
    const noise = results.find((r) => r.metric === 'noise_sensitivity');
    expect(noise?.status === 'scored' && noise.value).toBe(0);
    expect(noise?.status === 'scored' && noise.details).toMatchObject({ mode: 'relevant', relevant_chunks: [1, 2, 4] });
    const chat = server.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(
      chat.map(
        (r) => (r.body as { response_format: { json_schema: { name: string } } }).response_format.json_schema.name,
      ),
    ).toEqual([
      'ragwatch_faithfulness',
      'ragwatch_answer_relevancy',
      'ragwatch_context_precision',
      'ragwatch_context_recall',
      'ragwatch_claims_in_reference',
    ]);
  });
});
