import { CappedJsonParser, JsonSyntaxError } from './capped-json.js';

/** How much of one trace ragwatch reads and keeps (`langfuse.maxTraceBytes`, `langfuse.maxFieldBytes`). */
export interface ReadLimits {
  /** All the trace's responses together (v4 reads a trace in pages). */
  maxTraceBytes: number;
  /** One string (an input, an output, a metadata value). */
  maxFieldBytes: number;
}

/** What a trace lost to its read budget: recorded on its scores. */
export interface ReadCut {
  maxTraceBytes: number;
  maxFieldBytes: number;
  /** Strings cut to the field cap or to what was left of the trace budget. */
  fieldsCut: number;
  /** Values (observations, chunks, members) left out once the trace budget was spent. */
  valuesDropped: number;
}

/**
 * The byte budget of one trace, spent as its responses are read. A body is read as it streams in: while it is
 * smaller than both the field cap and what is left of the budget it is only held (then JSON.parse, the fast path
 * for ordinary traces); past that it goes through CappedJsonParser, which keeps what the budget allows. What a
 * body costs is counted only once it was read whole, so a failed attempt that is retried costs nothing.
 */
export class TraceReadBudget {
  private spent = 0;
  private fieldsCut = 0;
  private valuesDropped = 0;

  constructor(readonly limits: ReadLimits) {}

  get remaining(): number {
    return Math.max(0, this.limits.maxTraceBytes - this.spent);
  }

  /** Nothing worth reading is left: further pages of the trace are not fetched. */
  get exhausted(): boolean {
    return this.remaining < MIN_USEFUL_BYTES;
  }

  /** A page of the trace was left unread because the budget was spent (counted as one value dropped). */
  leftUnread(): void {
    this.valuesDropped += 1;
  }

  /** The cut, or null when the trace was read whole. */
  cut(): ReadCut | null {
    if (this.fieldsCut === 0 && this.valuesDropped === 0) return null;
    return { ...this.limits, fieldsCut: this.fieldsCut, valuesDropped: this.valuesDropped };
  }

  /** Reads one JSON body within what is left; an empty body is null. Throws JsonSyntaxError when it is not JSON. */
  async read(body: ReadableStream<Uint8Array>): Promise<unknown> {
    const decoder = new TextDecoder();
    const fastLimit = Math.min(this.limits.maxFieldBytes, this.remaining);
    const held: Uint8Array[] = [];
    let heldBytes = 0;
    let parser: CappedJsonParser | null = null;
    let wrote = false;
    for await (const chunk of body) {
      if (parser) {
        const text = decoder.decode(chunk, { stream: true });
        wrote ||= text.trim() !== '';
        parser.write(text);
        continue;
      }
      held.push(chunk);
      heldBytes += chunk.byteLength;
      if (heldBytes > fastLimit) {
        parser = new CappedJsonParser({ maxFieldBytes: this.limits.maxFieldBytes, maxBytes: this.remaining });
        for (const h of held.splice(0)) {
          const text = decoder.decode(h, { stream: true });
          wrote ||= text.trim() !== '';
          parser.write(text);
        }
      }
    }
    if (parser === null) {
      const text = decoder.decode(concat(held, heldBytes));
      this.spent += heldBytes;
      if (text.trim() === '') return null;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        // JSON.parse's message quotes the body: never carried on.
        throw new JsonSyntaxError('not valid JSON');
      }
    }
    const tail = decoder.decode();
    parser.write(tail);
    if (!wrote && tail.trim() === '') return null;
    const value = parser.end();
    this.spent += parser.keptBytes;
    this.fieldsCut += parser.fieldsCut;
    this.valuesDropped += parser.valuesDropped;
    return value;
  }
}

/** Below this, a page's worth of anything is not left: the rest of a trace is not read. */
const MIN_USEFUL_BYTES = 1024;

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Reads a body with only the field cap (listing pages: every row matters, so none is dropped). */
export function fieldCappedReader(maxFieldBytes: number): (body: ReadableStream<Uint8Array>) => Promise<unknown> {
  return (body) => new TraceReadBudget({ maxTraceBytes: Number.POSITIVE_INFINITY, maxFieldBytes }).read(body);
}
