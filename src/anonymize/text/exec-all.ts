/**
 * Iterates the matches of a global regex without String.prototype.matchAll, which clones the regex on every
 * call. The regex is shared, so callers must not interleave two iterations of the same one.
 */
export function* execAll(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = pattern.exec(text)) !== null) {
    if (m[0].length === 0) pattern.lastIndex++;
    yield m;
  }
}
