/**
 * Cron schedules in a time zone, on croner: when an expression fires next after any given instant (node-cron can
 * only answer "after the wall clock"), for the scheduler and for `status`. croner reads the expression (5 or 6
 * fields, names, nicknames, `L`, `W`, `#`; day of month and day of week must both match, as node-cron did) on the
 * wall clock; the wall-clock times it names become instants here, so a time the spring-forward gap removes does
 * not fire and a repeated (fall-back) hour fires in both passes, the semantics the scheduler has always had.
 */
import { Cron } from 'croner';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Long enough for the rarest expressions (Feb 29 on a given weekday recurs within 28 years). */
const DEFAULT_HORIZON_DAYS = 366 * 30;

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export class CronSchedule {
  /** The expression on a clock without daylight saving: its times are wall-clock times. */
  private readonly wall: Cron;

  /** Throws `invalid cron expression "…"` on an expression croner rejects. */
  constructor(
    readonly expression: string,
    readonly timezone: string,
  ) {
    try {
      // The same options as config's isCronExpression (src/config/checks.ts).
      this.wall = new Cron(expression, { timezone: 'UTC', paused: true, mode: '5-or-6-parts', domAndDow: true });
    } catch {
      throw new Error(`invalid cron expression ${JSON.stringify(expression)}`);
    }
  }

  /** The first instant strictly after `after` at which the expression fires, or null when none within the horizon. */
  next(after: Date, horizonDays = DEFAULT_HORIZON_DAYS): Date | null {
    const afterMs = after.getTime();
    const limit = afterMs + horizonDays * DAY_MS;
    // A repeated hour ahead names wall-clock times earlier than `after`'s own: start that much before.
    const slack = Math.max(0, offsetMs(afterMs, this.timezone) - offsetMs(afterMs + 3 * HOUR_MS, this.timezone));
    let wall = new Date(afterMs + offsetMs(afterMs, this.timezone) - slack);
    for (;;) {
      const candidate = this.wall.nextRun(wall);
      if (!candidate || candidate.getTime() - 14 * HOUR_MS > limit) return null;
      for (const t of localTimeInstants(utcParts(candidate), this.timezone)) {
        if (t > afterMs) return t > limit ? null : new Date(t);
      }
      wall = candidate;
    }
  }

  /** The next `n` firings after `after` (the wall clock by default). */
  getNextRuns(n: number, after: Date = new Date()): Date[] {
    const out: Date[] = [];
    for (let at: Date | null = after; out.length < n;) {
      at = this.next(at);
      if (!at) break;
      out.push(at);
    }
    return out;
  }
}

/** The first instant strictly after `after` at which `expression` fires in `timezone`; see `CronSchedule`. */
export function nextCronRun(expression: string, timezone: string, after: Date, horizonDays?: number): Date | null {
  return new CronSchedule(expression, timezone).next(after, horizonDays);
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

function localParts(instant: number, timezone: string): LocalParts {
  const out: Record<string, number> = {};
  for (const part of formatter(timezone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return {
    year: out.year!,
    month: out.month!,
    day: out.day!,
    hour: out.hour! % 24,
    minute: out.minute!,
    second: out.second!,
  };
}

function utcParts(d: Date): LocalParts {
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** Offset of local time from UTC at an instant, in ms (whole seconds). */
function offsetMs(instant: number, timezone: string): number {
  const p = localParts(instant, timezone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

function sameParts(a: LocalParts, b: LocalParts): boolean {
  return (
    a.year === b.year &&
    a.month === b.month &&
    a.day === b.day &&
    a.hour === b.hour &&
    a.minute === b.minute &&
    a.second === b.second
  );
}

/**
 * The instants a local wall-clock time names, ascending: one usually, two in a repeated (fall-back) hour,
 * none in a skipped (spring-forward) one.
 */
export function localTimeInstants(parts: LocalParts, timezone: string): number[] {
  const guess = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  const candidates = new Set([
    guess - offsetMs(guess - 14 * HOUR_MS, timezone),
    guess - offsetMs(guess + 14 * HOUR_MS, timezone),
  ]);
  return [...candidates].filter((t) => sameParts(localParts(t, timezone), parts)).sort((a, b) => a - b);
}
