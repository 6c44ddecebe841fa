/** ISO-8601 week of a date (UTC): the week with the year's first Thursday is week 1. */
export function isoWeek(date: Date): { year: number; week: number } {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return { year: d.getUTCFullYear(), week };
}

/**
 * A run name unique per execution: `weekly-2026-W48`, then `weekly-2026-W48-2`, `-3`, … when the
 * dataset already has runs with that name.
 */
export function uniqueRunName(prefix: string, now: Date, existing: Iterable<string>): string {
  const { year, week } = isoWeek(now);
  const base = `${prefix}-${year}-W${String(week).padStart(2, '0')}`;
  const taken = new Set(existing);
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}`;
    if (!taken.has(candidate)) return candidate;
  }
}
