/**
 * Runs an expensive pattern only around the hits of a cheap trigger (a literal-led regex V8 scans quickly):
 * the expensive pattern sees windows of `before` characters before and `after` characters after each hit,
 * merged where they touch. Matches are reported with positions in the whole text.
 */
export function* matchInWindows(text: string, trigger: RegExp, pattern: RegExp, before: number, after: number): Generator<RegExpExecArray> {
  trigger.lastIndex = 0;
  let winStart = -1;
  let winEnd = -1;
  const flush = function* (): Generator<RegExpExecArray> {
    if (winStart < 0) return;
    const slice = text.slice(winStart, winEnd);
    pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(slice)) !== null) {
      if (m[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      m.index += winStart;
      yield m;
    }
  };
  let hit: RegExpExecArray | null;
  while ((hit = trigger.exec(text)) !== null) {
    if (hit[0].length === 0) trigger.lastIndex++;
    const s = Math.max(0, hit.index - before);
    const e = Math.min(text.length, hit.index + hit[0].length + after);
    if (winStart >= 0 && s <= winEnd) {
      winEnd = Math.max(winEnd, e);
      continue;
    }
    yield* flush();
    winStart = s;
    winEnd = e;
  }
  yield* flush();
}
