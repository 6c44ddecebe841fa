/**
 * The run's signal and how its failures end it. The caller's signal aborts the run; a dependency that stays
 * unreachable before the items start (Langfuse, while reading the dataset and earlier runs) ends it as
 * incomplete. Rejected keys (401/403) stay what they are: configuration errors, not outages.
 */
import { setMaxListeners } from 'node:events';
import { kindOf } from '../errors.js';
import { LangfuseApiError } from '../langfuse/index.js';
import { ExperimentIncompleteError, ExperimentInputError, type Dependency } from './errors.js';

export class RunControl {
  private readonly controller = new AbortController();
  private failure: ExperimentIncompleteError | null = null;
  private readonly onOuter = () => this.controller.abort(this.outer?.reason);

  constructor(private readonly outer: AbortSignal | undefined) {
    // Every item waiting for a judge or target slot listens on the run's signal: experiment.concurrency bounds
    // them, not Node's default of 10 (which would warn of a leak that is not one).
    setMaxListeners(0, this.controller.signal);
    outer?.addEventListener('abort', this.onOuter, { once: true });
  }

  /** Aborted by the caller, or by a failure that ends the run. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Ends the run as incomplete: the first failure is the run's. */
  fail(dependency: Dependency, message: string, kind?: string): never {
    this.failure ??= new ExperimentIncompleteError(dependency, message, undefined, kind);
    this.controller.abort(this.failure);
    throw this.failure;
  }

  /** A Langfuse call: an unreachable server ends the run as incomplete. */
  async langfuse<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof LangfuseApiError && err.kind !== 'aborted' && !(err.status === 401 || err.status === 403)) {
        this.fail('langfuse', `Langfuse: ${err.message}`, kindOf(err));
      }
      throw err;
    }
  }

  /** After the passes: the caller's abort ends the run here, before anything is recorded. */
  throwIfCallerAborted(): void {
    if (this.outer?.aborted) throw this.outer.reason ?? new Error('aborted');
  }

  /** What the run throws for `err`: its incomplete failure first, Langfuse unreachable as incomplete. */
  settle(err: unknown): unknown {
    if (err instanceof ExperimentIncompleteError) return err;
    if (this.failure) return this.failure;
    if (err instanceof ExperimentInputError) return err;
    if (this.outer?.aborted) return err;
    if (err instanceof LangfuseApiError && err.unreachable) {
      return new ExperimentIncompleteError(
        'langfuse',
        `Langfuse unreachable after retries: ${err.message}`,
        undefined,
        kindOf(err),
      );
    }
    return err;
  }

  close(): void {
    this.outer?.removeEventListener('abort', this.onOuter);
  }
}
