import { anonymizerFromConfig, createAnswerLeakCheck, type SampleAnonymizer } from '../anonymize/index.js';
import type { RagwatchConfig } from '../config/index.js';
import { extractRagSample } from '../extract/index.js';
import { createJudgeCallTracer, type JudgeCallTracer } from '../judge-calls/index.js';
import {
  judgeClientsFromConfig,
  judgeDepsOf,
  type EmbeddingsClient,
  type JudgeClient,
  judgeProbe,
} from '../judge/index.js';
import { connectLangfuse, langfuseDepsOf, type LangfuseApi, postIngestion } from '../langfuse/index.js';
import { languageAllowed, scoreSample } from '../metrics/index.js';
import type { Runtime } from '../runtime/index.js';
import type { RagSample } from '../sample.js';
import type { EvaluateDeps } from './evaluate-trace.js';
import type { Channel, Dependency } from './failures.js';
import { onlineScoreConfigs } from '../scores/index.js';
import type { HealthProbe } from './ports.js';

/** The runtime the clients are built on (the production one, or a test's), and how to wrap the judge. */
export interface EdgeDeps {
  runtime: Runtime;
  /** Wraps the judge client (e.g. to show what it was sent in `sample --trace`). */
  wrapJudge?: (judge: JudgeClient) => JudgeClient;
}

export interface OnlineEdges {
  langfuse: LangfuseApi;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  anonymizer: SampleAnonymizer;
  /** Whole-dependency probes, and probes of the routes a trace's evaluation uses (see `OutageDetector`). */
  probes: Record<Dependency | Channel, HealthProbe>;
  /** Everything `evaluateTrace` needs except the score config ids (see `ensureOnlineScoreConfigs`). */
  evaluate: Omit<EvaluateDeps, 'configIds'>;
}

/** Connects to Langfuse (detecting its API generation) and builds the judge, the anonymizer and the scorer. */
export async function connectOnlineEdges(
  config: RagwatchConfig,
  deps: EdgeDeps,
  signal?: AbortSignal,
): Promise<OnlineEdges> {
  // The runtime's one transport, shared by Langfuse and the judge; their requests go to its metrics registry.
  const { runtime } = deps;
  signal?.throwIfAborted();
  const langfuse = await connectLangfuse(config, langfuseDepsOf(runtime));
  const clients = judgeClientsFromConfig(config, judgeDepsOf(runtime));
  const judge = deps.wrapJudge ? deps.wrapJudge(clients.judge) : clients.judge;
  const embeddings = clients.embeddings;

  const anonymizer = anonymizerFromConfig(config);
  const mapping = config.online.extract;
  const evaluate: Omit<EvaluateDeps, 'configIds'> = {
    langfuse,
    extract: (trace) => extractRagSample(trace, mapping),
    anonymizer,
    score: (sample, metrics, s, wrap) =>
      scoreSample(sample, metrics, {
        judge: wrap ? wrap(judge) : judge,
        embeddings,
        options: config.metrics,
        logger: runtime.logger,
        signal: s,
      }),
    metrics: config.metrics.online,
    judgeModel: judge.model,
    ...(config.judge.pricing ? { pricing: config.judge.pricing } : {}),
    scorePrefix: config.metrics.scorePrefix,
    ...(config.metrics.allowedLanguages.length > 0
      ? { languageAllowed: (sample: RagSample) => languageAllowed(sample, config.metrics) }
      : {}),
    ...(config.online.answerLeak ? { answerLeak: createAnswerLeakCheck(config.anonymize) } : {}),
    ...(config.judge.traceCalls ? { judgeCalls: judgeCallTracerFrom(config, langfuse, runtime) } : {}),
  };
  const answers =
    (call: (s: AbortSignal) => Promise<unknown>): HealthProbe =>
    async (s) => {
      try {
        await call(s);
        return true;
      } catch {
        return false;
      }
    };
  const probes: Record<Dependency | Channel, HealthProbe> = {
    langfuse: answers((s) =>
      langfuse.http.request({ method: 'GET', path: '/api/public/health', route: 'GET /api/public/health', signal: s }),
    ),
    // A trace id nobody has: a working read path answers "not found" in the API's shape.
    'langfuse:read': answers((s) => langfuse.getTrace(`ragwatch-probe-${Date.now().toString(36)}`, s)),
    // An empty batch writes nothing; a working ingestion route answers it with a well-formed 207.
    'langfuse:write': answers((s) => postIngestion(langfuse.http, [], s)),
    judge: judgeProbe(config, runtime.fetch),
  };
  return { langfuse, judge, embeddings, anonymizer, probes, evaluate };
}

/** `judge.traceCalls`: each evaluation's judge calls as a trace in ragwatch's own environment. */
function judgeCallTracerFrom(config: RagwatchConfig, langfuse: LangfuseApi, runtime: Runtime): JudgeCallTracer {
  const j = config.judge;
  return createJudgeCallTracer({
    http: langfuse.http,
    generation: langfuse.generation,
    environment: config.langfuse.ownEnvironment,
    includeTexts: config.anonymize.enabled,
    modelParameters: {
      temperature: j.temperature,
      max_tokens: j.maxTokens,
      ...(j.seed !== undefined ? { seed: j.seed } : {}),
    },
    logger: runtime.logger,
    newTraceId: runtime.ids.traceId,
  });
}

/** Makes sure the NUMERIC 0–1 score configs exist and returns their ids by score name. */
export async function ensureOnlineScoreConfigs(
  config: RagwatchConfig,
  langfuse: LangfuseApi,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  return langfuse.ensureScoreConfigs(onlineScoreConfigs(config), signal);
}
