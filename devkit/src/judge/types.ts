/**
 * Public types of the judge stand-in: the view of a chat request that rules see, the rule contract, and the
 * server's options. The stand-in answers from transparent lexical rules; it is not a quality judge.
 */

/** One chat message with its content flattened to text (content parts joined by newlines). */
export interface JudgeMessage {
  role: string;
  content: string;
}

/** What a rule sees of a `POST /v1/chat/completions` request. */
export interface JudgeRequest {
  /** The JSON body exactly as received. */
  body: Record<string, unknown>;
  /** The model named in the request. */
  model: string;
  messages: JudgeMessage[];
  /** Every system message, joined by blank lines. */
  system: string;
  /**
   * Content of the last user message that carries the task ('' when there is none). A trailing repair turn
   * (assistant answer + user message without task parts, as a client sends after an unusable answer) is
   * skipped, so a retry sees the same task; `messages` still has every turn.
   */
  lastUser: string;
  /** How the answer is delivered: structured output, a forced tool call, a JSON object, or free text. */
  mode: 'json_schema' | 'tool_call' | 'json_object' | 'text';
  /** `response_format.json_schema.name` when the request asks for a json_schema answer. */
  schemaName?: string;
  /** Name of the tool the answer is a call of (tool_choice by name, or the first tool with 'required'). */
  toolName?: string;
  /** JSON Schema the answer must satisfy: response_format's schema or the called tool's parameters. */
  schema?: Record<string, unknown>;
}

/**
 * A lexical answering rule. Rules are tried in registry order; the first whose `matches` returns true
 * answers. The answer must be valid against `request.schema` (the server checks it with ajv and answers
 * 500 naming the rule when it is not, so a broken rule is loud).
 */
export interface JudgeRule {
  name: string;
  /** One line for the README: what the rule decides and how. */
  description?: string;
  matches(request: JudgeRequest): boolean;
  /** JSON value of the answer; in `text` mode a string is sent as is. */
  answer(request: JudgeRequest): unknown;
}

/** Service-time distribution of one request, in milliseconds. */
export type LatencyDistribution =
  | number
  | { kind: 'fixed'; ms: number }
  | { kind: 'uniform'; minMs: number; maxMs: number }
  /** Log-normal around a median: typical of LLM serving (a long right tail). */
  | { kind: 'lognormal'; medianMs: number; sigma: number }
  | ((random: () => number) => number);

export type JudgeRoute = 'chat' | 'embeddings' | 'models';

export type FaultKind =
  /** Chat: the content is cut JSON that does not parse (HTTP 200, finish_reason stop). Embeddings/models: the HTTP body is not JSON. */
  | 'malformed_json'
  /** Chat: valid JSON that does not match the requested schema. */
  | 'wrong_schema'
  /** Chat: the answer is cut at max_tokens (or mid-answer) with `finish_reason: 'length'`. */
  | 'truncated'
  /** Chat: the JSON arrives wrapped in a markdown fence (a quirk a tolerant client survives). */
  | 'fenced_json'
  /** Chat: `<think>…</think>` precedes the JSON in the content (a reasoning model without a reasoning parser). */
  | 'think_in_content'
  | 'http_500'
  | 'http_503'
  /** The request is read and never answered, until the client goes away or the server closes. */
  | 'hang'
  /** The connection is destroyed without an answer. */
  | 'reset'
  /** Extra latency (`ms`) before the request is served. */
  | 'latency'
  /** Embeddings: one vector too few (one too many for a single input). */
  | 'wrong_count'
  /** Embeddings: the last vector is one component short. */
  | 'wrong_dimension';

export interface JudgeServerOptions {
  host?: string;
  port?: number;
  /** Served chat model name; any model name in a request is accepted unless `strictModel`. */
  model?: string;
  /** The weights behind the served name, as vLLM's `/v1/models` says in `root` (default: the name). */
  modelRoot?: string;
  /**
   * The vLLM version the stand-in claims: served at `GET /version` (vLLM's own endpoint) and in an
   * `x-vllm-version` header on every answer; null claims none (default `STANDIN_VLLM_VERSION`).
   */
  vllmVersion?: string | null;
  embeddingModel?: string;
  /** Dimension of the lexical embedding vectors (default 256). */
  embeddingDim?: number;
  /** Answer 404 like vLLM when a request names another model (default false: any name is accepted). */
  strictModel?: boolean;
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (vLLM's `--api-key`). */
  apiKey?: string;
  /** Service time per request while it holds a slot (default 0). */
  serviceTimeMs?: LatencyDistribution;
  /** Extra service time per completion token (default 0). */
  msPerCompletionToken?: number;
  /**
   * Extra service time per prompt token while the request holds its slot (default 0), counted in the drawn
   * service time: long prompts take longer, as prefill does on a real server.
   */
  msPerPromptToken?: number;
  /** Requests served at once (vLLM's max_num_seqs; default 256); the rest queue without bound. */
  parallelism?: number;
  /** Extra rules tried before the built-in ones. */
  rules?: JudgeRule[];
  /** Leave out the built-in rules (the schema-driven fallback still answers). */
  builtinRules?: boolean;
  /** Seed of the stand-in's own PRNG (fault rates, latency draws). */
  seed?: number;
  /**
   * Reasoning-model mode: `field` puts thinking into `message.reasoning_content` (vLLM with a reasoning
   * parser), `inline` into the content as `<think>…</think>` (no parser). Either is switched off per request by
   * `chat_template_kwargs.enable_thinking: false`.
   */
  reasoning?: 'off' | 'field' | 'inline';
  /**
   * The removed `guided_json` / `guided_*` fields: `reject` (default) answers 400 so a client relying on them
   * fails loudly; `ignore` does what vLLM ≥ 0.12 really does (drops them silently and answers unconstrained).
   */
  legacyGuidedFields?: 'reject' | 'ignore';
  /** Accept `tool_choice: 'auto'` (vLLM needs --enable-auto-tool-choice; default false → 400 like vLLM). */
  autoToolChoice?: boolean;
  /** vLLM-like prefix cache block size, for `usage.prompt_tokens_details.cached_tokens` (default 16). */
  prefixCacheBlockSize?: number;
  /** Most recent requests kept in `requests` (default 10 000; older ones are dropped). */
  recordLimit?: number;
  /**
   * Fuzzing mode: structured answers drawn at random from everything the request's schema allows, and
   * embeddings from the vector edge cases (zero, opposite, identical, extreme), seeded (`true`: seed 1).
   * Scripted answers still win; faults still apply.
   */
  fuzz?: boolean | { seed?: number };
}
