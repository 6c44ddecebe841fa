/**
 * The text the recognizers read, as Presidio-style engines do: a shadow copy with NFKC applied, invisible
 * characters (format characters and other default-ignorables: zero-width space, joiners, word joiner, soft
 * hyphen, bidi marks, variation selectors) dropped, every Unicode space turned into a space, decimal digits of
 * every script into ASCII digits and hyphen-like dashes into '-'. "DNI １２３４​５６７８Ｚ" is read as "DNI 12345678Z".
 * Recognizers run on the shadow; an offset map takes each span back to the original, where it is replaced.
 *
 * Kept as written: the Spanish ordinal indicators º and ª (NFKC makes them letters: "3.º B" would read "3.o B").
 * A text with nothing to normalise has no shadow (`shadowOf` returns undefined): an all-ASCII or ordinary
 * Spanish text costs one native regex scan.
 */
export interface Shadow {
  /** The normalised text. */
  readonly text: string;
  /** Original offset of a span that starts at shadow offset `s`. */
  start(s: number): number;
  /** Original offset of a span that ends at shadow offset `e` (e > 0). */
  end(e: number): number;
}

const KEEP = 1;
const CHANGE = 2;
const MARK = 3;
const HIGH_SURROGATE = 4;

const kinds = new Uint8Array(65536);
const replacements = new Map<number, string>();
const astral = new Map<number, string | null>();

const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{Cf}]$/u;
const SPACE = /^\p{Zs}$/u;
const DIGIT = /^\p{Nd}$/u;
const IS_MARK = /^\p{M}$/u;
const ORDINALS = new Set([0xaa, 0xba]);
const DASHES = new Set([0x2010, 0x2011, 0x2012, 0x2013, 0x2212, 0xfe63, 0xff0d]);

/** The value of a decimal digit of any script: its distance from the first digit of its run of ten. */
function digitValue(code: number): number {
  let zero = code;
  while (zero > 0 && DIGIT.test(String.fromCodePoint(zero - 1)) && code - zero < 9) zero--;
  return (code - zero) % 10;
}

/** What one character (a code point) reads as, after NFKC. */
function mapAfterNfkc(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (IGNORABLE.test(ch)) return '';
  if (code === 0x2028 || code === 0x2029) return '\n';
  if (SPACE.test(ch)) return ' ';
  if (DASHES.has(code)) return '-';
  if (code >= 128 && DIGIT.test(ch)) return String(digitValue(code));
  return ch;
}

function mapString(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFKC')) out += mapAfterNfkc(ch);
  return out;
}

function kindOf(code: number): number {
  let kind = kinds[code]!;
  if (kind !== 0) return kind;
  if (code >= 0xd800 && code <= 0xdbff) kind = HIGH_SURROGATE;
  else if (code >= 0xdc00 && code <= 0xdfff) kind = KEEP;
  else {
    const ch = String.fromCharCode(code);
    const mapped = ORDINALS.has(code) ? ch : IGNORABLE.test(ch) ? '' : IS_MARK.test(ch) ? null : mapString(ch);
    if (mapped === null) kind = MARK;
    else if (mapped === ch) kind = KEEP;
    else {
      kind = CHANGE;
      replacements.set(code, mapped);
    }
  }
  kinds[code] = kind;
  return kind;
}

function astralReplacement(cp: number): string | null {
  let r = astral.get(cp);
  if (r === undefined) {
    const ch = String.fromCodePoint(cp);
    const mapped = mapString(ch);
    r = mapped === ch ? null : mapped;
    if (astral.size < 10_000) astral.set(cp, r);
  }
  return r;
}

/**
 * Characters that may need normalising: everything but ASCII and the Latin letters, punctuation and symbols that
 * NFKC and the rules above leave as they are (accented letters, ¿ ¡ « » º ª · € “ ” ‘ ’ — •). Spanish and English
 * text usually has none: one native scan, then no shadow.
 */
const MAY_CHANGE =
  /[^\x00-\x7f\u00a1-\u00a7\u00a9-\u00ac\u00ae\u00b0\u00b1\u00b6\u00b7\u00ba\u00bb\u00bf-\u0131\u0134-\u013e\u0141-\u0148\u014a-\u017e\u2014\u2018\u2019\u201c\u201d\u2022\u20ac]/;

export function shadowOf(text: string): Shadow | undefined {
  const first = text.search(MAY_CHANGE);
  if (first < 0) return undefined;
  // Changed segments: shadow [sStart, sEnd) ↔ original [oStart, oEnd). Between them the texts are equal.
  const sStart: number[] = [];
  const sEnd: number[] = [];
  const oStart: number[] = [];
  const oEnd: number[] = [];
  let out = '';
  let from = 0;
  const change = (s: number, e: number, rep: string) => {
    out += text.slice(from, s);
    sStart.push(out.length);
    out += rep;
    sEnd.push(out.length);
    oStart.push(s);
    oEnd.push(e);
    from = e;
  };
  const n = text.length;
  for (let i = first; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) continue;
    const kind = kindOf(c);
    if (kind === KEEP) continue;
    if (kind === CHANGE) {
      change(i, i + 1, replacements.get(c)!);
    } else if (kind === HIGH_SURROGATE) {
      const low = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (low < 0xdc00 || low > 0xdfff) continue;
      const rep = astralReplacement(((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
      if (rep !== null) change(i, i + 2, rep);
      i++;
    } else {
      // Combining marks: NFKC of the character they belong to and all its marks ("e" + U+0301 → "é").
      let s = i - 1;
      if (s >= 1 && text.charCodeAt(s) >= 0xdc00 && text.charCodeAt(s) <= 0xdfff) s--;
      if (s < from) s = i;
      let e = i + 1;
      while (e < n && text.charCodeAt(e) >= 128 && kindOf(text.charCodeAt(e)) === MARK) e++;
      const segment = text.slice(s, e);
      const rep = mapString(segment);
      if (rep !== segment) change(s, e, rep);
      i = e - 1;
    }
  }
  if (sStart.length === 0) return undefined;
  out += text.slice(from);
  return new MappedShadow(out, sStart, sEnd, oStart, oEnd);
}

class MappedShadow implements Shadow {
  constructor(
    readonly text: string,
    private readonly sStart: number[],
    private readonly sEnd: number[],
    private readonly oStart: number[],
    private readonly oEnd: number[],
  ) {}

  /** First change whose shadow end is after `pos`. */
  private after(pos: number): number {
    const ends = this.sEnd;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! <= pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Original offset of the shadow character at `pos`, and whether it lies in a changed segment. */
  start(s: number): number {
    const k = this.after(s);
    if (k < this.sStart.length && this.sStart[k]! <= s) return this.oStart[k]!;
    return k === 0 ? s : this.oEnd[k - 1]! + (s - this.sEnd[k - 1]!);
  }

  end(e: number): number {
    const c = e - 1;
    const k = this.after(c);
    if (k < this.sStart.length && this.sStart[k]! <= c) return this.oEnd[k]!;
    return (k === 0 ? c : this.oEnd[k - 1]! + (c - this.sEnd[k - 1]!)) + 1;
  }
}
