/**
 * All matches of a global regex, without String.prototype.matchAll (which clones the regex on every call).
 * The regex is shared: its lastIndex is reset before use.
 */
export function execAll(pattern: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = pattern.exec(text)) !== null) {
    if (m[0].length === 0) pattern.lastIndex++;
    out.push(m);
  }
  return out;
}
