import { classify, TITLES, wordHash, type NameClass } from '../gazetteer/index.js';
import { isLetterCode, isLetterOrMarkCode, isUpperCode } from '../text/chars.js';
import { foldToken } from '../text/fold.js';
import { cueLastWords } from './person-cues.js';

/** One word of the text, with its folded key and gazetteer class computed on first use. */
export class Token {
  private info: WordInfo | undefined = undefined;
  constructor(
    readonly raw: string,
    readonly start: number,
    readonly end: number,
    readonly cap: boolean,
  ) {}
  get key(): string {
    return (this.info ??= infoOf(this.raw)).key;
  }
  get cls(): NameClass {
    return (this.info ??= infoOf(this.raw)).cls;
  }
}

interface WordInfo {
  key: string;
  cls: NameClass;
}

const SPANISH_ACCENT = /[áéíóúñàèòçÁÉÍÓÚÑÀÈÒÇ]/;

/** Spelling as written → folded key and class: one Map lookup per word seen before. */
const infoCache = new Map<string, WordInfo>();
function infoOf(raw: string): WordInfo {
  let info = infoCache.get(raw);
  if (info === undefined) {
    const key = foldToken(raw).replace(/’/g, "'");
    info = { key, cls: classify(key, SPANISH_ACCENT.test(raw)) };
    if (infoCache.size >= 50_000) infoCache.clear();
    infoCache.set(raw, info);
  }
  return info;
}

const APOSTROPHE = 39;
const CAP = 1;
/** The word may be a cue word or a title (see mayBeCueOrTitle). */
const CUE_SHAPED = 2;
/** What the text between the previous word and this one holds. */
export const GAP_COLON = 4;
export const GAP_EQUALS = 8;
export const GAP_NEWLINE = 16;
const RIGHT_QUOTE = 0x2019;
const COLON = 58;
const EQUALS = 61;
const NEWLINE = 10;
const HYPHEN = 45;

/**
 * The words of a text: a letter, then letters and combining marks, joined by apostrophes or hyphens ("O'Brien",
 * "Jean-Pierre"). Positions are found in one pass over the code units; a word becomes a {@link Token} (string,
 * key, gazetteer class) only when the recognizer looks at it, which most lower-case words never need.
 */
export class Words {
  readonly length: number;
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** CAP and ASCII bits per word. */
  private readonly flags: number[] = [];
  private readonly tokens: Array<Token | undefined> = [];

  constructor(readonly text: string) {
    const n = text.length;
    const { starts, ends, flags } = this;
    let gap = 0;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      // ASCII letters are decided inline: most of every text.
      if (c < 128 ? !((c | 0x20) >= 97 && (c | 0x20) <= 122) : !isLetterCode(c)) {
        if (c === COLON) gap |= GAP_COLON;
        else if (c === EQUALS) gap |= GAP_EQUALS;
        else if (c === NEWLINE) gap |= GAP_NEWLINE;
        i++;
        continue;
      }
      const start = i;
      i++;
      let ascii = c < 128;
      for (;;) {
        for (; i < n; i++) {
          c = text.charCodeAt(i);
          if (c < 128) {
            if (!((c | 0x20) >= 97 && (c | 0x20) <= 122)) break;
          } else if (isLetterOrMarkCode(c)) ascii = false;
          else break;
        }
        if (i >= n) break;
        if (
          (c === APOSTROPHE || c === RIGHT_QUOTE || c === HYPHEN) &&
          i + 1 < n &&
          isLetterCode(text.charCodeAt(i + 1))
        ) {
          if (c === RIGHT_QUOTE || text.charCodeAt(i + 1) >= 128) ascii = false;
          i += 2;
        } else break;
      }
      let end = i;
      const cap = isUpperCode(text.charCodeAt(start));
      // Placeholders written by an earlier pass ("<PERSON_1>") are not names.
      if (cap && start > 0 && text.charCodeAt(start - 1) === 60) {
        const raw = text.slice(start, end);
        if (raw === raw.toUpperCase()) continue;
      }
      // Possessives: "Smith's" is Smith.
      if (end - start > 3) {
        const last = text.charCodeAt(end - 1);
        const quote = text.charCodeAt(end - 2);
        if ((last === 115 || last === 83) && (quote === APOSTROPHE || quote === RIGHT_QUOTE)) end -= 2;
      }
      starts.push(start);
      ends.push(end);
      flags.push((cap ? CAP : 0) | (!ascii || cueShaped(text, start, end) ? CUE_SHAPED : 0) | gap);
      gap = 0;
    }
    this.length = starts.length;
  }

  at(i: number): Token | undefined {
    if (i < 0 || i >= this.length) return undefined;
    let t = this.tokens[i];
    if (t === undefined) {
      const start = this.starts[i]!;
      const end = this.ends[i]!;
      t = this.tokens[i] = new Token(this.text.slice(start, end), start, end, (this.flags[i]! & CAP) !== 0);
    }
    return t;
  }

  cap(i: number): boolean {
    return i < this.length && (this.flags[i]! & CAP) !== 0;
  }

  start(i: number): number {
    return this.starts[i]!;
  }

  end(i: number): number {
    return this.ends[i]!;
  }

  slice(from: number, to: number): Token[] {
    const out: Token[] = [];
    for (let k = Math.max(0, from); k < Math.min(to, this.length); k++) out.push(this.at(k)!);
    return out;
  }

  /**
   * False when word i is certainly not in the name set whose hash bits are `bits` (nameBits().given or .surname):
   * a word of ASCII lower-case letters whose bit is clear. Other words are looked up.
   */
  mayBeName(i: number, bits: Uint32Array): boolean {
    if (i >= this.length) return false;
    const start = this.starts[i]!;
    const end = this.ends[i]!;
    for (let k = start; k < end; k++) {
      const c = this.text.charCodeAt(k);
      if (c < 97 || c > 122) return true;
    }
    const h = wordHash(this.text, start, end);
    return (bits[h >>> 5]! & (1 << (h & 31))) !== 0;
  }

  /** False when word i is certainly neither a cue word nor a title (see cueShaped); true means "look it up". */
  mayBeCueOrTitle(i: number): boolean {
    return (this.flags[i]! & CUE_SHAPED) !== 0;
  }

  /** GAP_* bits: a colon, an equals sign or a line break between word i-1 (or the text's start) and word i. */
  gap(i: number): number {
    return this.flags[i]! & (GAP_COLON | GAP_EQUALS | GAP_NEWLINE);
  }
}

/**
 * Whether an ASCII word could be a cue word or a title, judged from its length and first and last letters alone.
 * (Words with accents, precomposed or combining, fold away: they are always looked up.)
 */
function cueShaped(text: string, start: number, end: number): boolean {
  const len = end - start;
  if (len > MAX_CUE_LENGTH) return false;
  const first = text.charCodeAt(start) | 0x20;
  const last = text.charCodeAt(end - 1) | 0x20;
  return CUE_SHAPES[shape(first, last, len)] === 1;
}

const MAX_CUE_LENGTH = 15;
const shape = (first: number, last: number, len: number) =>
  ((first - 97) * 26 + (last - 97)) * (MAX_CUE_LENGTH + 1) + len;

/** First letter × last letter × length of every cue word and title. */
const CUE_SHAPES = new Uint8Array(26 * 26 * (MAX_CUE_LENGTH + 1));
for (const word of [...cueLastWords(), ...TITLES]) {
  const first = word.charCodeAt(0);
  const last = word.charCodeAt(word.length - 1);
  if (word.length > MAX_CUE_LENGTH) throw new Error(`cue word longer than ${MAX_CUE_LENGTH}: ${word}`);
  if (first >= 97 && first <= 122 && last >= 97 && last <= 122) CUE_SHAPES[shape(first, last, word.length)] = 1;
}
