import type { MetricName, MetricResult } from '../../../src/metrics/types.js';
import type { RagSample } from '../../../src/sample.js';
import type { ExtractResult } from '../../../src/extract/types.js';
import type {
  Extractor,
  OnlineLangfuse,
  SampleAnonymizer,
  SampleScorer,
  ScoreToWrite,
  TraceRecord,
  TraceSummary,
} from '../../../src/online/ports.js';
import { LangfuseApiError, scoreIdFor } from '../../../src/langfuse/index.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { openSqliteState, type StateStore } from '../../../src/state/index.js';
import type { OnlineJobDeps, OnlineSettings } from '../../../src/online/job.js';

export interface FakeTrace {
  id: string;
  name: string;
  timestamp: number;
  rag: boolean;
}

/** An in-memory Langfuse: traces to list and fetch, scores keyed like the server keys them. */
export class FakeLangfuse implements OnlineLangfuse {
  scores = new Map<string, ScoreToWrite & { id: string }>();
  writes = 0;
  gets = 0;
  /** Score ids acknowledged and then dropped (as Langfuse's worker drops a score its validation refuses). */
  dropped = new Set<string>();
  /** Acknowledge and drop the next N scores written. */
  dropNext = 0;
  /** Read-backs asked, each the ids it asked for. */
  readBacks: string[][] = [];
  failGet = new Set<string>();
  failGetError: () => Error = () =>
    new LangfuseApiError('server error', 'GET /api/public/traces/{id}', 'http', 500, true, 5);
  constructor(public traces: FakeTrace[]) {}

  async *listTraces(w: { from: Date; to: Date }): AsyncIterable<TraceSummary> {
    for (const t of this.traces) {
      if (t.timestamp >= w.from.getTime() && t.timestamp < w.to.getTime()) {
        yield {
          id: t.id,
          name: t.name,
          timestamp: new Date(t.timestamp).toISOString(),
          environment: 'production',
          tags: [],
        };
      }
    }
  }

  async getTrace(id: string): Promise<TraceRecord | null> {
    this.gets += 1;
    if (this.failGet.has(id)) throw this.failGetError();
    const t = this.traces.find((x) => x.id === id);
    if (!t) return null;
    return {
      id,
      name: t.name,
      timestamp: new Date(t.timestamp).toISOString(),
      environment: 'production',
      input: `question about ${id}`,
      output: `answer for ${id}`,
      metadata: { rag: t.rag },
      tags: [],
      observations: [],
    };
  }

  async writeScores(scores: ScoreToWrite[]) {
    this.writes += scores.length;
    const written: string[] = [];
    for (const s of scores) {
      const id = scoreIdFor(s.traceId, s.name);
      written.push(id);
      if (this.dropNext > 0) {
        this.dropNext -= 1;
        this.dropped.add(id);
        continue;
      }
      this.dropped.delete(id);
      this.scores.set(id, { ...s, id });
    }
    return { written, failed: [] };
  }

  async presentScoreIds(ids: readonly string[]): Promise<Set<string>> {
    this.readBacks.push([...ids]);
    return new Set(ids.filter((id) => this.scores.has(id)));
  }
}

const fakeParts: Extract<ExtractResult, { ok: true }>['parts'] = {
  question: { rule: 'trace.input', source: 'trace.input', observationIds: [] },
  answer: { rule: 'trace.output', source: 'trace.output', observationIds: [] },
  contexts: { rule: 'mapping', source: 'fake', observationIds: [], from: 'mapping' },
};

export const fakeExtract: Extractor = (trace) =>
  (trace.metadata as { rag: boolean }).rag
    ? {
        ok: true,
        sample: {
          traceId: trace.id,
          question: String(trace.input),
          answer: String(trace.output),
          contexts: ['ctx'],
          meta: {},
        },
        shape: 'fake',
        parts: fakeParts,
      }
    : { ok: false, reason: 'no_contexts' };

export const identityAnonymizer: SampleAnonymizer = {
  anonymizeSample: (sample) => ({ sample, entities: [], residual: [] }),
};

/** Scores every metric 0.5 unless `behaviour` says otherwise for a trace. */
export function fakeScorer(
  behaviour: (traceId: string, metric: MetricName) => MetricResult | undefined = () => undefined,
): SampleScorer & { calls: number } {
  const fn = (async (sample: RagSample, metrics: readonly MetricName[]): Promise<MetricResult[]> => {
    fn.calls += 1;
    return metrics.map(
      (metric): MetricResult =>
        behaviour(sample.traceId, metric) ?? {
          metric,
          status: 'scored' as const,
          value: metric === 'faithfulness' ? 0.8 : 0.6,
          reason: 'fine',
          details: {},
          usage: { calls: 1, promptTokens: 10, completionTokens: 5 },
          promptVersion: 'p1',
        },
    );
  }) as unknown as SampleScorer & { calls: number };
  fn.calls = 0;
  return fn;
}

export class ManualClock {
  constructor(public t: number) {}
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

/** The deps of the job tests; their state is a whole store, so tests can also close it. */
export function jobDeps(
  langfuse: FakeLangfuse,
  clock: ManualClock,
  overrides: Partial<Omit<OnlineJobDeps, 'state'>> & { state?: StateStore } = {},
): OnlineJobDeps & { state: StateStore } {
  return {
    langfuse,
    extract: fakeExtract,
    anonymizer: identityAnonymizer,
    score: fakeScorer(),
    metrics: ['faithfulness', 'answer_relevancy'],
    judgeModel: 'judge',
    scorePrefix: 'ragas-',
    configIds: new Map([['ragas-faithfulness', 'cfg-f']]),
    state: openSqliteState({ path: ':memory:' }),
    clock,
    logger: silentLogger(),
    holder: { id: 'h:1:test', host: 'h', pid: 1 },
    ...overrides,
  };
}

/** The online settings the job tests start from (10 min settle and overlap, 1 h first look-back, rate 0.1). */
export function testSettings(over: Partial<OnlineSettings> = {}): OnlineSettings {
  return {
    window: { settleDelaySeconds: 600, overlapSeconds: 600, initialLookbackSeconds: 3600, maxWindowSeconds: 6 * 3600 },
    sampling: { rate: 0.1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} },
    caps: { maxPerTick: 500, maxPerHour: 5000 },
    maxAttempts: 3,
    retryBackoffSeconds: 60,
    concurrency: 4,
    leaseSeconds: 300,
    readBack: { sample: 20, withinSeconds: 60 },
    ...over,
  };
}
