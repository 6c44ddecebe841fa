/**
 * The one HTTP transport: a `fetch` for both jobs' JSON APIs (the judge through the `openai` SDK, Langfuse
 * through its HTTP core) on node:http/https with a keep-alive agent. Node 20's built-in fetch costs several
 * times more CPU per request than the exchange itself (WHATWG streams, Request objects, several abort signals);
 * the online job makes about four requests per evaluated trace, so this was the largest share of ragwatch's
 * own CPU.
 *
 * It keeps fetch's contract where the clients depend on it: a `Response` (one over the buffered body, see
 * buffered-response.ts); rejection with the signal's
 * reason on abort; `TypeError('fetch failed')` with the socket error as `cause` when the connection fails;
 * gzip/deflate/br bodies decoded. Redirects and streamed request bodies, which these APIs never use, are
 * handed to the fallback fetch so nothing behaves differently.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { BufferedResponse } from './buffered-response.js';
import { streamDecoded, streamRest } from './streamed-response.js';

export interface KeepAliveFetchOptions {
  /** Sockets per origin (default 256; the clients' own concurrency limits stay in charge). */
  maxSockets?: number;
  /**
   * Bodies up to this size (decoded) are buffered and handed back whole (default 1 MiB); a larger one is handed
   * back as a stream as soon as it passes it, so a reader that keeps only part of it (a trace under its byte
   * budget) never holds it whole.
   */
  bufferLimit?: number;
  /** Used for what this fetch does not handle itself (redirects, stream bodies). Default: the global fetch. */
  fallback?: typeof globalThis.fetch;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Describe the body as it came over the wire, not the decoded one handed back. */
const DECODED_HEADERS: ReadonlySet<string> = new Set(['content-encoding', 'content-length']);

export function createKeepAliveFetch(options: KeepAliveFetchOptions = {}): typeof globalThis.fetch {
  const maxSockets = options.maxSockets ?? 256;
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets }),
  };
  const fallback = options.fallback ?? globalThis.fetch;
  const bufferLimit = options.bufferLimit ?? 1024 * 1024;

  const keepAliveFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (typeof input !== 'string' && !(input instanceof URL)) return fallback(input, init);
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
      return fallback(input, init);
    const url = typeof input === 'string' ? new URL(input) : input;
    const agent = url.protocol === 'http:' ? agents['http:'] : url.protocol === 'https:' ? agents['https:'] : undefined;
    // fetch refuses credentials in the URL: let it say so.
    if (agent === undefined || url.username !== '' || url.password !== '') return fallback(input, init);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortReason(signal));

    // Headers go to node:http as a flat list: it validates them and writes them out as they are, skipping the
    // per-header bookkeeping of an object. A string body goes out in the same write as the headers.
    const headers = headerList(
      init?.headers,
      url.host,
      typeof body === 'string' ? Buffer.byteLength(body) : body?.byteLength,
    );
    const requestOptions: http.RequestOptions = {
      method: init?.method ?? 'GET',
      host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      headers,
      agent,
    };

    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => {
        req.destroy();
        finish(() => reject(abortReason(signal!)));
      };
      const requester = url.protocol === 'https:' ? https.request : http.request;
      const req = requester(requestOptions, (res) => {
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status) && res.headers.location !== undefined) {
          res.resume();
          finish(() => resolve(fallback(input, init)));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        // Read from the raw list: node:http's parsed `headers` object is built on first use, and nothing else needs it.
        const encoding = rawHeader(res.rawHeaders, 'content-encoding');
        const wire = { status, statusText: res.statusMessage ?? '', rawHeaders: res.rawHeaders, encoding };
        const onData = (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size <= bufferLimit || settled) return;
          // Too large to buffer: the rest streams to whoever reads the body.
          res.off('data', onData);
          res.off('end', onEnd);
          res.pause();
          const abortRequest = () => req.destroy();
          const response = streamRest(res, chunks.splice(0), wire, { signal, abortRequest, onError: fetchFailed });
          finish(() => resolve(response));
        };
        res.on('data', onData);
        res.on('error', (err) => finish(() => reject(fetchFailed(err))));
        const onEnd = () => {
          try {
            const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            const decoded = decode(raw, encoding, bufferLimit);
            if (decoded === null) return finish(() => resolve(streamDecoded(raw, wire)));
            const response = new BufferedResponse(NULL_BODY.has(status) ? null : decoded, {
              status,
              statusText: res.statusMessage ?? '',
              headers: res.rawHeaders,
              ...(encoding !== undefined ? { omitHeaders: DECODED_HEADERS } : {}),
              url: url.href,
            }) as unknown as Response;
            finish(() => resolve(response));
          } catch (err) {
            finish(() => reject(fetchFailed(err)));
          }
        };
        res.on('end', onEnd);
      });
      req.on('error', (err) => finish(() => reject(fetchFailed(err))));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (body === undefined || body === null) req.end();
      else req.end(body);
    });
  };
  return keepAliveFetch as typeof globalThis.fetch;
}

/** `[name, value, name, value, …]` with lower-case names, plus host, accept-encoding and content-length. */
function headerList(init: RequestInit['headers'], host: string, contentLength: number | undefined): string[] {
  const out: string[] = ['host', host];
  let acceptEncoding = false;
  const add = (name: string, value: string) => {
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'content-length') return;
    if (lower === 'accept-encoding') acceptEncoding = true;
    out.push(lower, value);
  };
  if (init instanceof Headers) init.forEach((value, name) => add(name, value));
  else if (Array.isArray(init)) for (const [name, value] of init as string[][]) add(name!, value!);
  else if (init !== undefined) for (const name of Object.keys(init)) add(name, (init as Record<string, string>)[name]!);
  if (!acceptEncoding) out.push('accept-encoding', 'gzip, deflate, br');
  if (contentLength !== undefined) out.push('content-length', String(contentLength));
  return out;
}

/** The first value of a header in node:http's `rawHeaders` list (names in any case). */
function rawHeader(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/** The decoded body, or null when it decodes to more than `limit` bytes (then it is decoded as a stream). */
function decode(raw: Buffer, encoding: string | undefined, limit: number): Buffer | null {
  const options = { maxOutputLength: limit };
  try {
    switch (encoding?.trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return zlib.gunzipSync(raw, options);
      case 'deflate':
        return zlib.inflateSync(raw, options);
      case 'br':
        return zlib.brotliDecompressSync(raw, options);
      default:
        return raw;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return null;
    throw err;
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** What the built-in fetch throws for a network failure: the socket error is the cause. */
function fetchFailed(err: unknown): TypeError {
  return new TypeError('fetch failed', { cause: err });
}
