/**
 * The one table of outcomes every command follows, as `ragwatch --help` prints it; docs/operations.md carries
 * the same rows (a unit test keeps the two in step).
 */

export interface OutcomeRow {
  situation: string;
  oneShot: string;
  daemon: string;
}

export const OUTCOMES: readonly OutcomeRow[] = [
  { situation: 'done (gate passed / tick complete)', oneShot: '0', daemon: 'keeps running, ready' },
  {
    situation: 'gate failed (experiment)',
    oneShot: '1',
    daemon: 'rag_golden_gate_passed 0, RAGGoldenGateFailing fires',
  },
  {
    situation: 'bad config or input, credentials rejected (401/403)',
    oneShot: '2, one line naming the key',
    daemon: 'exits 2 at start; later: not ready, error logged once, keeps retrying',
  },
  {
    situation: 'a dependency unreachable, or work left incomplete',
    oneShot: '3',
    daemon: 'not ready while it lasts, nothing charged',
  },
];

/** The table as plain text for `--help`. */
export function outcomesHelp(): string {
  const width = Math.max(...OUTCOMES.map((r) => r.situation.length));
  const lines = OUTCOMES.map((r) => `  ${r.situation.padEnd(width)}  ${r.oneShot.padEnd(27)}  ${r.daemon}`);
  return [
    '',
    'Outcomes (every command; details in docs/operations.md, "Outcomes and exit codes"):',
    `  ${'situation'.padEnd(width)}  ${'one-shot commands exit'.padEnd(27)}  the daemon (ragwatch run)`,
    ...lines,
  ].join('\n');
}
