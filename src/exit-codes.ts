/** Process exit codes shared by every command. */
export const ExitCode = {
  ok: 0,
  /** A gate (e.g. the weekly release gate) did not pass. */
  gateFailed: 1,
  /** Bad configuration or input: nothing was attempted. */
  badInput: 2,
  /** Work could not complete: a dependency stayed unreachable after retries, or some items failed. */
  incomplete: 3,
  /** A gate had not enough evidence to decide (too few items, or an interval holding the threshold). */
  notEnoughEvidence: 4,
} as const;

/** Thrown by commands to end the process with a specific code and a message for stderr. */
export class CliExit extends Error {
  constructor(
    readonly code: number,
    readonly lines: string[] = [],
  ) {
    super(lines.join('\n') || `exit ${code}`);
  }
}
