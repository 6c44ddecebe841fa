import { describe, expect, it } from 'vitest';
import { judgeAbstention } from '../../../src/experiment/abstention.js';
import { fuzzVectors, JudgeFuzzer } from '@ragwatch/devkit/judge/fuzz/index.js';
import { schemaErrors } from '@ragwatch/devkit/judge/schema-check.js';
import { seededRandom } from '../../../src/random.js';
import { parseJsonAnswer } from '../../../src/judge/answer-text.js';
import type { EmbeddingsClient, JudgeClient, StructuredRequest, StructuredResult } from '../../../src/judge/types.js';
import { scoreSample } from '../../../src/metrics/index.js';
import { allMetricNames } from '../../../src/metrics/registry.js';
import type { MetricResult } from '../../../src/metrics/types.js';
import type { RagSample } from '../../../src/sample.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

/**
 * The contract of structured output: whatever the sent schema allows, the judge may send. Every task's answers
 * come from the judge stand-in's fuzzer (checked with ajv against the schema that was sent), go through the
 * client's JSON reading and the task's parser, and must end as a score in [0, 1] or an explicit not-scorable
 * result: never a parse error, a failure, a throw or NaN.
 */
const PER_TASK = 1000;

class FuzzJudge implements JudgeClient {
  readonly model = 'fuzz';
  readonly answers = new Map<string, number>();
  readonly parseErrors: string[] = [];
  constructor(private readonly fuzzer: JudgeFuzzer) {}

  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const value = this.fuzzer.answer(request.schema);
    expect(schemaErrors(request.schema, value)).toBeUndefined();
    this.answers.set(request.name, (this.answers.get(request.name) ?? 0) + 1);
    const read = parseJsonAnswer(JSON.stringify(value));
    if (!read.ok) {
      this.parseErrors.push(`${request.name}: ${read.error}`);
      throw new Error(read.error);
    }
    try {
      return {
        value: request.parse(read.value),
        usage: { calls: 1, promptTokens: 1, completionTokens: 1, latencyMs: 0 },
      };
    } catch (err) {
      this.parseErrors.push(`${request.name}: ${(err as Error).message} in ${JSON.stringify(value).slice(0, 300)}`);
      throw err;
    }
  }
}

class FuzzEmbeddings implements EmbeddingsClient {
  readonly model = 'fuzz';
  private readonly random = seededRandom(7);
  async embed(texts: string[]) {
    return {
      vectors: fuzzVectors(texts.length, 8, this.random).vectors,
      usage: { requests: 1, promptTokens: texts.length, latencyMs: 0 },
    };
  }
}

function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
}

function checkResult(r: MetricResult): void {
  expect(numbersIn(r).every(Number.isFinite), JSON.stringify(r).slice(0, 400)).toBe(true);
  expect(r.status, JSON.stringify(r).slice(0, 400)).not.toBe('failed');
  if (r.status === 'scored') {
    expect(r.value).toBeGreaterThanOrEqual(0);
    expect(r.value).toBeLessThanOrEqual(1);
  } else if (r.status === 'not_scorable') expect(r.reason).not.toBe('');
}

describe('every answer the schemas allow becomes a score or an explicit result', () => {
  it(`${PER_TASK}+ fuzzed answers per metric task: no parse error, no failure, no NaN, values in [0, 1]`, async () => {
    const fuzzer = new JudgeFuzzer(11);
    const judge = new FuzzJudge(fuzzer);
    const embeddings = new FuzzEmbeddings();
    const random = seededRandom(3);
    const options = { ...defaultMetricsOptions(), answerRelevancyQuestions: 3 };
    const tasks = [
      'ragwatch_faithfulness',
      'ragwatch_answer_relevancy',
      'ragwatch_context_precision',
      'ragwatch_context_recall',
      'ragwatch_claims_in_reference',
    ];
    const statuses: Record<string, Record<string, number>> = {};
    for (let i = 0; tasks.some((t) => (judge.answers.get(t) ?? 0) < PER_TASK); i++) {
      expect(i).toBeLessThan(20 * PER_TASK);
      const k = Math.floor(random() * 7);
      const sample: RagSample = {
        traceId: `f-${i}`,
        question: 'What latency does Redis offer?',
        answer: 'Redis answers GET in under a millisecond.',
        contexts: Array.from({ length: k }, (_, j) => `Chunk ${j + 1} about Redis.`),
        reference: 'Redis answers in under a millisecond.',
        meta: {},
      };
      for (const r of await scoreSample(sample, allMetricNames(), { judge, embeddings, options })) {
        checkResult(r);
        const row = (statuses[r.metric] ??= {});
        row[r.status] = (row[r.status] ?? 0) + 1;
      }
    }
    expect(judge.parseErrors).toEqual([]);
    // Every metric was scored many times (the fuzzer is not just producing unscorable answers).
    for (const m of allMetricNames()) expect(statuses[m]?.scored ?? 0, m).toBeGreaterThan(100);
    const edges = fuzzer.stats().edges;
    for (const edge of [
      'empty_array',
      'max_items',
      'long_array',
      'duplicate_items',
      'number_min',
      'number_max',
      'empty_string',
      'blank_string',
      'long_string',
      'odd_unicode',
      'markup_string',
    ] as const) {
      expect(edges[edge] ?? 0, edge).toBeGreaterThan(0);
    }
  }, 60_000);

  it(`${PER_TASK} fuzzed abstention answers are each a verdict`, async () => {
    const judge = new FuzzJudge(new JudgeFuzzer(5));
    for (let i = 0; i < PER_TASK; i++) {
      const verdict = await judgeAbstention(judge, {
        question: '¿Cuánto cuesta la Cam Interior?',
        answer: 'No existe.',
      });
      expect(typeof verdict.abstained).toBe('boolean');
      expect(typeof verdict.reason).toBe('string');
    }
    expect(judge.parseErrors).toEqual([]);
  }, 30_000);
});
