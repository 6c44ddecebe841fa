import { isCredentialsCode, type TickReport } from '../online/index.js';
import { StateError, type StateErrorKind } from '../state/index.js';
import type { Logger } from '../runtime/index.js';

/** The dependencies a tick can fail on as a whole: Langfuse, the judge, and the disk under the state file. */
export type WatchedDependency = 'langfuse' | 'judge' | 'state';

interface Problem {
  code: string;
  credentials: boolean;
  since: number;
}

/** Which dependency a failure code (`langfuse:http_503`, `metric:faithfulness:timeout`, `judge:http_401`) is about. */
export function dependencyOfCode(code: string): WatchedDependency | null {
  if (code.startsWith('langfuse:')) return 'langfuse';
  if (code.startsWith('metric:') || code.startsWith('judge:')) return 'judge';
  if (code.startsWith('state:')) return 'state';
  return null;
}

const KEYS: Record<'langfuse' | 'judge', string> = {
  langfuse: 'langfuse.publicKey and langfuse.secretKey (LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY)',
  judge: 'judge.apiKey (RAGWATCH_JUDGE_API_KEY)',
};

/** The line that names the key a dependency refused: what an operator changes. */
export function credentialsLine(dependency: 'langfuse' | 'judge', code: string): string {
  const who = dependency === 'langfuse' ? 'Langfuse' : 'the judge';
  return `${KEYS[dependency]}: ${who} rejected ragwatch's credentials (${code})`;
}

/**
 * What the daemon's ticks learned about Langfuse and the judge, for readiness: a run that stopped because a
 * dependency failed for every trace (or refused our keys) makes it not ready until a run gets through
 * again. Each change is logged once: refused credentials as an error (the keys may be rotated back, so
 * the ticks go on), an outage as a warning, the recovery as info.
 */
export class DependencyHealth {
  private readonly problems = new Map<WatchedDependency, Problem>();

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
    /** Where the state lives, to say what a run's state error means. */
    private readonly statePath = 'the state file',
  ) {}

  fromTick(report: Pick<TickReport, 'outcome' | 'error'>): void {
    if (report.outcome === 'success' || report.outcome === 'failed') {
      for (const dependency of [...this.problems.keys()]) this.clear(dependency);
      return;
    }
    if (report.outcome !== 'incomplete' || !report.error) return;
    const dependency = dependencyOfCode(report.error);
    if (dependency) this.record(dependency, report.error);
  }

  /**
   * The shared state's server answered a readiness probe: its problem is over. Only for PostgreSQL, whose run
   * failures are the connection's; SQLite keeps its error until a whole run gets through (a full disk lets reads
   * pass).
   */
  stateAnswered(): void {
    if (this.problems.has('state')) this.clear('state');
  }

  /** A dependency that refused the keys outside a tick (at start-up). */
  record(dependency: WatchedDependency, code: string): void {
    const credentials = isCredentialsCode(code);
    const known = this.problems.get(dependency);
    if (known && known.credentials === credentials) {
      known.code = code;
      return;
    }
    this.problems.set(dependency, { code, credentials, since: this.now() });
    // The tick itself logged the state file's error with SQLite's message.
    if (dependency === 'state') return;
    if (credentials) {
      this.logger.error(
        { dependency, error: code },
        `${credentialsLine(dependency, code)}; not ready until it accepts them, retrying on every tick`,
      );
    } else {
      this.logger.warn(
        { dependency, error: code },
        `${dependency} is failing for every trace; not ready until a tick gets through, nothing is charged meanwhile`,
      );
    }
  }

  private clear(dependency: WatchedDependency): void {
    const known = this.problems.get(dependency);
    if (!known) return;
    this.problems.delete(dependency);
    this.logger.info({ dependency, since: new Date(known.since).toISOString() }, `${dependency} works again`);
  }

  /** Readiness checks: one per dependency. */
  check(dependency: WatchedDependency): { ok: boolean; detail?: string } {
    const known = this.problems.get(dependency);
    if (!known) return { ok: true };
    const since = new Date(known.since).toISOString();
    if (dependency === 'state') {
      const kind = known.code.slice('state:'.length) as StateErrorKind;
      return {
        ok: false,
        detail: `${new StateError(this.statePath, kind).message}: the last run could not record its work (${known.code} since ${since})`,
      };
    }
    return {
      ok: false,
      detail: known.credentials
        ? `credentials rejected (${known.code}) since ${since}`
        : `failing for every trace (${known.code}) since ${since}`,
    };
  }
}
