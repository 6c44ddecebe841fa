import { isIP } from 'node:net';
import { Cron } from 'croner';

/** Checks behind the schema's refinements: pure, synchronous, no I/O. */

/**
 * A 5- or 6-field cron expression (or a nickname like `@daily`) that the scheduler accepts and that fires at least
 * once (`0 0 31 2 *` never does). Read with croner's options of `CronSchedule` (src/internal/cron.ts), here
 * directly so that loading the configuration loads nothing beyond config/, metrics/ and the judge's types.
 */
export function isCronExpression(text: string): boolean {
  try {
    const cron = new Cron(text, { paused: true, mode: '5-or-6-parts', domAndDow: true });
    const next = cron.nextRun();
    cron.stop();
    return next !== null;
  } catch {
    return false;
  }
}

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** What `server.listen(port, host)` takes: an IPv4/IPv6 address (no brackets, no port) or an RFC 1123 host name. */
export function isListenHost(text: string): boolean {
  if (isIP(text) !== 0) return true;
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
}

/** Whether a URL carries `user:password@` (or just `user@`). */
export function urlHasCredentials(text: string): boolean {
  try {
    const url = new URL(text);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/** The text with any URL's `user:password@` replaced by `***@`, for messages that quote a configured value. */
export function withoutUrlCredentials(text: string): string {
  return text.replace(/(\/\/)[^/?#\s]*@/g, '$1***@');
}
