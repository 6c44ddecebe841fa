/**
 * The judge stand-in: an OpenAI-compatible HTTP server that behaves like vLLM where ragwatch depends on it
 * (error shapes and messages, no 429, an unbounded queue in front of a fixed number of serving slots) and
 * answers from transparent lexical rules. It is a test and demo fixture, not a quality judge.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { decideAnswer } from './chat-answer.js';
import { parseChat } from './chat-request.js';
import { buildCompletion } from './chat-response.js';
import { answerEmbeddings, parseEmbeddingsRequest } from './embeddings.js';
import { JudgeFuzzer, type FuzzStats } from './fuzz/index.js';
import { FaultController } from './faults.js';
import { HttpError, STANDIN_NOTICE, readBody, safeHeaders, sendError, sendJson, sendRaw } from './http-util.js';
import { SlotLimiter, wait } from './limiter.js';
import { streamCompletion } from './stream.js';
import { PrefixCache } from './prefix-cache.js';
import { drawLatency, seededRandom } from './random.js';
import { builtinRules } from './rules/index.js';
import { Script } from './script.js';
import { promptTokens } from './tokens.js';
import type { FaultKind, JudgeRoute, JudgeRule, JudgeServerOptions, LatencyDistribution } from './types.js';

export const DEFAULT_MODEL = 'ragwatch-standin-judge';
export const DEFAULT_EMBEDDING_MODEL = 'ragwatch-standin-embeddings';
export const STANDIN_VLLM_VERSION = '0.11.0+standin';

export interface RecordedRequest {
  id: number;
  method: string;
  path: string;
  /** Parsed JSON body (the raw text when it is not JSON, undefined when empty). */
  body: unknown;
  /** Request headers without credentials. */
  headers: Record<string, string>;
  receivedAt: number;
  status?: number;
  fault?: FaultKind;
  /** Who answered a chat request: `script`, a rule name or `fallback`. */
  answeredBy?: string;
  usage?: { promptTokens: number; completionTokens: number; cachedTokens: number };
  /** Legacy fields dropped under `legacyGuidedFields: 'ignore'`. */
  ignoredFields?: string[];
  /** A matching rule that threw or broke the schema (the fallback answered instead): a stand-in bug. */
  ruleError?: string;
}

export interface JudgeServerStats {
  received: number;
  /** Requests received and not yet answered or abandoned, now and at most. */
  open: number;
  maxOpen: number;
  /** Requests holding a serving slot, now and at most. */
  inService: number;
  maxInService: number;
  queued: number;
  maxQueued: number;
  /** Since start, in request·milliseconds: time integrals of the requests in service, and of those plus the queued ones (occupancy over a period = difference / period / parallelism). */
  inServiceMs: number;
  inFlightMs: number;
  /** Serving slots handed out since start (requests that got past the queue). */
  granted: number;
  /** Sum of the service times drawn since start (ms): the judge-bound ideal of the work is this ÷ parallelism. */
  serviceDrawnMs: number;
  /** The longest single service time drawn since start (ms): no schedule finishes its work sooner. */
  maxServiceDrawnMs: number;
  parallelism: number;
}

export interface JudgeServer {
  /** Base URL ending in `/v1`, for `new OpenAI({ baseURL })`. */
  readonly url: string;
  readonly model: string;
  readonly embeddingModel: string;
  readonly embeddingDim: number;
  /** Every request received, in order (bodies parsed, credentials removed). */
  readonly requests: RecordedRequest[];
  readonly faults: FaultController;
  readonly script: Script;
  /** What the fuzzing mode drew (null when the mode is off). */
  fuzzStats(): FuzzStats | null;
  setServiceTime(dist: LatencyDistribution): void;
  setParallelism(n: number): void;
  /** Holds every new request in the queue until `resume()` (for deterministic concurrency tests). */
  pause(): void;
  resume(): void;
  /** What the server says it is from now on (a judge upgraded in place). */
  setIdentity(identity: { modelRoot?: string; vllmVersion?: string | null }): void;
  stats(): JudgeServerStats;
  close(): Promise<void>;
}

export async function startJudgeServer(options: JudgeServerOptions = {}): Promise<JudgeServer> {
  const model = options.model ?? DEFAULT_MODEL;
  const embeddingModel = options.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
  const embeddingDim = options.embeddingDim ?? 256;
  let modelRoot = options.modelRoot ?? model;
  let vllmVersion = options.vllmVersion === undefined ? STANDIN_VLLM_VERSION : options.vllmVersion;
  const rules: readonly JudgeRule[] = [
    ...(options.rules ?? []),
    ...(options.builtinRules === false ? [] : builtinRules),
  ];
  const random = seededRandom(options.seed ?? 42);
  const faults = new FaultController(options.seed ?? 42);
  const script = new Script();
  const fuzzer = options.fuzz
    ? new JudgeFuzzer(typeof options.fuzz === 'object' ? (options.fuzz.seed ?? 1) : 1)
    : undefined;
  const limiter = new SlotLimiter(options.parallelism ?? 256);
  const prefixCache = new PrefixCache(options.prefixCacheBlockSize ?? 16);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const live = new Set<AbortController>();
  let serviceTime: LatencyDistribution = options.serviceTimeMs ?? 0;
  let parallelism = options.parallelism ?? 256;
  let serviceDrawnMs = 0;
  let maxServiceDrawnMs = 0;
  const recordLimit = options.recordLimit ?? 10_000;
  let nextId = 1;
  let open = 0;
  let maxOpen = 0;

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const gone = new AbortController();
    live.add(gone);
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    res.on('close', () => {
      open -= 1;
      live.delete(gone);
      if (!res.writableFinished) gone.abort(new Error('client went away'));
    });
    const record: RecordedRequest = {
      id: nextId++,
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0] ?? '/',
      body: undefined,
      headers: safeHeaders(req),
      receivedAt: Date.now(),
    };
    requests.push(record);
    if (requests.length > recordLimit) requests.splice(0, requests.length - recordLimit);
    res.on('finish', () => {
      record.status = res.statusCode;
    });
    if (vllmVersion !== null) res.setHeader('x-vllm-version', vllmVersion);
    try {
      const text = await readBody(req);
      if (text !== '') record.body = parseJsonOr(text);
      if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        sendJson(res, 401, { error: 'Unauthorized' });
        return;
      }
      await route(res, record, gone.signal);
    } catch (err) {
      if (gone.signal.aborted) return;
      if (err instanceof HttpError) sendError(res, err);
      else sendError(res, new HttpError(500, `stand-in internal error: ${(err as Error).message}`));
    }
  }

  async function route(res: ServerResponse, record: RecordedRequest, signal: AbortSignal): Promise<void> {
    const key = `${record.method} ${record.path.replace(/\/+$/, '')}`;
    switch (key) {
      case 'POST /v1/chat/completions':
        return chat(res, record, signal);
      case 'POST /v1/embeddings':
        return embeddings(res, record, signal);
      case 'GET /v1/models':
        return models(res, record, signal);
      case 'GET /version':
        if (vllmVersion === null) sendJson(res, 404, { detail: 'Not Found' });
        else sendJson(res, 200, { version: vllmVersion });
        return;
      case 'GET /health':
        if (res.writable) res.writeHead(200).end();
        return;
      default: {
        const known = ['/v1/chat/completions', '/v1/embeddings', '/v1/models', '/health'].includes(record.path);
        sendJson(res, known ? 405 : 404, { detail: known ? 'Method Not Allowed' : 'Not Found' });
      }
    }
  }

  function checkModel(body: unknown, served: string): void {
    const requested = (body as { model?: unknown } | undefined)?.model;
    if (options.strictModel && typeof requested === 'string' && requested !== served) {
      throw new HttpError(404, `The model \`${requested}\` does not exist.`, 'NotFoundError', 'model');
    }
  }

  /** Applies the route's faults; resolves true when the request must go on to be served. */
  async function applyFaults(res: ServerResponse, record: RecordedRequest, route: JudgeRoute, signal: AbortSignal) {
    const { fault, latencyMs } = faults.take(route);
    if (latencyMs > 0) await wait(latencyMs, signal);
    if (fault) record.fault = fault.kind;
    switch (fault?.kind) {
      case 'hang':
        await wait(Infinity, signal);
        return { go: false as const };
      case 'reset':
        res.socket?.destroy();
        return { go: false as const };
      case 'http_500':
        throw new HttpError(500, 'stand-in fault: internal server error', 'InternalServerError');
      case 'http_503':
        throw new HttpError(503, 'stand-in fault: service unavailable', 'ServiceUnavailableError');
      case 'malformed_json':
        if (route !== 'chat') {
          sendRaw(res, 200, '{"object": "list", "data": [{"embedd');
          return { go: false as const };
        }
        break;
      default:
        break;
    }
    return { go: true as const, fault };
  }

  async function serve<T>(signal: AbortSignal, extraMs: number, work: () => T): Promise<T> {
    const release = await limiter.acquire(signal);
    try {
      const drawn = drawLatency(serviceTime, random) + extraMs;
      serviceDrawnMs += drawn;
      maxServiceDrawnMs = Math.max(maxServiceDrawnMs, drawn);
      await wait(drawn, signal);
      return work();
    } finally {
      release();
    }
  }

  async function chat(res: ServerResponse, record: RecordedRequest, signal: AbortSignal): Promise<void> {
    checkModel(record.body, model);
    const parsed = parseChat(record.body, model, {
      legacyGuidedFields: options.legacyGuidedFields ?? 'reject',
      autoToolChoice: options.autoToolChoice ?? false,
    });
    if (parsed.ignoredFields.length > 0) record.ignoredFields = parsed.ignoredFields;
    const faulted = await applyFaults(res, record, 'chat', signal);
    if (!faulted.go) return;
    const fuzz = fuzzer
      ? { fuzzer, ...(parsed.maxTokens !== undefined ? { maxTokens: parsed.maxTokens } : {}) }
      : undefined;
    const answer = decideAnswer(parsed.request, script, rules, fuzz);
    record.answeredBy = answer.source;
    if (answer.ruleError !== undefined) record.ruleError = answer.ruleError;
    const tokens = promptTokens(parsed.request.messages, parsed.tools);
    const built = await serve(signal, (options.msPerPromptToken ?? 0) * tokens.length, () => {
      const cachedTokens = prefixCache.lookup(tokens);
      return {
        cachedTokens,
        ...buildCompletion({
          parsed,
          answer,
          fault: faulted.fault,
          reasoning: options.reasoning ?? 'off',
          promptTokens: tokens.length,
          cachedTokens,
        }),
      };
    });
    if (options.msPerCompletionToken) await wait(options.msPerCompletionToken * built.completionTokens, signal);
    record.usage = {
      promptTokens: tokens.length,
      completionTokens: built.completionTokens,
      cachedTokens: built.cachedTokens,
    };
    const headers: Record<string, string> = { 'x-ragwatch-standin-answered-by': answer.source };
    if (parsed.ignoredFields.length > 0) headers['x-ragwatch-standin-ignored-fields'] = parsed.ignoredFields.join(',');
    if (answer.ruleError !== undefined)
      headers['x-ragwatch-standin-rule-error'] = answer.ruleError.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);
    const body = record.body as { stream?: unknown; stream_options?: { include_usage?: unknown } };
    if (body.stream === true) streamCompletion(res, built.body, body.stream_options?.include_usage === true, headers);
    else sendJson(res, 200, built.body, headers);
  }

  async function embeddings(res: ServerResponse, record: RecordedRequest, signal: AbortSignal): Promise<void> {
    checkModel(record.body, embeddingModel);
    const request = parseEmbeddingsRequest(record.body, embeddingModel, embeddingDim);
    const faulted = await applyFaults(res, record, 'embeddings', signal);
    if (!faulted.go) return;
    const kind = faulted.fault?.kind;
    const answer = answerEmbeddings(request, embeddingDim, script, {
      ...(fuzzer ? { fuzzer } : {}),
      ...(kind === 'wrong_count' || kind === 'wrong_dimension' ? { fault: kind } : {}),
    });
    await serve(signal, 0, () => undefined);
    record.usage = { promptTokens: answer.promptTokens, completionTokens: 0, cachedTokens: 0 };
    sendJson(res, 200, answer.body);
  }

  async function models(res: ServerResponse, record: RecordedRequest, signal: AbortSignal): Promise<void> {
    const faulted = await applyFaults(res, record, 'models', signal);
    if (!faulted.go) return;
    const created = Math.floor(Date.now() / 1000);
    const entry = (id: string, kind: string) => ({
      id,
      object: 'model',
      created,
      owned_by: 'ragwatch-standin',
      root: id === model ? modelRoot : id,
      parent: null,
      max_model_len: 32768,
      description: `ragwatch ${kind} ${STANDIN_NOTICE}`,
      permission: [],
    });
    sendJson(res, 200, { object: 'list', data: [entry(model, 'chat'), entry(embeddingModel, 'embeddings')] });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}/v1`,
    model,
    embeddingModel,
    embeddingDim,
    requests,
    faults,
    script,
    fuzzStats: () => fuzzer?.stats() ?? null,
    setServiceTime(dist) {
      serviceTime = dist;
    },
    setIdentity(identity) {
      if (identity.modelRoot !== undefined) modelRoot = identity.modelRoot;
      if (identity.vllmVersion !== undefined) vllmVersion = identity.vllmVersion;
    },
    setParallelism(n) {
      limiter.setParallelism(n);
      parallelism = n;
    },
    pause() {
      limiter.pause();
    },
    resume() {
      limiter.resume();
    },
    stats() {
      limiter.settle();
      return {
        received: requests.length,
        open,
        maxOpen,
        inService: limiter.active,
        maxInService: limiter.maxInService,
        queued: limiter.queued,
        maxQueued: limiter.maxQueued,
        inServiceMs: limiter.inServiceMs,
        inFlightMs: limiter.inFlightMs,
        granted: limiter.granted,
        serviceDrawnMs,
        maxServiceDrawnMs,
        parallelism,
      };
    },
    async close() {
      for (const c of live) c.abort(new Error('stand-in closing'));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
