/**
 * Runs an expensive pattern only around the hits of a cheap trigger (a literal-led regex V8 scans quickly):
 * the expensive pattern sees windows of `before` characters before and `after` characters after each hit,
 * merged where they touch. Matches are reported with positions in the whole text.
 */
export function matchInWindows(text: string, trigger: RegExp, pattern: RegExp, before: number, after: number): RegExpExecArray[] {
  return matchInWindowList(text, triggerWindows(text, trigger, before, after), pattern);
}

/** The merged windows around the trigger's hits, as [start, end, start, end, …]. */
export function triggerWindows(text: string, trigger: RegExp, before: number, after: number): number[] {
  const windows: number[] = [];
  trigger.lastIndex = 0;
  let hit: RegExpExecArray | null;
  while ((hit = trigger.exec(text)) !== null) {
    if (hit[0].length === 0) trigger.lastIndex++;
    const s = Math.max(0, hit.index - before);
    const e = Math.min(text.length, hit.index + hit[0].length + after);
    const n = windows.length;
    if (n > 0 && s <= windows[n - 1]!) windows[n - 1] = Math.max(windows[n - 1]!, e);
    else windows.push(s, e);
  }
  return windows;
}

/** Matches of `pattern` inside each window (from `triggerWindows`), with positions in the whole text. */
export function matchInWindowList(text: string, windows: number[], pattern: RegExp): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  for (let w = 0; w < windows.length; w += 2) matchWindow(text, pattern, windows[w]!, windows[w + 1]!, out);
  return out;
}

function matchWindow(text: string, pattern: RegExp, start: number, end: number, out: RegExpExecArray[]): void {
  const slice = start === 0 && end === text.length ? text : text.slice(start, end);
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
