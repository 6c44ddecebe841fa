/**
 * Runs an expensive pattern only around the hits of a cheap trigger (a literal-led regex V8 scans quickly):
 * the expensive pattern sees windows of `before` characters before and `after` characters after each hit,
 * merged where they touch. Matches are reported with positions in the whole text.
 */
export function matchInWindows(
  text: string,
  trigger: RegExp,
  pattern: RegExp,
  before: number,
  after: number,
): RegExpExecArray[] {
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
    addWindow(windows, s, e);
  }
  return windows;
}

/** Merged windows from each hit's start to `after` characters past its end; hits as [start, end, start, end, …]. */
export function windowsAfter(text: string, hits: number[], after: number): number[] {
  const windows: number[] = [];
  for (let h = 0; h < hits.length; h += 2) {
    const s = hits[h]!;
    const e = Math.min(text.length, hits[h + 1]! + after);
    addWindow(windows, s, e);
  }
  return windows;
}

/**
 * Merged windows around the digit runs (`digitRuns` of the text's facts) with at least `minDigits` digits,
 * `before` and `after` characters wider than the run: room for lookbehinds, lookaheads and letters next to it.
 * `keep` may drop runs by their start, end and number of dots.
 */
export function runWindows(
  text: string,
  digitRuns: number[],
  minDigits: number,
  before: number,
  after: number,
  keep?: (start: number, end: number, dots: number) => boolean,
): number[] {
  const windows: number[] = [];
  for (let r = 0; r < digitRuns.length; r += 4) {
    if (
      digitRuns[r + 2]! < minDigits ||
      (keep !== undefined && !keep(digitRuns[r]!, digitRuns[r + 1]!, digitRuns[r + 3]!))
    )
      continue;
    const s = Math.max(0, digitRuns[r]! - before);
    const e = Math.min(text.length, digitRuns[r + 1]! + after);
    addWindow(windows, s, e);
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

/**
 * Matches of a sticky `pattern` (flag `y`) tried at each of `starts`, for patterns that must begin where their
 * trigger does (a street type, a password key): one anchored attempt per hit instead of a scan of a window around
 * it. As in a scan, a start inside the previous match is not tried.
 */
export function matchAtStarts(text: string, starts: number[], pattern: RegExp): RegExpExecArray[] {
  if (!pattern.sticky) throw new Error('matchAtStarts needs a sticky pattern');
  const out: RegExpExecArray[] = [];
  let taken = 0;
  for (const start of starts) {
    if (start < taken) continue;
    pattern.lastIndex = start;
    const m = pattern.exec(text);
    if (m === null || m[0].length === 0) continue;
    out.push(m);
    taken = m.index + m[0].length;
  }
  return out;
}

/** Appends the window [s, e) to `windows` (sorted by start), merged with the last one when they touch. */
export function addWindow(windows: number[], s: number, e: number): void {
  const n = windows.length;
  if (n > 0 && s <= windows[n - 1]!) windows[n - 1] = Math.max(windows[n - 1]!, e);
  else windows.push(s, e);
}
