/**
 * Runs an expensive pattern only around the hits of a cheap trigger (a literal-led regex V8 scans quickly):
 * the expensive pattern sees windows of `before` characters before and `after` characters after each hit,
 * merged where they touch. Matches are reported with positions in the whole text.
 */
export function matchInWindows(text: string, trigger: RegExp, pattern: RegExp, before: number, after: number): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  trigger.lastIndex = 0;
  let winStart = -1;
  let winEnd = -1;
  let hit: RegExpExecArray | null;
  while ((hit = trigger.exec(text)) !== null) {
    if (hit[0].length === 0) trigger.lastIndex++;
    const s = Math.max(0, hit.index - before);
    const e = Math.min(text.length, hit.index + hit[0].length + after);
    if (winStart >= 0 && s <= winEnd) {
      winEnd = Math.max(winEnd, e);
      continue;
    }
    if (winStart >= 0) matchWindow(text, pattern, winStart, winEnd, out);
    winStart = s;
    winEnd = e;
  }
  if (winStart >= 0) matchWindow(text, pattern, winStart, winEnd, out);
  return out;
}

function matchWindow(text: string, pattern: RegExp, start: number, end: number, out: RegExpExecArray[]): void {
  const slice = text.slice(start, end);
  pattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = pattern.exec(slice)) !== null) {
    if (m[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    m.index += start;
    out.push(m);
  }
}
