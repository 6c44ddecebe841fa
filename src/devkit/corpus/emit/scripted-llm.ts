import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hexId } from '../random.js';

/** Header naming the scripted completion a request wants back. */
export const COMPLETION_KEY_HEADER = 'x-demo-completion';

export interface ScriptedCompletion {
  content: string;
  model: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface ScriptedLlmServer {
  /** Base URL ending in `/v1`, for `new OpenAI({ baseURL })`. */
  url: string;
  /** Registers the completion the next request carrying `key` receives. */
  script(key: string, completion: ScriptedCompletion): void;
  close(): Promise<void>;
}

/**
 * The demo application's own LLM: an OpenAI-compatible `/v1/chat/completions` on loopback that answers
 * with the completion the generator wrote for each call, so the `openai` SDK and the `@langfuse/openai`
 * wrapper run their real request and response paths. It is the RAG app's model, not the judge.
 */
export async function startScriptedLlmServer(options: { host?: string } = {}): Promise<ScriptedLlmServer> {
  const scripted = new Map<string, ScriptedCompletion>();
  const server = createServer((req, res) => void handle(req, res));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      send(404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      return;
    }
    const key = String(req.headers[COMPLETION_KEY_HEADER] ?? '');
    const completion = scripted.get(key);
    if (!completion) {
      send(400, { error: { message: `no scripted completion for key "${key}"`, type: 'invalid_request_error' } });
      return;
    }
    scripted.delete(key);
    send(200, {
      id: `chatcmpl-${hexId(24, 'demo-completion', key)}`,
      object: 'chat.completion',
      created: 0,
      model: completion.model,
      choices: [{ index: 0, message: { role: 'assistant', content: completion.content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: completion.usage,
      system_fingerprint: 'fp_demo',
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    script: (key, completion) => void scripted.set(key, completion),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
