import { classify, TITLES, type NameClass } from '../gazetteer/index.js';
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

/** Spelling as written → folded key and class: one Map lookup per word seen before. */
const infoCache = new Map<string, WordInfo>();
function infoOf(raw: string): WordInfo {
  let info = infoCache.get(raw);
  if (info === undefined) {
    const key = foldToken(raw).replace(/’/g, "'");
    info = { key, cls: classify(key) };
    if (infoCache.size >= 50_000) infoCache.clear();
    infoCache.set(raw, info);
  }
  return info;
}

const APOSTROPHE = 39;
const RIGHT_QUOTE = 0x2019;
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
  private readonly caps: boolean[] = [];
  private readonly ascii: boolean[] = [];
  private readonly tokens: Array<Token | undefined> = [];

  constructor(readonly text: string) {
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (!isLetterCode(text.charCodeAt(i))) {
        i++;
        continue;
      }
      const start = i;
      i++;
      let ascii = text.charCodeAt(start) < 128;
      for (;;) {
        for (; i < n; i++) {
          const c = text.charCodeAt(i);
          if (!isLetterOrMarkCode(c)) break;
          if (c >= 128) ascii = false;
        }
        const c = text.charCodeAt(i);
        if ((c === APOSTROPHE || c === RIGHT_QUOTE || c === HYPHEN) && i + 1 < n && isLetterCode(text.charCodeAt(i + 1))) {
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
      this.starts.push(start);
      this.ends.push(end);
      this.caps.push(cap);
      this.ascii.push(ascii);
    }
    this.length = this.starts.length;
  }

  at(i: number): Token | undefined {
    if (i < 0 || i >= this.length) return undefined;
    let t = this.tokens[i];
    if (t === undefined) {
      const start = this.starts[i]!;
      const end = this.ends[i]!;
      t = this.tokens[i] = new Token(this.text.slice(start, end), start, end, this.caps[i]!);
    }
    return t;
  }

  cap(i: number): boolean {
    return this.caps[i] === true;
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
   * False when word i is certainly neither a cue word nor a title, judged from its length and first and last
   * letters alone; true means "look it up".
   */
  mayBeCueOrTitle(i: number): boolean {
    const start = this.starts[i]!;
    const end = this.ends[i]!;
    // Accents (precomposed or combining) fold away: no cheap answer.
    if (!this.ascii[i]) return true;
    const len = end - start;
    if (len > MAX_CUE_LENGTH) return false;
    const first = this.text.charCodeAt(start) | 0x20;
    const last = this.text.charCodeAt(end - 1) | 0x20;
    return CUE_SHAPES[shape(first, last, len)] === 1;
  }
}

const MAX_CUE_LENGTH = 15;
const shape = (first: number, last: number, len: number) => ((first - 97) * 26 + (last - 97)) * (MAX_CUE_LENGTH + 1) + len;

/** First letter × last letter × length of every cue word and title. */
const CUE_SHAPES = new Uint8Array(26 * 26 * (MAX_CUE_LENGTH + 1));
for (const word of [...cueLastWords(), ...TITLES]) {
  const first = word.charCodeAt(0);
  const last = word.charCodeAt(word.length - 1);
  if (word.length > MAX_CUE_LENGTH) throw new Error(`cue word longer than ${MAX_CUE_LENGTH}: ${word}`);
  if (first >= 97 && first <= 122 && last >= 97 && last <= 122) CUE_SHAPES[shape(first, last, word.length)] = 1;
}
