import { IncompleteRunError, InputError } from '../errors.js';
import type { WrittenReport } from './report/write.js';

/** The run cannot start: bad configuration, an unknown dataset, an empty selection (exit code 2). */
export class ExperimentInputError extends InputError {}

export type Dependency = 'rag' | 'judge' | 'langfuse';

/**
 * The run could not complete (exit code 3): a dependency stayed unreachable after retries (`dependency`), or
 * more items failed than `experiment.maxFailedShare` allows (`dependency` null). Never a gate verdict: an
 * outage is not a regression. `report` is the incomplete report, when the run got far enough to write one.
 */
export class ExperimentIncompleteError extends IncompleteRunError {
  constructor(
    readonly dependency: Dependency | null,
    message: string,
    readonly report?: WrittenReport,
    /** The failure kind that stopped it (`connection`, `http_401`, …), when a dependency did. */
    readonly kind?: string,
  ) {
    super(message);
  }
}
