/** The run cannot start: bad configuration, an unknown dataset, an empty selection (exit code 2). */
export class ExperimentInputError extends Error {
  override readonly name = 'ExperimentInputError';
  constructor(readonly lines: string[]) {
    super(lines.join('; '));
  }
}

export type Dependency = 'rag' | 'judge' | 'langfuse';

/**
 * The run could not complete because a dependency stayed unreachable after retries (exit code 3). Never a
 * gate verdict: an outage is not a regression.
 */
export class ExperimentIncompleteError extends Error {
  override readonly name = 'ExperimentIncompleteError';
  constructor(
    readonly dependency: Dependency,
    message: string,
  ) {
    super(message);
  }
}
