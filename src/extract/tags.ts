/**
 * XML-ish tag blocks in a prompt (`<documents>…</documents>`) found in one pass: each opening tag is paired
 * with the first closing tag of the same name after it (by binary search over that name's closing tags), so
 * a prompt with thousands of unclosed tags costs n log n, not the n² of a lazy regex per opening tag.
 */

export interface TagBlock {
  name: string;
  /** Index of `<`. */
  start: number;
  /** Just after the opening tag's `>`. */
  innerStart: number;
  /** Index of the closing tag's `<`. */
  innerEnd: number;
  /** Just after the closing tag's `>`. */
  end: number;
}

const OPENING = /<([A-Za-z_][\w.-]{0,40})(\s[^<>]{0,500})?>/g;
const CLOSING = /<\/([A-Za-z_][\w.-]{0,40})\s*>/g;

/** Non-overlapping blocks whose (case-insensitive) name is in `names`, left to right. */
export function tagBlocks(text: string, names: ReadonlySet<string>): TagBlock[] {
  const closings = new Map<string, Array<{ at: number; end: number }>>();
  for (const m of text.matchAll(CLOSING)) {
    const name = (m[1] as string).toLowerCase();
    if (!names.has(name)) continue;
    const list = closings.get(name) ?? [];
    list.push({ at: m.index, end: m.index + m[0].length });
    closings.set(name, list);
  }
  const blocks: TagBlock[] = [];
  let after = 0;
  for (const m of text.matchAll(OPENING)) {
    const name = (m[1] as string).toLowerCase();
    if (m.index < after || !names.has(name)) continue;
    const innerStart = m.index + m[0].length;
    const close = firstAtOrAfter(closings.get(name) ?? [], innerStart);
    if (!close) continue;
    blocks.push({ name, start: m.index, innerStart, innerEnd: close.at, end: close.end });
    after = close.end;
  }
  return blocks;
}

function firstAtOrAfter(
  list: Array<{ at: number; end: number }>,
  position: number,
): { at: number; end: number } | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as { at: number }).at < position) lo = mid + 1;
    else hi = mid;
  }
  return list[lo];
}

/** The text with the given blocks cut out (each replaced by `replacement`). */
export function withoutBlocks(text: string, blocks: TagBlock[], replacement = ''): string {
  let out = '';
  let from = 0;
  for (const b of blocks) {
    out += text.slice(from, b.start) + replacement;
    from = b.end;
  }
  return out + text.slice(from);
}
