import { describe, expect, it } from 'vitest';
import type { GoldenItem } from '../../../src/experiment/items.js';
import { OutageWatch } from '../../../src/experiment/outage.js';
import { cleanItem, type CleanResult, type PassDeps } from '../../../src/experiment/passes.js';
import { mapLimited } from '../../../src/internal/index.js';
import { TargetError, type Target } from '../../../src/experiment/target.js';
import {
  JudgeCallError,
  type JudgeClient,
  type StructuredRequest,
  type StructuredResult,
} from '../../../src/judge/types.js';
import { createLogger } from '../../../src/runtime/logger.js';
import { FakeEmbeddings } from '../metrics/fakes.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

/** Answers every task; for questions containing `broken`, every call fails with `kind` (after "retries"). */
class PickyJudge implements JudgeClient {
  readonly model = 'picky';
  constructor(private readonly kind: string) {}
  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const user = request.messages.at(-1)?.content ?? '';
    if (user.includes('broken'))
      throw new JudgeCallError(`judge call failed: ${this.kind}`, true, this.kind, 2, {
        calls: 2,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: 0,
      });
    const value =
      request.name === 'ragwatch_faithfulness'
        ? { claims: [{ claim: 'It is blue.', chunks: [1], verdict: 1 }] }
        : { questions: [{ question: 'What colour is it?', noncommittal: 0 }] };
    return { value: request.parse(value), usage: { calls: 1, promptTokens: 1, completionTokens: 1, latencyMs: 0 } };
  }
}

const target: Target = {
  description: 'fake',
  acceptsDistractors: false,
  async ask(request) {
    if (request.question.includes('unanswerable'))
      throw new TargetError(`item ${request.itemId}: RAG service answered HTTP 400`, false, 'http_400');
    if (request.question.includes('flaky'))
      throw new TargetError(`item ${request.itemId}: RAG service answered HTTP 503`, true, 'http_503');
    // The answer repeats the question, so every judge task of an item sees its marker.
    return {
      answer: `It is blue (${request.question}).`,
      contexts: ['The sky is blue.'],
      traceId: null,
      latencyMs: 1,
      attempts: 1,
    };
  },
};

function item(id: string, question: string): GoldenItem {
  return {
    id,
    question,
    reference: null,
    stratum: 'single-hop',
    split: 'dev',
    adversarial: false,
    raw: {
      id,
      status: 'ACTIVE',
      input: question,
      expectedOutput: null,
      metadata: null,
      sourceTraceId: null,
      datasetName: 'd',
    },
  };
}

function passDeps(judgeKind: string, probeUp: boolean) {
  const stops: string[] = [];
  const controller = new AbortController();
  let stopped = false;
  const deps: PassDeps = {
    target,
    scoring: {
      judge: new PickyJudge(judgeKind),
      embeddings: new FakeEmbeddings(),
      options: defaultMetricsOptions(),
      anonymizer: { anonymizeSample: (sample) => ({ sample, entities: [], residual: [] }) },
      metrics: ['faithfulness', 'answer_relevancy'],
    },
    runName: 'r',
    concurrency: 1,
    now: () => 0,
    logger: createLogger({ level: 'silent' }),
    signal: controller.signal,
    targetSignal: controller.signal,
    outages: new OutageWatch({ judge: async () => probeUp }, () => 0),
    stop: (dependency, message) => {
      stopped = true;
      stops.push(`${dependency}: ${message}`);
      controller.abort();
    },
    halted: () => stopped,
  };
  return { deps, stops };
}

const run = (items: GoldenItem[], deps: PassDeps) => mapLimited(items, 1, (i) => cleanItem(i, deps), deps.halted);

describe('the clean pass', () => {
  it('an item whose judge calls fail with 5xx while the judge answers the others is that item’s failure; the run goes on', async () => {
    const { deps, stops } = passDeps('http_503', true);
    const items = [
      item('a', 'broken one'),
      item('b', 'fine'),
      item('c', 'broken two'),
      item('d', 'fine'),
      item('e', 'broken three'),
      item('f', 'fine'),
    ];
    const results = await run(items, deps);
    expect(stops).toEqual([]);
    expect(results.every((r) => r !== undefined)).toBe(true);
    const failed = (r: CleanResult | undefined) =>
      r!.outcome.results.filter((x) => x.status === 'failed').map((x) => x.status === 'failed' && x.kind);
    expect(failed(results[0])).toEqual(['http_503', 'http_503']);
    expect(failed(results[1])).toEqual([]);
  });

  it('consecutive items failing on the judge stop the run even when its probe answers', async () => {
    const { deps, stops } = passDeps('http_503', true);
    const items = [item('a', 'broken 1'), item('b', 'broken 2'), item('c', 'broken 3'), item('d', 'fine')];
    const results = await run(items, deps);
    expect(stops).toEqual(['judge: judge unreachable after retries (item c: http_503)']);
    // Items a and b are kept here; the run's end treats outage-like failures as the outage's (not run).
    expect(results.map((r) => r?.item.id)).toEqual(['a', 'b', undefined, undefined]);
  });

  it('a judge whose probe fails stops the run at the first outage-like failure', async () => {
    const { deps, stops } = passDeps('connection', false);
    const results = await run([item('a', 'fine'), item('b', 'broken'), item('c', 'fine')], deps);
    expect(stops).toHaveLength(1);
    expect(results.map((r) => r?.item.id)).toEqual(['a', undefined, undefined]);
  });

  it('unusable answers (not outage-like) never stop the run, however many', async () => {
    const { deps, stops } = passDeps('schema_mismatch', false);
    const results = await run(
      Array.from({ length: 6 }, (_, i) => item(`i${i}`, 'broken')),
      deps,
    );
    expect(stops).toEqual([]);
    expect(results.every((r) => r?.outcome.results.every((x) => x.status === 'failed'))).toBe(true);
  });

  it('the RAG service: a 4xx is the item’s failure; 5xx on consecutive items is an outage', async () => {
    const { deps, stops } = passDeps('http_503', true);
    const results = await run(
      [
        item('a', 'unanswerable'),
        item('b', 'fine'),
        item('c', 'flaky'),
        item('d', 'flaky'),
        item('e', 'flaky'),
        item('f', 'fine'),
      ],
      deps,
    );
    expect(results[0]!.outcome).toMatchObject({ targetErrorKind: 'http_400' });
    expect(results[1]!.outcome.results.map((r) => r.status)).toEqual(['scored', 'scored']);
    expect(stops).toEqual(['rag: RAG service unreachable after retries: item e: RAG service answered HTTP 503']);
    expect(results[5]).toBeUndefined();
  });
});
