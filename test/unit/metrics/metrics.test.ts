import { describe, expect, it } from 'vitest';
import { JudgeCallError } from '../../../src/judge/types.js';
import { scoreSample } from '../../../src/metrics/index.js';
import type { MetricResult } from '../../../src/metrics/types.js';
import type { RagSample } from '../../../src/sample.js';
import { FakeEmbeddings, FakeJudge, userOf, vectorWithCosine } from './fakes.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

const options = defaultMetricsOptions();

const sample: RagSample = {
  traceId: 't-1',
  question: 'What latency does Redis offer for reads?',
  answer: 'Redis answers GET in under a millisecond. It supports clustering. It ships JSON natively since 7.2.',
  contexts: [
    'Redis serves GET in under a millisecond from RAM.',
    'Redis Cluster shards data across nodes.',
    'RedisJSON is a Redis Stack module.',
  ],
  reference: 'Redis answers GET in under a millisecond. Clustering scales past one node.',
  meta: {},
};

const claims = {
  claims: [
    { claim: 'Redis answers GET in under a millisecond.', chunks: [1], verdict: 1 },
    { claim: 'Redis supports clustering.', chunks: [2], verdict: 1 },
    { claim: 'Redis ships JSON natively since 7.2.', chunks: [], verdict: 0 },
  ],
};

function scoredValue(r: MetricResult | undefined): number {
  if (r?.status !== 'scored') throw new Error(`expected scored, got ${JSON.stringify(r)}`);
  return r.value;
}

describe('faithfulness', () => {
  it('is supported / total and names the unsupported claims', async () => {
    const judge = new FakeJudge({ ragwatch_faithfulness: () => claims });
    const [r] = await scoreSample(sample, ['faithfulness'], { judge, embeddings: new FakeEmbeddings(), options });
    expect(scoredValue(r)).toBeCloseTo(2 / 3, 12);
    expect(r?.status === 'scored' && r.reason).toContain('Redis ships JSON natively since 7.2.');
    expect(r?.status === 'scored' && r.promptVersion).toMatch(/^en-[0-9a-f]{12}$/);
    expect(r?.usage?.calls).toBe(1);
  });

  it('is not scorable when the answer makes no claims, or is empty', async () => {
    const judge = new FakeJudge({ ragwatch_faithfulness: () => ({ claims: [] }) });
    const [r] = await scoreSample(sample, ['faithfulness'], { judge, embeddings: new FakeEmbeddings(), options });
    expect(r).toMatchObject({ status: 'not_scorable' });
    const [empty] = await scoreSample({ ...sample, answer: '  ' }, ['faithfulness'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options,
    });
    expect(empty).toMatchObject({ status: 'not_scorable', reason: 'the answer is empty' });
  });

  it('fails (never 0) when the judge call fails', async () => {
    const judge = new FakeJudge({
      ragwatch_faithfulness: new JudgeCallError('HTTP 500 from judge', true, 'http_500', 4),
    });
    const [r] = await scoreSample(sample, ['faithfulness'], { judge, embeddings: new FakeEmbeddings(), options });
    expect(r).toMatchObject({ metric: 'faithfulness', status: 'failed', retryable: true });
    expect(r?.status === 'failed' && r.error).toContain('http_500');
  });

  it('a claim the judge repeats counts once, with its first verdict; blank claims are dropped', async () => {
    const judge = new FakeJudge({
      ragwatch_faithfulness: () => ({
        claims: [
          { claim: 'Redis is fast.', chunks: [1], verdict: 1 },
          { claim: '  redis  IS fast. ', chunks: [], verdict: 0 },
          { claim: ' ', chunks: [], verdict: 1 },
          { claim: 'Redis is slow.', chunks: [], verdict: 0 },
        ],
      }),
    });
    const [r] = await scoreSample(sample, ['faithfulness'], { judge, embeddings: new FakeEmbeddings(), options });
    // 1 of 2 distinct claims (definition 1 counted 2 of 4 rows, one of them blank: 1/3 after dropping the blank).
    expect(scoredValue(r)).toBe(0.5);
    expect(r?.status === 'scored' && r.details.resolved).toEqual({ blank_dropped: 1, repeats_dropped: 1 });
  });

  it('with no contexts, a claim can cite no chunk: the schema allows none', async () => {
    const judge = new FakeJudge({
      ragwatch_faithfulness: () => ({ claims: [{ claim: 'Redis is fast.', chunks: [], verdict: 0 }] }),
    });
    const [r] = await scoreSample({ ...sample, contexts: [] }, ['faithfulness'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options,
    });
    expect(scoredValue(r)).toBe(0);
    const schema = judge.requests[0]!.schema as {
      properties: { claims: { items: { properties: { chunks: { maxItems?: number } } } } };
    };
    expect(schema.properties.claims.items.properties.chunks.maxItems).toBe(0);
  });

  it('counts the failed attempts of a judge call that failed in the result’s usage', async () => {
    const spent = { calls: 4, promptTokens: 4000, completionTokens: 120, latencyMs: 9 };
    const judge = new FakeJudge({
      ragwatch_faithfulness: new JudgeCallError('unusable', true, 'schema_mismatch', 4, spent),
    });
    const [r, n] = await scoreSample(sample, ['faithfulness', 'noise_sensitivity'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options,
    });
    expect(r).toMatchObject({ status: 'failed', usage: { calls: 4, promptTokens: 4000, completionTokens: 120 } });
    // The shared step is charged once: noise sensitivity, which waited on the same call, adds nothing.
    expect(n).toMatchObject({ status: 'failed', usage: { calls: 0, promptTokens: 0 } });
  });

  it('rejects chunk numbers that do not exist (the client then retries with a repair)', async () => {
    const judge = new FakeJudge({
      ragwatch_faithfulness: () => ({ claims: [{ claim: 'x', chunks: [9], verdict: 1 }] }),
    });
    const [r] = await scoreSample(sample, ['faithfulness'], { judge, embeddings: new FakeEmbeddings(), options });
    expect(r).toMatchObject({ status: 'failed' });
  });
});

describe('answer relevancy', () => {
  it('is the mean of the cosines, then clamped to [0, 1], from one chat call and one embeddings request', async () => {
    const generated = ['Q1?', 'Q2?', 'Q3?'];
    const judge = new FakeJudge({
      ragwatch_answer_relevancy: () => ({ questions: generated.map((question) => ({ question, noncommittal: 0 })) }),
    });
    const embeddings = new FakeEmbeddings({
      [sample.question]: [1, 0],
      'Q1?': vectorWithCosine(0.9),
      'Q2?': vectorWithCosine(0.6),
      'Q3?': [-1, 0],
    });
    const [r] = await scoreSample(sample, ['answer_relevancy'], { judge, embeddings, options });
    // (0.9 + 0.6 − 1) / 3 = 0.1667; clipping each cosine first would have given (0.9 + 0.6 + 0) / 3 = 0.5.
    expect(scoredValue(r)).toBeCloseTo(0.5 / 3, 12);
    expect(r?.status === 'scored' && r.details.mean_cosine).toBeCloseTo(0.5 / 3, 12);
    expect(judge.requests).toHaveLength(1);
    expect(embeddings.calls).toEqual([[sample.question, ...generated]]);
    expect(r?.usage).toMatchObject({ calls: 1, embeddingRequests: 1 });
    // The judge never sees the original question when generating questions.
    expect(userOf(judge.requests[0]!)).not.toContain(sample.question);
  });

  it('a negative mean counts as 0, not as the mean of the positive cosines', async () => {
    const judge = new FakeJudge({
      ragwatch_answer_relevancy: () => ({
        questions: ['A?', 'B?', 'C?'].map((question) => ({ question, noncommittal: 0 })),
      }),
    });
    const embeddings = new FakeEmbeddings({
      [sample.question]: [1, 0],
      'A?': vectorWithCosine(-0.5),
      'B?': vectorWithCosine(-0.2),
      'C?': vectorWithCosine(0.1),
    });
    const [r] = await scoreSample(sample, ['answer_relevancy'], { judge, embeddings, options });
    // (−0.5 − 0.2 + 0.1) / 3 = −0.2 → 0 (definition 1: (0 + 0 + 0.1) / 3 = 0.033).
    expect(scoredValue(r)).toBe(0);
    expect(r?.status === 'scored' && r.details.mean_cosine).toBeCloseTo(-0.2, 12);
  });

  it('leaves blank generated questions out of the cosines; only blank ones → not scorable', async () => {
    const someBlank = new FakeJudge({
      ragwatch_answer_relevancy: () => ({
        questions: [
          { question: ' \u3000', noncommittal: 0 },
          { question: 'B?', noncommittal: 0 },
          { question: '', noncommittal: 1 },
        ],
      }),
    });
    const embeddings = new FakeEmbeddings({ [sample.question]: [1, 0], 'B?': vectorWithCosine(0.8) });
    const [r] = await scoreSample(sample, ['answer_relevancy'], { judge: someBlank, embeddings, options });
    expect(scoredValue(r)).toBeCloseTo(0.8, 12);
    expect(r?.status === 'scored' && r.details.resolved).toEqual({ blank_dropped: 2 });
    expect(embeddings.calls).toEqual([[sample.question, 'B?']]);
    const allBlank = new FakeJudge({
      ragwatch_answer_relevancy: () => ({
        questions: [
          { question: '', noncommittal: 0 },
          { question: ' ', noncommittal: 1 },
          { question: '\n', noncommittal: 0 },
        ],
      }),
    });
    const [n] = await scoreSample(sample, ['answer_relevancy'], { judge: allBlank, embeddings, options });
    expect(n).toMatchObject({ status: 'not_scorable', reason: 'the judge generated no question with text' });
  });

  it('a zero vector gives cosine 0; vectors at the ends of the float range do not overflow', async () => {
    const judge = new FakeJudge({
      ragwatch_answer_relevancy: () => ({
        questions: ['A?', 'B?', 'C?'].map((question) => ({ question, noncommittal: 0 })),
      }),
    });
    const embeddings = new FakeEmbeddings({
      [sample.question]: [3e300, 4e300],
      'A?': [0, 0],
      'B?': [3e-320, 4e-320],
      'C?': [-4e300, 3e300],
    });
    const [r] = await scoreSample(sample, ['answer_relevancy'], { judge, embeddings, options });
    // cosines 0, 1 and 0 → 1/3.
    expect(scoredValue(r)).toBeCloseTo(1 / 3, 6);
  });

  it('vectors of a different dimension (from an earlier request) fail the metric, never a made-up value', async () => {
    const judge = new FakeJudge({
      ragwatch_answer_relevancy: () => ({ questions: [{ question: 'A?', noncommittal: 0 }] }),
    });
    const embeddings = new FakeEmbeddings({ [sample.question]: [1, 0, 0], 'A?': [1, 0] });
    const [r] = await scoreSample(sample, ['answer_relevancy'], { judge, embeddings, options });
    expect(r).toMatchObject({ status: 'failed', retryable: true });
    expect(r?.status === 'failed' && r.error).toContain('dimension');
  });

  it('is 0 when every generation is noncommittal, without embeddings; a mixed set keeps the cosines', async () => {
    const evasive = new FakeJudge({
      ragwatch_answer_relevancy: () => ({
        questions: [
          { question: 'A?', noncommittal: 1 },
          { question: 'B?', noncommittal: 1 },
          { question: 'C?', noncommittal: 1 },
        ],
      }),
    });
    const embeddings = new FakeEmbeddings();
    const [r] = await scoreSample(sample, ['answer_relevancy'], { judge: evasive, embeddings, options });
    expect(scoredValue(r)).toBe(0);
    expect(embeddings.calls).toHaveLength(0);
    const mixed = new FakeJudge({
      ragwatch_answer_relevancy: () => ({
        questions: [
          { question: 'A?', noncommittal: 1 },
          { question: 'B?', noncommittal: 0 },
          { question: 'C?', noncommittal: 0 },
        ],
      }),
    });
    const vectors = new FakeEmbeddings({ [sample.question]: [1, 0], 'A?': [1, 0], 'B?': [1, 0], 'C?': [1, 0] });
    const [m] = await scoreSample(sample, ['answer_relevancy'], { judge: mixed, embeddings: vectors, options });
    expect(scoredValue(m)).toBe(1);
  });

  it('fails when the embeddings fail', async () => {
    const judge = new FakeJudge({
      ragwatch_answer_relevancy: () => ({ questions: [{ question: 'A?', noncommittal: 0 }] }),
    });
    const embeddings = new FakeEmbeddings();
    embeddings.embed = async () => {
      throw new JudgeCallError('connection refused', true, 'connection', 4);
    };
    const [r] = await scoreSample(sample, ['answer_relevancy'], { judge, embeddings, options });
    expect(r).toMatchObject({ status: 'failed', retryable: true });
  });
});

describe('context precision and recall', () => {
  it('precision is RAGAS average precision, with the plain fraction in details', async () => {
    const judge = new FakeJudge({
      ragwatch_context_precision: () => ({
        chunks: [
          { chunk: 3, useful: 1 },
          { chunk: 1, useful: 0 },
          { chunk: 2, useful: 1 },
        ],
      }),
    });
    const [r] = await scoreSample(sample, ['context_precision'], { judge, embeddings: new FakeEmbeddings(), options });
    expect(scoredValue(r)).toBeCloseTo((1 / 2 + 2 / 3) / 2, 12);
    expect(r?.status === 'scored' && r.details.fraction_relevant).toBeCloseTo(2 / 3, 12);
  });

  it('precision with no retrieved context is 0, without a judge call', async () => {
    const judge = new FakeJudge({});
    const [r] = await scoreSample({ ...sample, contexts: [] }, ['context_precision'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options,
    });
    expect(scoredValue(r)).toBe(0);
    expect(r?.status === 'scored' && r.details).toMatchObject({ k: 0, useful: 0, fraction_relevant: 0 });
    expect(judge.requests).toHaveLength(0);
  });

  it('precision from a judge without structured output: a chunk judged twice keeps its first verdict, recorded', async () => {
    const judge = new FakeJudge({
      ragwatch_context_precision: () => ({
        chunks: [
          { chunk: 1, useful: 0 },
          { chunk: 2, useful: 1 },
          { chunk: 1, useful: 1 },
          { chunk: 3, useful: 1 },
        ],
      }),
    });
    const [r] = await scoreSample(sample, ['context_precision'], { judge, embeddings: new FakeEmbeddings(), options });
    // verdicts 0, 1, 1 → (1/2 + 2/3) / 2.
    expect(scoredValue(r)).toBeCloseTo((1 / 2 + 2 / 3) / 2, 12);
    expect(r?.status === 'scored' && r.details.resolved).toEqual({ repeated_chunks: [1] });
  });

  it('precision needs a verdict for every chunk', async () => {
    const judge = new FakeJudge({ ragwatch_context_precision: () => ({ chunks: [{ chunk: 1, useful: 1 }] }) });
    const [r] = await scoreSample(sample, ['context_precision'], { judge, embeddings: new FakeEmbeddings(), options });
    expect(r).toMatchObject({ status: 'failed' });
    expect(r?.status === 'failed' && r.error).toContain('no verdict for chunks 2, 3');
  });

  it('recall is attributed / total; reference metrics need a reference', async () => {
    const judge = new FakeJudge({
      ragwatch_context_recall: () => ({
        statements: [
          { statement: 'Redis answers GET in under a millisecond.', chunks: [1], attributed: 1 },
          { statement: 'Clustering scales past one node.', chunks: [], attributed: 0 },
        ],
      }),
    });
    const [r] = await scoreSample(sample, ['context_recall'], { judge, embeddings: new FakeEmbeddings(), options });
    expect(scoredValue(r)).toBe(0.5);
    expect(r?.status === 'scored' && r.reason).toContain('Clustering scales past one node.');
    const { reference: _, ...noRef } = sample;
    const results = await scoreSample(noRef, ['context_precision', 'context_recall', 'noise_sensitivity'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options,
    });
    expect(results.map((x) => x.status)).toEqual(['not_scorable', 'not_scorable', 'not_scorable']);
  });
});

describe('noise sensitivity', () => {
  const judgeFor = () =>
    new FakeJudge({
      ragwatch_faithfulness: () => claims,
      ragwatch_context_recall: () => ({
        statements: [
          { statement: 'Redis answers GET in under a millisecond.', chunks: [1], attributed: 1 },
          { statement: 'Clustering scales past one node.', chunks: [2], attributed: 1 },
        ],
      }),
      // claim 2 ("supports clustering") judged not in the reference: wrong yet backed by relevant chunk 2.
      ragwatch_claims_in_reference: () => ({
        claims: [
          { claim: 1, verdict: 1 },
          { claim: 2, verdict: 0 },
          { claim: 3, verdict: 0 },
        ],
      }),
    });

  it('follows RAGAS in both modes and reuses the faithfulness and recall steps', async () => {
    const judge = judgeFor();
    const results = await scoreSample(sample, ['noise_sensitivity', 'faithfulness', 'context_recall'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options,
    });
    expect(results.map((r) => r.metric)).toEqual(['noise_sensitivity', 'faithfulness', 'context_recall']);
    const noise = results[0];
    expect(scoredValue(noise)).toBeCloseTo(1 / 3, 12);
    expect(noise?.status === 'scored' && noise.details).toMatchObject({ mode: 'relevant', irrelevant: 0 });
    expect(judge.requests.map((r) => r.name)).toEqual([
      'ragwatch_faithfulness',
      'ragwatch_context_recall',
      'ragwatch_claims_in_reference',
    ]);
    // Shared steps are charged once: to faithfulness and recall; noise pays for its own call only.
    expect(results.map((r) => r.usage?.calls)).toEqual([1, 1, 1]);
  });

  it('irrelevant mode counts wrong claims backed only by chunks the reference does not use', async () => {
    const [r] = await scoreSample(sample, ['noise_sensitivity'], {
      judge: judgeFor(),
      embeddings: new FakeEmbeddings(),
      options: { ...options, noiseSensitivityMode: 'irrelevant' },
    });
    expect(scoredValue(r)).toBe(0);
    expect(r?.usage?.calls).toBe(3);
  });
});

describe('prompts', () => {
  it('picks Spanish prompts for Spanish samples and says what placeholders mean', async () => {
    const judge = new FakeJudge({ ragwatch_faithfulness: () => claims });
    const es: RagSample = {
      ...sample,
      question: '¿Qué latencia ofrece Redis para las lecturas?',
      answer: 'Redis responde a GET en menos de un milisegundo y también permite clústeres.',
    };
    const [r] = await scoreSample(es, ['faithfulness'], { judge, embeddings: new FakeEmbeddings(), options });
    expect(r?.status === 'scored' && r.promptVersion).toMatch(/^es-/);
    const system = judge.requests[0]?.messages[0]?.content ?? '';
    expect(system).toContain('<EMAIL_1>');
    expect(system).toContain('el mismo marcador significa siempre el mismo valor');
  });

  it('shares the prefix between the two online prompts: system + answer first, sample-specific parts last', async () => {
    const judge = new FakeJudge({
      ragwatch_faithfulness: () => claims,
      ragwatch_answer_relevancy: () => ({ questions: [{ question: 'Q?', noncommittal: 0 }] }),
    });
    await scoreSample(sample, ['answer_relevancy', 'faithfulness'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options,
    });
    const [f, ar] = judge.requests;
    expect(f?.messages[0]?.content).toBe(ar?.messages[0]?.content);
    const arUser = userOf(ar!);
    const common = arUser.slice(0, arUser.indexOf('\nTASK:'));
    expect(userOf(f!).startsWith(common)).toBe(true);
    expect(common).toContain(sample.answer);
  });

  it('flags truncation in details, never silently', async () => {
    const judge = new FakeJudge({ ragwatch_faithfulness: () => claims });
    const longAnswer = `${sample.answer} ${'More words about Redis and its memory. '.repeat(400)}`;
    const [r] = await scoreSample({ ...sample, answer: longAnswer }, ['faithfulness'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options: { ...options, maxAnswerTokens: 100 },
    });
    expect(r?.status === 'scored' && r.details.truncated).toMatchObject({ answer: { keptTokens: expect.any(Number) } });
    expect(userOf(judge.requests[0]!)).toContain('[…]');
  });
});
