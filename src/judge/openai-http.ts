/**
 * The two OpenAI-compatible calls the judge makes (chat completions, embeddings) as plain JSON POSTs over the
 * injected fetch.
 *
 * The openai SDK's request pipeline (options copied several times, default and platform headers merged per
 * call, log details formatted even with logging off, one more abort controller and timer per call) cost about
 * 100 µs of CPU per call against a loopback server — a third of the whole exchange — and ragwatch runs its own
 * deadline and retries around every call anyway (see `retry.ts`). The errors are still the SDK's classes, built
 * the way the SDK builds them (`APIError.generate` from the status, the error body and the headers), so the
 * retry policy (`failure.ts`) and anyone reading the errors see what the SDK would have thrown.
 */
import OpenAI from 'openai';
import { VERSION } from '../version.js';

export interface OpenAiHttpOptions {
  /** e.g. `http://vllm:8000/v1`. */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof globalThis.fetch;
}

export interface OpenAiHttp {
  /** POSTs `body` as JSON to `baseUrl + path`; resolves with the parsed answer, rejects with an SDK error. */
  post(path: string, body: unknown, signal: AbortSignal): Promise<unknown>;
}

export function createOpenAiHttp(options: OpenAiHttpOptions): OpenAiHttp {
  const base = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.apiKey}`,
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': `ragwatch/${VERSION}`,
  };

  return {
    async post(path, body, signal) {
      if (signal.aborted) throw new OpenAI.APIUserAbortError();
      let response: Response;
      try {
        response = await fetchImpl(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal });
      } catch (err) {
        if (signal.aborted) throw new OpenAI.APIUserAbortError();
        if (looksLikeTimeout(err)) throw new OpenAI.APIConnectionTimeoutError();
        throw new OpenAI.APIConnectionError({ cause: err instanceof Error ? err : new Error(String(err)) });
      }
      if (!response.ok) {
        const text = await response.text().catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
        const json = safeJson(text);
        throw OpenAI.APIError.generate(response.status, json, json === undefined ? text : undefined, response.headers);
      }
      return readBody(response);
    },
  };
}

/** As the SDK reads a successful answer: JSON when the media type says so, else the text; nothing for 204. */
async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim();
  if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
    if (response.headers.get('content-length') === '0') return undefined;
    return response.json();
  }
  return response.text();
}

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The SDK's test for a transport timeout: an AbortError, or "timed out" in the error or its cause. */
function looksLikeTimeout(err: unknown): boolean {
  if (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError') return true;
  return /timed? ?out/i.test(String(err) + (typeof err === 'object' && err !== null && 'cause' in err ? String((err as { cause: unknown }).cause) : ''));
}
