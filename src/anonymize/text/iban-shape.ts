/**
 * True when the text right before `start` looks like the beginning of an IBAN ("ES91 2100 "): digits there belong to
 * it. With the text's `ibanStarts` (facts.ts), texts without two letters and two digits shortly before skip the regex.
 */
export function insideIbanShape(text: string, start: number, ibanStarts?: number[]): boolean {
  if (ibanStarts !== undefined && !anyIn(ibanStarts, start - 45, start)) return false;
  return /(?:^|[^\p{L}\p{N}])[A-Za-z]{2}\d{2}(?:[ -]?[A-Za-z0-9]{4}){0,7}[ -]?$/u.test(
    text.slice(Math.max(0, start - 45), start),
  );
}

/** Whether the sorted list holds a value in [from, to): a binary search, as long texts hold thousands of values. */
function anyIn(sorted: number[], from: number, to: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]! < to;
}
