import { createTask, parse, validate } from 'node-cron';

/**
 * When a node-cron schedule fires next after a given instant, in a time zone. node-cron 4 only answers
 * "next after the wall clock" (`getNextRuns` reads `new Date()`), so this walks the candidate times itself
 * and lets node-cron's own matcher (`task.match`) decide each one: the answer is the scheduler's, whatever
 * the expression uses (`L`, `W`, `#`, names, nicknames, seconds).
 */

const DAY_MS = 86_400_000;
/** Long enough for the rarest expressions (Feb 29 on a given weekday recurs within 28 years). */
const DEFAULT_HORIZON_DAYS = 366 * 30;
/** Day 0 starts this far before `after` in local time, so a repeated (DST fall-back) hour is not skipped. */
const LOWER_BOUND_SLACK_MS = 3 * 3600_000;

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, f);
  }
  return f;
}

export function localParts(instant: number, timezone: string): LocalParts {
  const out: Record<string, number> = {};
  for (const part of formatter(timezone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return { year: out.year!, month: out.month!, day: out.day!, hour: out.hour! % 24, minute: out.minute!, second: out.second! };
}

function sameParts(a: LocalParts, b: LocalParts): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute && a.second === b.second;
}

/** Offset of local time from UTC at an instant, in ms (whole seconds). */
function offsetMs(instant: number, timezone: string): number {
  const p = localParts(instant, timezone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instants a local wall-clock time names, ascending: one usually, two in a repeated (fall-back) hour,
 * none in a skipped (spring-forward) one.
 */
export function localTimeInstants(parts: LocalParts, timezone: string): number[] {
  const guess = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  const candidates = new Set([guess - offsetMs(guess - 14 * 3600_000, timezone), guess - offsetMs(guess + 14 * 3600_000, timezone)]);
  return [...candidates].filter((t) => sameParts(localParts(t, timezone), parts)).sort((a, b) => a - b);
}

function addDays(day: { year: number; month: number; day: number }, n: number) {
  const d = new Date(Date.UTC(day.year, day.month - 1, day.day + n));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function laterInDay(a: { hour: number; minute: number; second: number }, b: { hour: number; minute: number; second: number }): boolean {
  return a.hour * 3600 + a.minute * 60 + a.second >= b.hour * 3600 + b.minute * 60 + b.second;
}

/**
 * A cheap test that rules out days the plain numeric month, day-of-month and weekday lists cannot match
 * (node-cron requires all three). Fields with `L`, `W` or `#` tokens are left to `task.match`.
 */
function dayPrefilter(fields: ReturnType<typeof parse>): (day: { year: number; month: number; day: number }) => boolean {
  const numeric = (values: (number | string)[]) => (values.every((v) => typeof v === 'number') ? new Set(values as number[]) : null);
  const months = new Set(fields.month);
  const daysOfMonth = numeric(fields.dayOfMonth);
  const weekdays = numeric(fields.dayOfWeek.map((v) => (v === 7 ? 0 : v)));
  return (day) => {
    if (!months.has(day.month)) return false;
    if (daysOfMonth && !daysOfMonth.has(day.day)) return false;
    if (weekdays && !weekdays.has(new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay())) return false;
    return true;
  };
}

/**
 * The first instant strictly after `after` at which the cron expression fires in `timezone`, or null when it
 * never fires within the horizon (e.g. `0 0 30 2 *`). Throws on an expression node-cron rejects.
 */
export function nextCronRun(expression: string, timezone: string, after: Date, horizonDays = DEFAULT_HORIZON_DAYS): Date | null {
  if (!validate(expression)) throw new Error(`invalid cron expression ${JSON.stringify(expression)}`);
  const fields = parse(expression);
  const asc = (values: number[]) => [...values].sort((a, b) => a - b);
  const hours = asc(fields.hour);
  const minutes = asc(fields.minute);
  const seconds = asc(fields.second);
  const quickDay = dayPrefilter(fields);
  const task = createTask(expression, () => {}, { timezone });
  try {
    const afterMs = after.getTime();
    const lower = localParts(afterMs - LOWER_BOUND_SLACK_MS, timezone);
    const firstDay = { year: lower.year, month: lower.month, day: lower.day };
    for (let i = 0; i <= horizonDays; i++) {
      const day = addDays(firstDay, i);
      if (quickDay(day)) {
        const found = firstOnDay(day, i === 0 ? lower : null);
        if (found !== null) return new Date(found);
      }
      // Past the horizon measured from `after` itself (day 0 may start the evening before).
      if (Date.UTC(day.year, day.month - 1, day.day) - afterMs > horizonDays * DAY_MS) break;
    }
    return null;

    function firstOnDay(day: { year: number; month: number; day: number }, bound: LocalParts | null): number | null {
      for (const hour of hours) {
        for (const minute of minutes) {
          for (const second of seconds) {
            if (bound && !laterInDay({ hour, minute, second }, bound)) continue;
            for (const t of localTimeInstants({ ...day, hour, minute, second }, timezone)) {
              if (t <= afterMs) continue;
              if (task.match(new Date(t))) return t;
              // The time fields match by construction: the day (date, weekday or month) does not.
              return null;
            }
          }
        }
      }
      return null;
    }
  } finally {
    void task.destroy();
  }
}

/** Whether node-cron accepts the expression (the scheduler refuses to start a job with one it does not). */
export function isValidCron(expression: string): boolean {
  return validate(expression);
}
