/** The judge's checks: the chat model is served and honours json_schema; the embeddings model is served and answers. */
import type { RagwatchConfig } from '../config/index.js';
import { DependencyError } from '../errors.js';
import { errorBodyMessage, judgeClientsFromConfig } from '../judge/index.js';
import { missingV1Hint } from './hints.js';
import { describeError, type Check, type DoctorDeps } from './types.js';

/** `/models` answered with an error status. */
class ModelListError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The model ids an OpenAI-compatible server lists at `/models`. */
export async function listModels(
  base: string,
  apiKey: string,
  fetchImpl: typeof globalThis.fetch,
  timeoutMs: number,
): Promise<string[]> {
  const res = await fetchImpl(`${base}/models`, {
    headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (!res.ok) {
    const message = errorBodyMessage(text);
    throw new ModelListError(
      `HTTP ${res.status}${res.status === 401 || res.status === 403 ? ' (the API key was rejected)' : ''}${message ? `: ${message}` : ''}`,
      res.status,
    );
  }
  const body = JSON.parse(text) as { data?: Array<{ id?: unknown }> };
  return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
}

const trimmed = (url: string) => url.replace(/\/+$/, '');

export async function checkJudgeModel(config: RagwatchConfig, deps: DoctorDeps, timeoutMs: number): Promise<Check> {
  const base = trimmed(config.judge.baseUrl);
  try {
    const served = await listModels(base, config.judge.apiKey, deps.fetch ?? globalThis.fetch, timeoutMs);
    if (served.includes(config.judge.model))
      return { name: 'judge-model', verdict: 'ok', detail: `${base}: serves ${config.judge.model}` };
    return {
      name: 'judge-model',
      verdict: 'fail',
      detail: `${base}: judge.model "${config.judge.model}" is not served (served: ${served.join(', ') || 'none'})`,
    };
  } catch (err) {
    // A refused key is configuration (exit 2), like Langfuse refusing its keys.
    const status = err instanceof ModelListError ? err.status : undefined;
    const refused = status === 401 || status === 403;
    const v1 = status === 404 ? missingV1Hint(base, 'judge.baseUrl') : null;
    return {
      name: 'judge-model',
      verdict: 'fail',
      detail: `${base}/models: ${v1 ? `HTTP 404; ${v1}` : describeError(err, base)}`,
      ...(refused ? { configuration: true as const } : {}),
    };
  }
}

const PROBE_SCHEMA = {
  type: 'object',
  properties: { sum: { type: 'integer' }, verdict: { type: 'string', enum: ['yes', 'no'] } },
  required: ['sum', 'verdict'],
  additionalProperties: false,
};

/**
 * A structured call with a tiny schema. Only asked of a model the server lists: a server that answers any
 * model name (a proxy, a stand-in) would otherwise pass a model that does not exist.
 */
export async function checkStructuredOutput(
  config: RagwatchConfig,
  deps: DoctorDeps,
  timeoutMs: number,
  model: Check,
): Promise<Check> {
  const name = 'judge-json-schema';
  if (model.verdict !== 'ok')
    return { name, verdict: 'fail', detail: `${config.judge.model}: not checked, the judge-model check failed` };
  const { judge } = judgeClientsFromConfig(narrowed(config, timeoutMs), deps.fetch ? { fetch: deps.fetch } : {});
  try {
    const result = await judge.structured({
      name: 'ragwatch_doctor_probe',
      schema: PROBE_SCHEMA,
      parse: (value) => {
        const v = value as { sum?: unknown; verdict?: unknown };
        const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
        if (
          !Number.isInteger(v.sum) ||
          (v.verdict !== 'yes' && v.verdict !== 'no') ||
          keys.some((k) => k !== 'sum' && k !== 'verdict')
        )
          throw new Error('answer does not follow the JSON schema');
        return v as { sum: number; verdict: 'yes' | 'no' };
      },
      messages: [
        { role: 'system', content: 'Answer with a JSON object that follows the schema.' },
        { role: 'user', content: 'What is 2 + 3? Put the number in "sum" and "yes" in "verdict".' },
      ],
      maxTokens: 64,
      signal: AbortSignal.timeout(timeoutMs),
    });
    return {
      name,
      verdict: 'ok',
      detail: `${config.judge.model} answered in the requested JSON schema (${result.usage.latencyMs.toFixed(0)} ms)`,
    };
  } catch (err) {
    return {
      name,
      verdict: 'fail',
      detail: `${config.judge.model}: no schema-conforming answer to response_format json_schema: ${describeError(err)}`,
    };
  }
}

/** The embeddings model is listed by its server (when the server lists models) and returns a usable vector. */
export async function checkEmbeddings(config: RagwatchConfig, deps: DoctorDeps, timeoutMs: number): Promise<Check> {
  const name = 'embeddings';
  const model = config.embeddings.model;
  const base = trimmed(config.embeddings.baseUrl ?? config.judge.baseUrl);
  const where = `${model} at ${base}`;
  let served: string[] | null = null;
  try {
    served = await listModels(
      base,
      config.embeddings.apiKey ?? config.judge.apiKey,
      deps.fetch ?? globalThis.fetch,
      timeoutMs,
    );
  } catch {
    // No model list (some servers have none): the embedding call below still tells.
  }
  if (served && served.length > 0 && !served.includes(model)) {
    return {
      name,
      verdict: 'fail',
      detail: `${base}: embeddings.model "${model}" is not served (served: ${served.join(', ')})`,
    };
  }
  const { embeddings } = judgeClientsFromConfig(narrowed(config, timeoutMs), deps.fetch ? { fetch: deps.fetch } : {});
  try {
    const { vectors } = await embeddings.embed(['ragwatch doctor probe'], AbortSignal.timeout(timeoutMs));
    const vector = vectors[0];
    if (!vector || vector.length === 0) return { name, verdict: 'fail', detail: `${where}: returned an empty vector` };
    if (!vector.every((x) => Number.isFinite(x)))
      return { name, verdict: 'fail', detail: `${where}: vector has non-finite values` };
    return { name, verdict: 'ok', detail: `${model}: ${served ? 'served, ' : ''}dimension ${vector.length}` };
  } catch (err) {
    const key = config.embeddings.baseUrl ? 'embeddings.baseUrl' : 'judge.baseUrl';
    const v1 = err instanceof DependencyError && err.status === 404 ? missingV1Hint(base, key) : null;
    return { name, verdict: 'fail', detail: `${where}: ${v1 ? `HTTP 404; ${v1}` : describeError(err, base)}` };
  }
}

/** Doctor answers within its deadline: one retry at most, no long waits. */
function narrowed(config: RagwatchConfig, timeoutMs: number): RagwatchConfig {
  return {
    ...config,
    judge: {
      ...config.judge,
      timeoutMs: Math.min(config.judge.timeoutMs, timeoutMs),
      maxAttempts: Math.min(2, config.judge.maxAttempts),
    },
    embeddings: {
      ...config.embeddings,
      timeoutMs: Math.min(config.embeddings.timeoutMs, timeoutMs),
      maxAttempts: Math.min(2, config.embeddings.maxAttempts),
    },
  };
}
