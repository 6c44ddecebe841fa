/**
 * A `Response` over a body that has already arrived in full (what the keep-alive fetch hands back).
 *
 * Building a WHATWG `Response` from a buffer costs more CPU than the loopback exchange it describes: undici
 * wraps every body in a ReadableStream (made transferable), and `json()`/`text()` read it back chunk by chunk
 * through the stream machinery. The online job makes about four requests per evaluated trace, so this one
 * answers `text()`, `json()`, `arrayBuffer()`, `bytes()` and `blob()` straight from the buffer, builds
 * `headers` only when asked, and creates a real `Response` only for what needs one (`body` as a stream,
 * `formData()`). It inherits from `Response.prototype` and overrides every member, so `instanceof Response`
 * holds and the body can be consumed once, as with fetch.
 */
export interface BufferedResponseInit {
  status: number;
  statusText: string;
  /** Headers as received, `[name, value, name, value, …]` (node:http's `rawHeaders`); repeats combine as fetch combines them. */
  headers: readonly string[];
  /** Header names left out (e.g. content-encoding after decoding). */
  omitHeaders?: ReadonlySet<string>;
  url: string;
}

const UNUSABLE = 'Body is unusable: Body has already been read';
const EMPTY = new Uint8Array(0);

export class BufferedResponse {
  readonly type = 'basic';
  readonly redirected = false;
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  #raw: readonly string[];
  #omit: ReadonlySet<string> | undefined;
  #headers: Headers | undefined;
  #bytes: Uint8Array | null;
  #used = false;
  /** The real Response, once something needs the body as a stream. */
  #stream: Response | undefined;

  constructor(body: Uint8Array | null, init: BufferedResponseInit) {
    this.#bytes = body;
    this.status = init.status;
    this.statusText = init.statusText;
    this.url = init.url;
    this.#raw = init.headers;
    this.#omit = init.omitHeaders;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get headers(): Headers {
    if (this.#headers === undefined) {
      const headers = new Headers();
      const raw = this.#raw;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        if (this.#omit?.has(raw[i]!.toLowerCase())) continue;
        headers.append(raw[i]!, raw[i + 1]!);
      }
      this.#headers = headers;
    }
    return this.#headers;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#bytes === null) return null;
    return this.#real().body;
  }

  get bodyUsed(): boolean {
    return this.#stream !== undefined ? this.#stream.bodyUsed : this.#used;
  }

  clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    if (this.#stream !== undefined) return this.#stream.clone();
    const copy = new BufferedResponse(this.#bytes, {
      status: this.status,
      statusText: this.statusText,
      headers: this.#raw,
      url: this.url,
      ...(this.#omit ? { omitHeaders: this.#omit } : {}),
    });
    return copy as unknown as Response;
  }

  text(): Promise<string> {
    if (this.#stream !== undefined) return this.#stream.text();
    return this.#take(utf8);
  }

  json(): Promise<unknown> {
    if (this.#stream !== undefined) return this.#stream.json() as Promise<unknown>;
    return this.#take((bytes) => JSON.parse(utf8(bytes)) as unknown);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#stream !== undefined) return this.#stream.arrayBuffer();
    return this.#take((bytes) => copy(bytes).buffer as ArrayBuffer);
  }

  bytes(): Promise<Uint8Array> {
    if (this.#stream !== undefined) return (this.#stream as unknown as { bytes(): Promise<Uint8Array> }).bytes();
    return this.#take(copy);
  }

  blob(): Promise<Blob> {
    if (this.#stream !== undefined) return this.#stream.blob();
    const type = this.headers.get('content-type') ?? '';
    return this.#take((bytes) => new Blob([bytes], { type }));
  }

  formData(): Promise<FormData> {
    return this.#real().formData();
  }

  #take<T>(read: (bytes: Uint8Array) => T): Promise<T> {
    if (this.#used) return Promise.reject(new TypeError(UNUSABLE));
    // As with fetch, a null body reads as empty any number of times; a body is read once.
    if (this.#bytes !== null) this.#used = true;
    try {
      return Promise.resolve(read(this.#bytes ?? EMPTY));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  #real(): Response {
    if (this.#stream === undefined) {
      this.#stream = new Response(this.#bytes, {
        status: this.status,
        statusText: this.statusText,
        headers: this.headers,
      });
      // Already read through this object: the stream is read too, so it reports used like fetch's would.
      if (this.#used) void this.#stream.arrayBuffer().catch(() => undefined);
    }
    return this.#stream;
  }
}

/** A copy of its own (Buffer's `slice` would share the pool's memory). */
function copy(bytes: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes);
}

/** UTF-8 decode as fetch does it (a leading byte order mark is dropped). */
function utf8(bytes: Uint8Array): string {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  return buf.toString('utf8', bom);
}

// Every member of Response.prototype is overridden above, so inheriting only makes `instanceof Response` true.
Object.setPrototypeOf(BufferedResponse.prototype, Response.prototype);
