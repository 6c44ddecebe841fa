/** One verdict per check of `ragwatch doctor`. */
import { isAbortError } from '../errors.js';
import { connectionHint } from './hints.js';
export type Verdict = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  verdict: Verdict;
  detail: string;
  /** A failure the configuration must fix (rejected keys, an unusable state file): exit 2, not 3. */
  configuration?: true;
}

export interface DoctorDeps {
  fetch?: typeof globalThis.fetch;
  cwd: string;
  /** Environment for `${NAME}` references in experiment.target.headers. */
  env?: NodeJS.ProcessEnv;
  /** Deadline per network check. */
  timeoutMs?: number;
}

/**
 * What went wrong, in one line: the deadline, the server's own message, the connection error's code; with the URL
 * it was going to, a hint for a refused connection or a TLS problem (hints.ts).
 */
export function describeError(err: unknown, url?: string): string {
  if (!(err instanceof Error)) return String(err);
  if (isAbortError(err)) return 'no answer before the deadline';
  const hint = url === undefined ? null : connectionHint(err, url);
  if (hint) return hint;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ? ` (${cause.code})` : '';
  return `${err.message.split('\n')[0]}${code}`;
}
