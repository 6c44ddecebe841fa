/**
 * Whether the run is still complete once the passes are over, and if not why: the passes' outage, too many
 * failed items, or Langfuse not taking what the run records. An incomplete run is still recorded and reported
 * as far as it got, but gets no gate verdict, no run scores and no place in ragwatch's record.
 */
import { kindOf } from '../errors.js';
import { LangfuseApiError } from '../langfuse/index.js';
import type { Logger } from '../runtime/index.js';
import type { Dependency } from './errors.js';

export interface Stop {
  dependency: Dependency | null;
  message: string;
  /** The failure kind that stopped the run, when a dependency did. */
  kind?: string;
}

export class RunStatus {
  constructor(
    private current: Stop | null,
    private readonly logger: Logger,
  ) {}

  get stop(): Stop | null {
    return this.current;
  }

  get complete(): boolean {
    return this.current === null;
  }

  /** More items failed than the run allows. */
  tooManyFailed(message: string): void {
    this.current ??= { dependency: null, message };
  }

  /** Langfuse did not take something: a complete run ends incomplete; an incomplete one keeps its first reason. */
  langfuseFailed(message: string, kind?: string): void {
    if (!this.current) this.current = { dependency: 'langfuse', message, ...(kind !== undefined ? { kind } : {}) };
    else this.logger.warn({ error: message }, 'Langfuse did not take everything of an incomplete run');
  }

  /** A Langfuse step: an API failure (unreachable, rejected) makes the run incomplete; rejected keys stay errors. */
  async langfuse<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (err) {
      const refusedKey = err instanceof LangfuseApiError && (err.status === 401 || err.status === 403);
      if (!(err instanceof LangfuseApiError) || err.kind === 'aborted' || refusedKey) throw err;
      this.langfuseFailed(`Langfuse: ${err.message}`, kindOf(err));
      return undefined;
    }
  }
}
