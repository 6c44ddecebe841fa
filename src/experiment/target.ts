import { EXPERIMENT_ITEM_HEADER, EXPERIMENT_RUN_HEADER, type RagwatchConfig } from '../config/index.js';
import { chunksFrom, dedupeChunks, evaluatePath, parsePath, type PathStep, answerFrom } from '../extract/index.js';
import { DependencyError, isAbortError, statusOfKind } from '../errors.js';
import { backoffs, Limiter, parseRetryAfter, retry, RetryAbortedError, type Sleep } from '../internal/index.js';
import { expandEnv, renderBody, renderUrl, templateVariables, TemplateError } from './template.js';

export type TargetConfig = RagwatchConfig['experiment']['target'];

export interface TargetRequest {
  itemId: string;
  question: string;
  /** Distractor chunks for the noise run; empty for the clean run. */
  distractors: string[];
  runName: string;
}

export interface TargetAnswer {
  answer: string;
  contexts: string[];
  /** The trace the RAG service created for this call, when it reports one. */
  traceId: string | null;
  latencyMs: number;
  attempts: number;
}

export interface Target {
  readonly description: string;
  /** Whether the target can take extra (distractor) contexts: needed for the noise run. */
  readonly acceptsDistractors: boolean;
  ask(request: TargetRequest, signal?: AbortSignal): Promise<TargetAnswer>;
}

/** The RAG service could not answer an item after every attempt, or answered something unusable. */
export class TargetError extends DependencyError {
  readonly dependency = 'target' as const;

  constructor(
    message: string,
    retryable: boolean,
    /** `http_<status>`, `timeout`, `connection`, `invalid_response`, `invalid_request`, `aborted`, `internal`. */
    kind: string = retryable ? 'connection' : 'invalid_response',
    /** The server's requested wait (Retry-After), when it asked for one. */
    readonly retryAfterMs?: number,
    /** The attempts spent. */
    readonly attempts = 1,
  ) {
    super(message, kind, statusOfKind(kind), retryable);
  }
}

export const TARGET_VARIABLES = ['question', 'distractors', 'itemId', 'runName'] as const;

export interface HttpTargetDeps {
  fetch?: typeof fetch;
  env?: NodeJS.ProcessEnv;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
}

/** Problems with the target configuration, one line each naming the key (exit 2 before any work). */
export function targetConfigProblems(config: TargetConfig, env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  if (config.mode === 'http' && !config.url)
    problems.push('config: experiment.target.url: is required when experiment.target.mode is http');
  const used = [...templateVariables(config.body), ...(config.url ? templateVariables(config.url) : [])];
  for (const name of used) {
    if (!(TARGET_VARIABLES as readonly string[]).includes(name)) {
      problems.push(
        `config: experiment.target.body: unknown template variable {{${name}}} (known: ${TARGET_VARIABLES.join(', ')})`,
      );
    }
  }
  for (const [header, value] of Object.entries(config.headers)) {
    try {
      expandEnv(value, env, `experiment.target.headers.${header}`);
    } catch (err) {
      problems.push(`config: ${(err as Error).message}`);
    }
  }
  const paths: Array<[string, string | undefined]> = [
    ['response.answer', config.response.answer],
    ['response.contexts', config.response.contexts],
    ['response.traceId', config.response.traceId],
    ['replay.answer', config.replay.answer],
    ['replay.contexts', config.replay.contexts],
  ];
  for (const [key, path] of paths) {
    if (path === undefined) continue;
    try {
      parsePath(path);
    } catch (err) {
      problems.push(`config: experiment.target.${key}: ${(err as Error).message}`);
    }
  }
  return problems;
}

export function createHttpTarget(config: TargetConfig, deps: HttpTargetDeps = {}): Target {
  if (!config.url) throw new TemplateError('experiment.target.url is required');
  const doFetch = deps.fetch ?? fetch;
  const env = deps.env ?? process.env;
  const now = deps.now ?? Date.now;
  const limiter = new Limiter(config.concurrency);
  const policy = { ...backoffs.target, attempts: config.maxAttempts };
  const mapping = responseMapping(config.response);
  const urlTemplate = config.url;
  const acceptsDistractors =
    templateVariables(config.body).includes('distractors') || templateVariables(urlTemplate).includes('distractors');

  async function attempt(request: TargetRequest, signal?: AbortSignal): Promise<{ json: unknown }> {
    const vars = { ...request };
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [name, value] of Object.entries(config.headers))
      headers[name] = expandEnv(value, env, `experiment.target.headers.${name}`);
    // The run's mark (docs/integrations.md): the service copies it into its trace, the online job leaves it out.
    headers[EXPERIMENT_RUN_HEADER] = headerValue(request.runName);
    headers[EXPERIMENT_ITEM_HEADER] = headerValue(request.itemId);
    let body: string | undefined;
    if (config.method !== 'GET') {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(renderBody(config.body, vars));
    }
    const deadline = AbortSignal.timeout(config.timeoutMs);
    const res = await doFetch(renderUrl(urlTemplate, vars), {
      method: config.method,
      headers,
      body,
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
    });
    const text = await res.text();
    if (!res.ok) {
      const retryable = res.status === 408 || res.status === 409 || res.status === 429 || res.status >= 500;
      throw new TargetError(
        `RAG service answered HTTP ${res.status}`,
        retryable,
        `http_${res.status}`,
        parseRetryAfter(res.headers, now()),
      );
    }
    try {
      return { json: JSON.parse(text) };
    } catch {
      throw new TargetError('RAG service answered with a body that is not JSON', false, 'invalid_response');
    }
  }

  return {
    description: `${config.method} ${safeUrl(urlTemplate)}`,
    acceptsDistractors,
    async ask(request, signal) {
      const release = await limiter.acquire(signal);
      const started = now();
      try {
        const { attempt: attempts, value } = await retry(
          policy,
          async ({ attempt: n }) => {
            try {
              return { attempt: n, value: mapping((await attempt(request, signal)).json) };
            } catch (err) {
              const failure = asTargetError(err, signal);
              throw new TargetError(failure.message, failure.retryable, failure.kind, failure.retryAfterMs, n);
            }
          },
          {
            shouldRetry: (err) => err instanceof TargetError && err.retryable,
            retryAfterMs: (err) => (err as TargetError).retryAfterMs,
            signal,
            sleep: deps.sleep,
            random: deps.random,
          },
        );
        return { ...value, latencyMs: now() - started, attempts };
      } catch (err) {
        if (err instanceof RetryAbortedError)
          throw new TargetError(`item ${request.itemId}: aborted`, false, 'aborted');
        const failure = err as TargetError;
        const n = failure.attempts;
        throw new TargetError(
          `item ${request.itemId}: ${failure.message} (after ${n} attempt${n === 1 ? '' : 's'})`,
          failure.retryable,
          failure.kind,
        );
      } finally {
        release();
      }
    },
  };
}

/** Scores outputs already stored with the dataset items (no call to the RAG service). */
export function createReplayTarget(config: TargetConfig['replay'], items: ReadonlyMap<string, unknown>): Target {
  const answerPath = parsePath(config.answer);
  const contextsPath = parsePath(config.contexts);
  return {
    description: `replay (${config.answer}, ${config.contexts})`,
    acceptsDistractors: false,
    async ask(request) {
      const item = items.get(request.itemId);
      if (item === undefined) throw new TargetError(`item ${request.itemId}: not in the dataset`, false);
      const answer = firstAnswer(evaluatePath(item, answerPath));
      if (!answer) throw new TargetError(`item ${request.itemId}: no stored answer at ${config.answer}`, false);
      return { answer, contexts: contextsAt(item, contextsPath), traceId: null, latencyMs: 0, attempts: 1 };
    },
  };
}

function responseMapping(response: TargetConfig['response']) {
  const answerPath = parsePath(response.answer);
  const contextsPath = parsePath(response.contexts);
  const tracePath: PathStep[] | null = response.traceId ? parsePath(response.traceId) : null;
  return (json: unknown): Omit<TargetAnswer, 'latencyMs' | 'attempts'> => {
    const answer = firstAnswer(evaluatePath(json, answerPath));
    if (answer === null) throw new TargetError(`RAG service response has no answer at ${response.answer}`, false);
    const traceValue = tracePath ? evaluatePath(json, tracePath)[0] : undefined;
    return {
      answer,
      contexts: contextsAt(json, contextsPath),
      traceId: typeof traceValue === 'string' && traceValue ? traceValue : null,
    };
  };
}

function firstAnswer(values: unknown[]): string | null {
  for (const v of values) {
    const a = answerFrom(v);
    if (a) return a;
  }
  return null;
}

function contextsAt(root: unknown, path: PathStep[]): string[] {
  return dedupeChunks(evaluatePath(root, path).flatMap((v) => chunksFrom(v)));
}

function asTargetError(err: unknown, signal?: AbortSignal): TargetError {
  if (err instanceof TargetError) return err;
  if (signal?.aborted) return new TargetError('aborted', false, 'aborted');
  if (err instanceof TemplateError) return new TargetError(err.message, false, 'invalid_request');
  if (isAbortError(err)) return new TargetError('timed out', true, 'timeout');
  return new TargetError(`cannot reach the RAG service: ${(err as Error)?.message ?? String(err)}`, true, 'connection');
}

/** Printable ASCII as it is, anything else percent-encoded (a header value is bytes, not text). */
function headerValue(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text.trim() : encodeURIComponent(text);
}

/** The URL without credentials or query, for logs and report metadata. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url.replace(/\{\{[^}]*\}\}/g, 'x'));
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}
