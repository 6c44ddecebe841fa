/** Plain-text rendering helpers for operators' commands: aligned columns, UTC times, short durations. */

export type Align = 'left' | 'right';

/** Columns separated by two spaces, each as wide as its widest cell; trailing spaces trimmed. */
export function textTable(headers: string[], rows: string[][], align: Align[] = []): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (align[i] === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)];
}

/** `2025-06-02 11:58:01Z`. */
export function utcTime(isoOrMs: string | number): string {
  return new Date(isoOrMs)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, 'Z');
}

/** `45s`, `12m`, `3h 5m`, `2d 4h`. */
export function shortDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d}d` : `${d}d ${h % 24}h`;
}

/** A time with how far it is from now: `2025-06-02 11:58:01Z (2m ago)` / `(in 5m)`. */
export function timeFromNow(iso: string | null, now: number): string {
  if (iso === null) return '-';
  const delta = (Date.parse(iso) - now) / 1000;
  const rel = Math.abs(delta) < 1 ? 'now' : delta < 0 ? `${shortDuration(-delta)} ago` : `in ${shortDuration(delta)}`;
  return `${utcTime(iso)} (${rel})`;
}
