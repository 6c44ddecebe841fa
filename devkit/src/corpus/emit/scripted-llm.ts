import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lexicalEmbedding, toBase64 } from '../../judge/lexical-embedding.js';
import { hexId } from '../random.js';

/** Header naming the scripted completion a request wants back. */
export const COMPLETION_KEY_HEADER = 'x-demo-completion';

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface ScriptedCompletion {
  /** The assistant's text; null when the turn only calls tools. */
  content: string | null;
  model: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  toolCalls?: ScriptedToolCall[];
}

export interface ScriptedLlmServer {
  /** Base URL ending in `/v1`, for `new OpenAI({ baseURL })`. */
  url: string;
  /** Registers the completion the next request carrying `key` receives. */
  script(key: string, completion: ScriptedCompletion): void;
  /** Queues a completion for the next request that names no key (frameworks that send their own headers). */
  enqueue(...completions: ScriptedCompletion[]): void;
  /** Completions queued and not asked for yet. */
  pending(): number;
  close(): Promise<void>;
}

/** Embedding width served on `/v1/embeddings` (lexical vectors: texts sharing words are close). */
export const SCRIPTED_EMBEDDING_DIM = 64;

/**
 * The demo application's own LLM: an OpenAI-compatible `/v1/chat/completions` on loopback that answers
 * with the completion the generator wrote for each call, so the `openai` SDK, the `@langfuse/openai`
 * wrapper and the frameworks built on it run their real request and response paths (tool calls and
 * streaming included). `/v1/embeddings` answers lexical vectors for frameworks that index documents. It is
 * the RAG app's model, not the judge.
 */
export async function startScriptedLlmServer(options: { host?: string } = {}): Promise<ScriptedLlmServer> {
  const scripted = new Map<string, ScriptedCompletion>();
  const queue: ScriptedCompletion[] = [];
  let served = 0;
  const server = createServer((req, res) => void handle(req, res));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    } catch {
      send(400, { error: { message: 'request body is not JSON', type: 'invalid_request_error' } });
      return;
    }
    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      send(200, embeddings(body));
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      send(404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      return;
    }
    const key = String(req.headers[COMPLETION_KEY_HEADER] ?? '');
    const completion = key ? scripted.get(key) : queue.shift();
    if (!completion) {
      const what = key ? `key "${key}"` : 'an unkeyed request (queue empty)';
      send(400, { error: { message: `no scripted completion for ${what}`, type: 'invalid_request_error' } });
      return;
    }
    if (key) scripted.delete(key);
    const id = `chatcmpl-${hexId(24, 'demo-completion', key || `queue-${served}`)}`;
    served++;
    if (body.stream === true) streamCompletion(res, id, completion, body);
    else send(200, completionBody(id, completion));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    script: (key, completion) => void scripted.set(key, completion),
    enqueue: (...completions) => void queue.push(...completions),
    pending: () => queue.length + scripted.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function toolCalls(completion: ScriptedCompletion, id: string) {
  return (completion.toolCalls ?? []).map((call, i) => ({
    id: `call_${hexId(20, id, i)}`,
    type: 'function' as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

function completionBody(id: string, completion: ScriptedCompletion) {
  const calls = toolCalls(completion, id);
  return {
    id,
    object: 'chat.completion',
    created: 0,
    model: completion.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: completion.content,
          refusal: null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: completion.usage,
    system_fingerprint: 'fp_demo',
  };
}

/** The same completion as server-sent chunks: the text in a few pieces, tool calls whole, usage last when asked. */
function streamCompletion(
  res: ServerResponse,
  id: string,
  completion: ScriptedCompletion,
  body: Record<string, unknown>,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = {
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model: completion.model,
    system_fingerprint: 'fp_demo',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' }, null);
  const text = completion.content ?? '';
  const pieces = text.match(/[\s\S]{1,24}/g) ?? [];
  for (const piece of pieces) chunk({ content: piece }, null);
  const calls = toolCalls(completion, id);
  if (calls.length > 0) chunk({ tool_calls: calls.map((c, index) => ({ index, ...c })) }, null);
  chunk({}, calls.length > 0 ? 'tool_calls' : 'stop');
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage)
    res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: completion.usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

function embeddings(body: Record<string, unknown>) {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const base64 = body.encoding_format === 'base64';
  const data = inputs.map((input, index) => {
    const vector = lexicalEmbedding(typeof input === 'string' ? input : JSON.stringify(input), SCRIPTED_EMBEDDING_DIM);
    return { object: 'embedding', index, embedding: base64 ? toBase64(vector) : vector };
  });
  const tokens = inputs.reduce<number>((n, input) => n + String(input).split(/\s+/).length, 0);
  return {
    object: 'list',
    data,
    model: String(body.model ?? 'text-embedding-3-small'),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
