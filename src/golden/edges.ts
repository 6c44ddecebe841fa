import { createAnonymizer } from '../anonymize/index.js';
import type { RagwatchConfig } from '../config/index.js';
import { extractRagSample } from '../extract/index.js';
import {
  createJudgeClient,
  judgeClientsFromConfig,
  judgeDepsOf,
  type JudgeClientDeps,
  type EmbeddingsClient,
  type JudgeClient,
} from '../judge/index.js';
import {
  addQueueItem,
  annotationQueueConflict,
  ensureAnnotationQueue,
  listAnnotationQueues,
  listQueueItems,
  listAnnotationScores,
  connectLangfuse,
  langfuseDepsOf,
  type LangfuseApi,
  createDataset,
  createDatasetItem,
  getDataset,
  getDatasetItem,
  listDatasetItems,
  listDatasetNames,
  ensureScoreConfigs,
  writeTraces,
} from '../langfuse/index.js';
import { scoreSample } from '../metrics/index.js';
import type { Runtime } from '../runtime/index.js';
import type { BuildDeps } from './build.js';
import { metered, meteredEmbeddings, type Cost } from './cost.js';
import type {
  Clock,
  FaithfulnessCheck,
  GoldenDatasets,
  PersonalDataCheck,
  Progress,
  ReviewQueue,
  ReviewTrace,
} from './ports.js';
import type { GoldenBuildStore } from '../state/index.js';
import { REVIEW_NOTE_SCORE, REVIEW_SCORE } from './review.js';
import type { TraceSource } from './trace-chunks.js';
import { REVIEW_DECISIONS } from './types.js';

/**
 * The builder's edges from the configuration: Langfuse (datasets, the annotation queue, review traces, traces as
 * a corpus), the generator and the judge, the embeddings, the faithfulness check and the anonymizer.
 */

export interface GoldenEdgeDeps {
  /** The transport, waits, randomness and metrics registry the clients are built on. */
  runtime: Runtime;
}

export interface GoldenEdges {
  langfuse: LangfuseApi;
  datasets: GoldenDatasets;
  queue: ReviewQueue;
  generator: JudgeClient;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  personalData: PersonalDataCheck;
  traces: TraceSource;
}

export async function connectGolden(config: RagwatchConfig, deps: GoldenEdgeDeps): Promise<GoldenEdges> {
  const langfuse = await connectLangfuse(config, langfuseDepsOf(deps.runtime));
  const judgeDeps = judgeDepsOf(deps.runtime);
  const { judge, embeddings } = judgeClientsFromConfig(config, judgeDeps);
  const generator = generatorFrom(config, judge, judgeDeps);
  return {
    langfuse,
    datasets: langfuseDatasets(langfuse),
    queue: langfuseReviewQueue(langfuse, config.langfuse.ownEnvironment),
    generator,
    judge,
    embeddings,
    personalData: personalDataCheck(config),
    traces: {
      list: (window) => langfuse.listTraces(window),
      get: (id) => langfuse.getTrace(id),
      extract: (trace) => extractRagSample(trace, config.online.extract),
    },
  };
}

/** Everything `runGoldenBuild` needs, the judge clients metered into `cost` (and their calls shown by `progress`). */
export function buildDeps(
  config: RagwatchConfig,
  edges: GoldenEdges,
  extra: { store: GoldenBuildStore; progress: Progress; clock: Clock; cost: Cost },
): BuildDeps {
  const judge = metered(edges.judge, extra.cost, 'judge', extra.progress);
  const embeddings = meteredEmbeddings(edges.embeddings, extra.cost);
  return {
    datasets: edges.datasets,
    queue: edges.queue,
    generator: metered(edges.generator, extra.cost, 'generator', extra.progress),
    judge,
    embeddings,
    faithfulness: faithfulnessCheck(config, judge, embeddings),
    personalData: edges.personalData,
    seedsInFlight: seedsInFlight(config),
    ...extra,
  };
}

/**
 * Seeds generated and filtered at once: `golden.concurrency`, else one per slot of the generator's or the judge's
 * client, whichever has more, so those slots, not a fixed number of seeds, set the pace of a build.
 */
export function seedsInFlight(config: Pick<RagwatchConfig, 'golden' | 'judge'>): number {
  const g = config.golden;
  return g.concurrency ?? Math.max(config.judge.concurrency, g.generator.concurrency ?? config.judge.concurrency);
}

/** `golden.generator`: another endpoint or model for generation; unset keys are the judge's. */
export function generatorFrom(config: RagwatchConfig, judge: JudgeClient, deps: JudgeClientDeps = {}): JudgeClient {
  const g = config.golden.generator;
  if (Object.values(g).every((v) => v === undefined)) return judge;
  const j = config.judge;
  return createJudgeClient({
    ...deps,
    baseUrl: g.baseUrl ?? j.baseUrl,
    apiKey: g.apiKey ?? j.apiKey,
    model: g.model ?? j.model,
    concurrency: g.concurrency ?? j.concurrency,
    timeoutMs: g.timeoutMs ?? j.timeoutMs,
    maxAttempts: g.maxAttempts ?? j.maxAttempts,
    temperature: g.temperature ?? j.temperature,
    seed: j.seed ?? null,
    maxTokens: g.maxTokens ?? j.maxTokens,
    disableThinking: j.disableThinking,
  });
}

export function faithfulnessCheck(
  config: RagwatchConfig,
  judge: JudgeClient,
  embeddings: EmbeddingsClient,
): FaithfulnessCheck {
  return async ({ question, answer, contexts, language }) => {
    const [result] = await scoreSample(
      { traceId: 'golden-candidate', question, answer, contexts, language, meta: {} },
      ['faithfulness'],
      {
        judge,
        embeddings,
        options: config.metrics,
      },
    );
    return result!;
  };
}

/** The configured anonymizer's analysis, whatever `anonymize.enabled` says: a golden set never carries personal data. */
export function personalDataCheck(config: Pick<RagwatchConfig, 'anonymize'>): PersonalDataCheck {
  const { phoneRegions, threshold, residualThreshold, identifierLabels } = config.anonymize;
  const anonymizer = createAnonymizer({ phoneRegions, threshold, residualThreshold, identifierLabels });
  return {
    found: (text) => anonymizer.analyze(text).length > 0,
    redact: (text) => anonymizer.anonymizeText(text).text,
  };
}

export function langfuseDatasets(langfuse: Pick<LangfuseApi, 'http'>): GoldenDatasets {
  const { http } = langfuse;
  return {
    async ensure(name, description, metadata) {
      await createDataset(http, { name, description, metadata });
    },
    async upsert(item) {
      await createDatasetItem(http, item);
    },
    get: (id) => getDatasetItem(http, id),
    async items(name) {
      if (!(await getDataset(http, name))) return [];
      const out = [];
      for await (const item of listDatasetItems(http, name, { activeOnly: false })) out.push(item);
      return out;
    },
    async metadata(name) {
      const dataset = await getDataset(http, name);
      if (!dataset) return null;
      const m = dataset.metadata;
      return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
    },
    names: () => listDatasetNames(http),
  };
}

const REVIEW_CATEGORIES = REVIEW_DECISIONS.map((label, i) => ({ value: i + 1, label }));

export function langfuseReviewQueue(
  langfuse: Pick<LangfuseApi, 'http' | 'generation'>,
  environment: string,
): ReviewQueue {
  const { http } = langfuse;
  return {
    async ensure(name, description) {
      const ids = await ensureScoreConfigs(http, [
        {
          name: REVIEW_SCORE,
          dataType: 'CATEGORICAL',
          categories: REVIEW_CATEGORIES,
          description:
            'Golden-set review: accept, or reject as trivial (any model knows it), parametric (the reference adds knowledge its chunks lack) or ambiguous.',
        },
        {
          name: REVIEW_NOTE_SCORE,
          dataType: 'TEXT',
          description: 'Golden-set review: a free comment on the candidate.',
        },
      ]);
      const queue = await ensureAnnotationQueue(http, {
        name,
        description,
        scoreConfigs: new Map([REVIEW_SCORE, REVIEW_NOTE_SCORE].map((n) => [n, ids.get(n)!])),
        settingKey: 'golden.review.queue',
      });
      return queue.id;
    },
    async conflict(name) {
      return annotationQueueConflict(http, {
        name,
        scoreConfigNames: [REVIEW_SCORE, REVIEW_NOTE_SCORE],
        settingKey: 'golden.review.queue',
      });
    },
    async find(name) {
      return (await listAnnotationQueues(http)).find((q) => q.name === name)?.id ?? null;
    },
    async queuedTraces(queueId) {
      return new Set(
        (await listQueueItems(http, queueId)).filter((i) => i.objectType === 'TRACE').map((i) => i.objectId),
      );
    },
    async enqueue(queueId, traceId) {
      await addQueueItem(http, queueId, { objectId: traceId, objectType: 'TRACE' });
    },
    async writeTraces(traces) {
      await writeTraces(
        http,
        traces.map((t) => reviewTraceBody(t, environment)),
      );
    },
    async annotations(queueId) {
      const scores = await listAnnotationScores(http, langfuse.generation, {
        queueId,
        names: [REVIEW_SCORE, REVIEW_NOTE_SCORE],
      });
      return scores.flatMap((s) =>
        s.traceId
          ? [{ traceId: s.traceId, name: s.name, label: s.stringValue, comment: s.comment, timestamp: s.timestamp }]
          : [],
      );
    },
  };
}

/** What a reviewer sees: the question and stratum in, the reference out, the source chunks as a retriever step. */
export function reviewTraceBody(t: ReviewTrace, environment: string) {
  return {
    id: t.id,
    name: 'ragwatch-golden-review',
    environment,
    timestampMs: t.timestampMs,
    input: { question: t.question, stratum: t.stratum, language: t.language },
    output: { reference: t.reference },
    metadata: {
      candidate_id: t.candidateId,
      candidates_dataset: t.candidatesDataset,
      source_chunks: t.chunks.map((c) => c.id),
    },
    tags: ['ragwatch', 'golden-review', t.stratum],
    observations: [{ name: 'source-chunks', type: 'retriever', input: { question: t.question }, output: t.chunks }],
  };
}
