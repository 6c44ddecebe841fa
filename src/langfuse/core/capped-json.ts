import { CUT_MARKER } from '../../sample.js';

/**
 * A streaming JSON parser that keeps at most a byte budget of what it reads: every string at most `maxFieldBytes`
 * (UTF-8), everything together at most `maxBytes`; past the total, array elements and object members are read
 * and dropped. Text arrives in chunks (`write`), so a 5 MB trace is never held whole, as text or as values.
 * The total may be passed by the root container and by the last value started within it (one field at most).
 *
 * On input that fits, `end()` returns exactly what `JSON.parse` returns (own `__proto__` keys included). A cut
 * string ends with the cut marker; a cut string that held JSON (Langfuse's raw-string IO) is repaired into
 * JSON again: its open strings closed (with the marker), incomplete numbers and members dropped, containers closed.
 */

export interface CappedJsonOptions {
  /** Most UTF-8 bytes kept of one string (key or value). */
  maxFieldBytes: number;
  /** Most bytes kept in all (strings, numbers, keys, punctuation). */
  maxBytes: number;
}

export interface CutCounts {
  /** Strings cut to the field cap or to what was left of the total. */
  fieldsCut: number;
  /** Array elements and object members left out once the total was spent. */
  valuesDropped: number;
}

export class JsonSyntaxError extends SyntaxError {
  override readonly name = 'JsonSyntaxError';
}

type Frame = {
  kind: 'object' | 'array';
  /** Null while the container is being skipped (the budget was spent before it started). */
  value: Record<string, unknown> | unknown[] | null;
  key: string | null;
  /** The member's key was dropped, so its value is too. */
  dropKey: boolean;
  /** 0 expecting a first key/element or the end, 1 expecting a key (after a comma), 2 colon, 3 value, 4 comma or end. */
  state: number;
};

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** Numbers are held whole while read; no real number is longer (JSON.parse would take one of any length). */
const MAX_TOKEN_LENGTH = 4096;
/** Below this much budget left, a value that starts is dropped rather than kept as a stub. */
const MIN_KEPT_BYTES = 64;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** How many UTF-16 code units of `text` fit in `maxBytes` of UTF-8, never splitting a surrogate pair. */
export function utf8PrefixLength(text: string, maxBytes: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += pair ? 2 : 1;
  }
  return i;
}

export class CappedJsonParser implements CutCounts {
  fieldsCut = 0;
  valuesDropped = 0;
  /** Bytes kept so far, as counted against `maxBytes`. */
  keptBytes = 0;

  private readonly stack: Frame[] = [];
  private root: unknown = undefined;
  private done = false;
  /** What is being read: a value or a container's next token (0), a string (1), a number or literal (2). */
  private mode: 0 | 1 | 2 = 0;
  // the string being read
  private stringIsKey = false;
  private stringKeep = false;
  private stringParts: string[] = [];
  private stringBytes = 0;
  private stringCap = 0;
  private stringCut = false;
  /** An escape split across chunks: the text after the backslash so far. */
  private pendingEscape: string | null = null;
  private token = '';
  private tokenKeep = false;
  /** Chunks written so far: what the remembered backslash position belongs to. */
  private chunks = 0;
  private backslashChunk = -1;
  private backslashAt = -1;

  constructor(private readonly options: CappedJsonOptions) {}

  private get budgetLeft(): number {
    return this.options.maxBytes - this.keptBytes;
  }

  /** Too little left to keep anything worth having: what starts now is dropped, never kept as a few bytes. */
  private get spent(): boolean {
    return this.budgetLeft < Math.min(MIN_KEPT_BYTES, this.options.maxBytes);
  }

  write(text: string): void {
    this.chunks++;
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.mode === 1) {
        i = this.readString(text, i);
        continue;
      }
      if (this.mode === 2) {
        const start = i;
        while (i < n && !isDelimiter(text.charCodeAt(i))) i++;
        this.token += text.slice(start, i);
        if (this.token.length > MAX_TOKEN_LENGTH) this.fail('a number longer than any number');
        if (i < n) this.endToken();
        continue;
      }
      const c = text.charCodeAt(i);
      if (WS.has(c)) {
        i++;
        continue;
      }
      this.structural(c, text[i] as string);
      i++;
    }
  }

  /** The whole document; throws JsonSyntaxError when it is incomplete or not JSON. */
  end(): unknown {
    if (this.mode === 2) this.endToken();
    if (!this.done || this.mode !== 0) throw new JsonSyntaxError('unexpected end of JSON input');
    return this.root;
  }

  /**
   * What a cut-off document held: an open string closed with the cut marker (a key is dropped with its member),
   * an incomplete number or literal dropped, open containers closed. Throws when no value had started.
   */
  endPartial(): unknown {
    // A number or literal at the cut may be missing its end ("12" of "125"): it is dropped, never guessed.
    if (this.mode === 2) this.mode = 0;
    if (this.mode === 1) {
      this.mode = 0;
      if (!this.stringIsKey && this.stringKeep) this.attach(`${this.stringParts.join('')}${CUT_MARKER}`);
    }
    while (this.stack.length > 0) this.closeContainer(true);
    if (!this.done) throw new JsonSyntaxError('no JSON value');
    return this.root;
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(`not valid JSON: ${what}`);
  }

  /** Whether a value starting now is kept: inside a skipped container or past the budget it is read and dropped. */
  private keepingNext(): boolean {
    const top = this.stack.at(-1);
    if (!top) return true;
    if (top.value === null || top.dropKey) return false;
    if (this.spent) {
      this.valuesDropped++;
      if (top.kind === 'object') top.dropKey = true;
      return false;
    }
    return true;
  }

  private structural(c: number, ch: string): void {
    const top = this.stack.at(-1);
    if (this.done) this.fail('text after the end');
    if (top && top.kind === 'object' && top.state !== 3) {
      if (c === 0x7d /* } */ && (top.state === 0 || top.state === 4)) return this.closeContainer();
      if (c === 0x2c /* , */ && top.state === 4) {
        top.state = 1;
        return;
      }
      if (c === 0x3a /* : */ && top.state === 2) {
        top.state = 3;
        return;
      }
      if (c === 0x22 /* " */ && (top.state === 0 || top.state === 1)) {
        // a key: kept unless the container or the budget says otherwise
        const keep = top.value !== null && !this.spent;
        if (top.value !== null && !keep) this.valuesDropped++;
        top.dropKey = !keep;
        return this.startString(true, keep);
      }
      this.fail(`unexpected ${JSON.stringify(ch)} in an object`);
    }
    if (top && top.kind === 'array' && top.state === 4) {
      if (c === 0x5d /* ] */) return this.closeContainer();
      if (c === 0x2c) {
        top.state = 1;
        return;
      }
      this.fail(`unexpected ${JSON.stringify(ch)} in an array`);
    }
    if (top && top.kind === 'array' && c === 0x5d && top.state === 0) return this.closeContainer();
    // a value
    const keep = this.keepingNext();
    if (c === 0x7b || c === 0x5b) {
      const kind = c === 0x7b ? 'object' : 'array';
      const value = keep ? (kind === 'object' ? {} : []) : null;
      if (keep) this.keptBytes += 2;
      this.stack.push({ kind, value, key: null, dropKey: false, state: 0 });
      return;
    }
    if (c === 0x22) return this.startString(false, keep);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      this.mode = 2;
      this.token = ch;
      this.tokenKeep = keep;
      return;
    }
    this.fail(`unexpected ${JSON.stringify(ch)}`);
  }

  private endToken(): void {
    const token = this.token;
    this.mode = 0;
    this.token = '';
    let value: unknown;
    if (token === 'true') value = true;
    else if (token === 'false') value = false;
    else if (token === 'null') value = null;
    else if (NUMBER.test(token)) value = Number(token);
    else this.fail('a malformed number or literal');
    if (this.tokenKeep) {
      this.keptBytes += token.length;
      this.attach(value);
    } else this.skipped();
  }

  private startString(isKey: boolean, keep: boolean): void {
    this.mode = 1;
    this.stringIsKey = isKey;
    this.stringKeep = keep;
    this.stringParts = [];
    this.stringBytes = 0;
    this.stringCut = false;
    this.pendingEscape = null;
    this.stringCap = keep ? Math.max(0, Math.min(this.options.maxFieldBytes, this.budgetLeft)) : 0;
  }

  /** Appends decoded text to the string being read, up to its cap. */
  private keep(piece: string): void {
    if (!this.stringKeep || this.stringCut || piece === '') return;
    const room = this.stringCap - this.stringBytes;
    // UTF-8 takes at most 3 bytes per UTF-16 code unit: most pieces need no counting against the cap.
    const fit = piece.length * 3 <= room ? piece.length : utf8PrefixLength(piece, room);
    const head = fit === piece.length ? piece : piece.slice(0, fit);
    if (head !== '') {
      this.stringParts.push(head);
      this.stringBytes += Buffer.byteLength(head);
    }
    if (fit < piece.length) this.stringCut = true;
  }

  /** Reads string content from `i`; returns where reading stopped (the end of `text` or after the closing quote). */
  private readString(text: string, i: number): number {
    const n = text.length;
    if (this.pendingEscape !== null) {
      const need = this.pendingEscape.startsWith('u') ? 5 : 1;
      const take = Math.min(need - this.pendingEscape.length, n - i);
      this.pendingEscape += text.slice(i, i + take);
      i += take;
      if (this.pendingEscape.length < need) return i;
      this.keep(this.decodeEscape(this.pendingEscape));
      this.pendingEscape = null;
    }
    while (i < n) {
      const quote = text.indexOf('"', i);
      let backslash = this.nextBackslash(text, i);
      if (backslash === -1 || (quote !== -1 && quote < backslash)) backslash = -1;
      const stop = backslash !== -1 ? backslash : quote;
      const end = stop === -1 ? n : stop;
      if (end > i) {
        const raw = text.slice(i, end);
        if (/[\u0000-\u001f]/.test(raw)) this.fail('a control character in a string');
        this.keep(raw);
      }
      if (stop === -1) return n;
      if (stop === quote) {
        this.finishString();
        return quote + 1;
      }
      // an escape
      const rest = text.slice(backslash + 1, backslash + 6);
      const need = rest.startsWith('u') ? 5 : 1;
      if (rest.length < need) {
        this.pendingEscape = rest;
        return n;
      }
      this.keep(this.decodeEscape(rest.slice(0, need)));
      i = backslash + 1 + need;
    }
    return i;
  }

  /**
   * The next backslash at or after `i`, remembered per chunk: a chunk of many short strings and no escapes would
   * otherwise be scanned to its end once per string.
   */
  private nextBackslash(text: string, i: number): number {
    if (this.backslashChunk !== this.chunks || (this.backslashAt !== -1 && this.backslashAt < i)) {
      this.backslashChunk = this.chunks;
      this.backslashAt = text.indexOf('\\', i);
    }
    return this.backslashAt;
  }

  private decodeEscape(escape: string): string {
    if (escape.startsWith('u')) {
      if (!/^u[0-9a-fA-F]{4}$/.test(escape)) this.fail('a malformed \\u escape');
      return String.fromCharCode(parseInt(escape.slice(1), 16));
    }
    const decoded = ESCAPES[escape];
    if (decoded === undefined) this.fail('a malformed escape');
    return decoded;
  }

  private finishString(): void {
    this.mode = 0;
    const top = this.stack.at(-1);
    if (!this.stringKeep) {
      if (this.stringIsKey) {
        if (top) top.state = 2;
      } else this.skipped();
      return;
    }
    let text = this.stringParts.join('');
    this.stringParts = [];
    if (this.stringIsKey) {
      if (top) {
        top.state = 2;
        // A key over the cap would be another key once cut (and could collide): the member is left out.
        if (this.stringCut) {
          top.dropKey = true;
          this.valuesDropped++;
          return;
        }
        top.key = text;
      }
      this.keptBytes += this.stringBytes + 2;
      return;
    }
    if (this.stringCut) {
      this.fieldsCut++;
      text = repairCut(text);
    }
    this.keptBytes += this.stringBytes + 2;
    this.attach(text);
  }

  private attach(value: unknown): void {
    const top = this.stack.at(-1);
    if (!top) {
      this.root = value;
      this.done = true;
      return;
    }
    if (top.kind === 'array') (top.value as unknown[]).push(value);
    else setOwn(top.value as Record<string, unknown>, top.key as string, value);
    top.key = null;
    top.dropKey = false;
    top.state = 4;
  }

  /** A value was read and dropped: its container moves on. */
  private skipped(): void {
    const top = this.stack.at(-1);
    if (!top) {
      this.done = true;
      return;
    }
    top.key = null;
    top.dropKey = false;
    top.state = 4;
  }

  /** Closes the innermost container; `partial` (a cut document) accepts a member or element left unfinished. */
  private closeContainer(partial = false): void {
    const frame = this.stack.pop() as Frame;
    if (frame.state === 1 && !partial) this.fail('a trailing comma');
    if (frame.value === null) this.skipped();
    else this.attach(frame.value);
  }
}

function isDelimiter(c: number): boolean {
  return WS.has(c) || c === 0x2c || c === 0x5d || c === 0x7d || c === 0x3a || c === 0x22 || c === 0x5b || c === 0x7b;
}

/** `obj[key] = value`, but a `__proto__` key stays an own property, as JSON.parse makes it. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== '__proto__') obj[key] = value;
  else Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A cut string: JSON-looking text is repaired into JSON (cut inside), anything else gets the cut marker. */
function repairCut(text: string): string {
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    try {
      const inner = new CappedJsonParser({ maxFieldBytes: Infinity, maxBytes: Infinity });
      inner.write(start);
      return JSON.stringify(inner.endPartial());
    } catch {
      // not JSON after all ("[INST] …"): a plain cut text
    }
  }
  return `${text}${CUT_MARKER}`;
}
