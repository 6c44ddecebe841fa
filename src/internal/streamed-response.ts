/**
 * A `Response` whose body streams from a node:http response still arriving: what the keep-alive fetch hands back
 * for a body larger than it buffers (a 5 MB trace), so the reader keeps only what it wants and the socket's
 * backpressure holds the rest on the server. Errors (a broken connection, the caller's abort) error the stream.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable, pipeline } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import zlib from 'node:zlib';

export interface StreamedResponseInit {
  status: number;
  statusText: string;
  /** `[name, value, …]` as received. */
  rawHeaders: readonly string[];
  /** Content-Encoding of the body as it comes over the wire (decoded here); undefined for none. */
  encoding: string | undefined;
}

/** Header names that describe the wire body, not the decoded one handed back. */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length']);

function decoderFor(encoding: string | undefined): NodeJS.ReadWriteStream | null {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

function headersOf(raw: readonly string[], decoded: boolean): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (decoded && WIRE_HEADERS.has(raw[i]!.toLowerCase())) continue;
    headers.append(raw[i]!, raw[i + 1]!);
  }
  return headers;
}

/** Wraps a wire-body source (decoded on the way) in a Response; `destroy` errors it with a reason. */
function responseOver(
  source: Readable,
  init: StreamedResponseInit,
): { response: Response; destroy: (e: unknown) => void } {
  const decoder = decoderFor(init.encoding);
  const body: Readable = decoder ? (pipeline(source, decoder, () => {}) as unknown as Readable) : source;
  const web = Readable.toWeb(body) as NodeReadableStream<Uint8Array>;
  const response = new Response(web as unknown as ReadableStream<Uint8Array>, {
    status: init.status,
    statusText: init.statusText,
    headers: headersOf(init.rawHeaders, decoder !== null),
  });
  return { response, destroy: (reason) => body.destroy(reason instanceof Error ? reason : new Error(String(reason))) };
}

/**
 * The rest of `res`, after the chunks already read, as a streamed Response. `onError` turns a socket error into
 * what fetch would reject with; `signal` aborts the stream (and the request) until the body has been read.
 */
export function streamRest(
  res: IncomingMessage,
  already: readonly Buffer[],
  init: StreamedResponseInit,
  options: { signal?: AbortSignal; abortRequest: () => void; onError: (err: unknown) => Error },
): Response {
  const source = new PassThrough();
  for (const chunk of already) source.write(chunk);
  res.pipe(source);
  const { response, destroy } = responseOver(source, init);
  const onAbort = () => {
    options.abortRequest();
    destroy(options.signal?.reason ?? new DOMException('This operation was aborted', 'AbortError'));
  };
  const done = () => options.signal?.removeEventListener('abort', onAbort);
  res.on('error', (err) => destroy(options.onError(err)));
  res.on('close', () => {
    if (!res.complete) destroy(options.onError(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
    done();
  });
  // A reader that stops early (cancels the body) leaves the rest unread: the socket cannot be reused, so it goes.
  source.on('close', () => {
    if (!res.complete) options.abortRequest();
  });
  options.signal?.addEventListener('abort', onAbort, { once: true });
  return response;
}

/** A body that arrived whole (small on the wire) but decodes to more than is buffered: decoded as it is read. */
export function streamDecoded(raw: Buffer, init: StreamedResponseInit): Response {
  return responseOver(Readable.from([raw]), init).response;
}
