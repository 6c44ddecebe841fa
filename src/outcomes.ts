/**
 * The one table of outcomes every command follows: the situations (`ragwatch --help`) and, per command, what each
 * exit code means (each command's `--help`). docs/operations.md carries the same rows; a unit test keeps them in
 * step and checks that every command has its row.
 */
import { ExitCode } from './exit-codes.js';

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
  {
    situation: 'not enough evidence for a gate verdict (experiment)',
    oneShot: '4 (or 1 / 0: `experiment.gate.onInconclusive`)',
    daemon: 'rag_golden_gate_inconclusive 1, RAGGoldenGateNotEnoughEvidence fires',
  },
];

type Code = (typeof ExitCode)[keyof typeof ExitCode];

/** The codes, in column order. */
export const CODES: readonly Code[] = Object.values(ExitCode).sort((a, b) => a - b);

export interface CommandOutcomes {
  /** How the table names it: the command and, for a command with modes, the mode. */
  command: string;
  /** The command path it is the row of (`['state', 'migrate']`). */
  path: readonly string[];
  /** What each code means for it; a code it never exits with is absent. */
  codes: Partial<Record<Code, string>>;
}

const STATE_FILE_2 =
  "a state file that is not ragwatch's (empty, not SQLite, damaged, another database, a newer schema)";

export const COMMAND_OUTCOMES: readonly CommandOutcomes[] = [
  {
    command: '`sample --once`, `--from/--to`',
    path: ['sample'],
    codes: {
      0: 'the run handled its window',
      2: 'bad config or arguments, unusable state file, keys Langfuse or the judge rejected',
      3: 'Langfuse or the judge unreachable or failing for every trace (the run stopped, nothing charged), a run in which every trace taken failed and none was evaluated, a state file the disk will not let it write, or an interrupted run',
    },
  },
  {
    command: '`sample --trace ID`',
    path: ['sample'],
    codes: {
      0: 'scored (or `--dry-run`)',
      2: 'as above, and an unknown trace id',
      3: 'Langfuse unreachable, or the trace failed',
    },
  },
  {
    command: '`extract --trace ID`',
    path: ['extract'],
    codes: {
      0: 'read: extracted, or skipped with the reason (in `--json` too)',
      2: 'bad config or `online.extract` mapping, keys Langfuse rejected, an unknown trace id',
      3: 'Langfuse unreachable',
    },
  },
  {
    command: '`evaluate`',
    path: ['evaluate'],
    codes: {
      0: 'every sample scored or not scorable',
      2: 'bad config, malformed lines, unknown metrics, the judge rejected the key',
      3: 'some metric failed (judge unreachable or unusable answers)',
    },
  },
  {
    command: '`experiment run`',
    path: ['experiment', 'run'],
    codes: {
      0: 'gate passed',
      1: 'gate failed',
      2: 'bad config or input (unknown dataset, run name taken, target problems), keys any dependency rejected',
      3: 'the RAG service, the judge or Langfuse unreachable, or more than `experiment.maxFailedShare` of the items failed: an incomplete report, no verdict (see [below](#the-weekly-experiment-failed-items-and-incomplete-runs))',
      4: 'not enough evidence for a verdict: a gated figure on too few items (`experiment.gate.minItems`), nothing scored, or under `experiment.gate.rule: interval` an interval holding its threshold; `experiment.gate.onInconclusive` turns it into 1 or 0',
    },
  },
  {
    command: '`golden build`',
    path: ['golden', 'build'],
    codes: {
      0: 'built (or `--dry-run`)',
      2: 'bad config or arguments, a corpus that cannot be read or has no chunks, keys rejected',
      3: 'Langfuse or the judge unreachable: nothing is lost, run it again to resume',
    },
  },
  {
    command: '`golden review`, `golden diff`',
    path: ['golden', 'review'],
    codes: {
      0: 'shown (`--apply`: applied and published)',
      2: 'bad config or arguments, an unknown dataset, keys Langfuse rejected, `--apply` with no review decision at all (`--unreviewed` publishes anyway)',
      3: 'Langfuse unreachable',
    },
  },
  {
    command: '`calibrate enqueue`, `calibrate report`',
    path: ['calibrate', 'enqueue'],
    codes: {
      0: 'done (also with nothing to enqueue or no annotation yet)',
      2: 'bad config or arguments, keys Langfuse rejected',
      3: 'Langfuse unreachable',
    },
  },
  {
    command: '`calibrate anchors build`',
    path: ['calibrate', 'anchors', 'build'],
    codes: {
      0: 'built and stored',
      2: 'bad config or input (fewer than 2 samples, no `--output` nor `calibrate.anchors.path`), keys rejected',
      3: 'the judge, the RAG service or Langfuse unreachable',
    },
  },
  {
    command: '`doctor`',
    path: ['doctor'],
    codes: {
      0: 'every check passed',
      2: "missing keys, keys rejected, a state file that cannot be ragwatch's",
      3: 'something unreachable or wrong',
    },
  },
  {
    command: '`status`, `retry-dead`',
    path: ['status'],
    codes: {
      0: 'shown / re-queued (also before anything ran)',
      2: `bad arguments, ${STATE_FILE_2}, a PostgreSQL role without rights on the schema (as doctor says)`,
      3: 'the state file cannot be read now (locked, disk error)',
    },
  },
  {
    command: '`state migrate`',
    path: ['state', 'migrate'],
    codes: {
      0: 'copied, or nothing left to copy, and every row of the file is in PostgreSQL',
      2: 'bad arguments, a file that is not ragwatch state, a role PostgreSQL refuses',
      3: "a daemon still holds the file's lease, PostgreSQL unreachable, counts that do not match",
    },
  },
  {
    command: '`anonymize`, `config check`',
    path: ['anonymize'],
    codes: { 0: 'done', 2: 'bad input, format or configuration' },
  },
  {
    command: '`demo`',
    path: ['demo'],
    codes: { 0: 'done', 2: 'bad options', 3: 'a step failed (the problem is printed)' },
  },
  {
    command: '`run` (the daemon)',
    path: ['run'],
    codes: {
      0: 'stopped by SIGTERM/SIGINT (in-flight traces left pending, uncharged)',
      2: 'at start: bad config, an unusable state file, keys Langfuse or the judge rejected, a port it cannot listen on; while running it does not exit on failures (see [Readiness](#readiness))',
      3: 'at start: the state store cannot be used now (locked, disk full, PostgreSQL unreachable); Langfuse is retried until it answers',
    },
  },
];

/** Commands whose rows another command's row also names (`golden diff` in `golden review`'s). */
const SHARED_ROWS: Record<string, readonly string[]> = {
  'golden diff': ['golden', 'review'],
  'calibrate report': ['calibrate', 'enqueue'],
  'retry-dead': ['status'],
  'config check': ['anonymize'],
};

/** The rows that name the command at `path`. */
export function outcomesOf(path: readonly string[]): CommandOutcomes[] {
  const key = SHARED_ROWS[path.join(' ')] ?? path;
  return COMMAND_OUTCOMES.filter((r) => r.path.join(' ') === key.join(' '));
}

/** A row as docs/operations.md writes it. */
export function markdownRow(row: CommandOutcomes): string {
  return `| ${row.command} | ${CODES.map((c) => row.codes[c] ?? '–').join(' | ')} |`;
}

/** The command's exit codes for its `--help`, one line per code per row. */
export function exitCodesHelp(path: readonly string[]): string {
  const rows = outcomesOf(path);
  if (rows.length === 0) return '';
  const plain = (text: string) => text.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/`/g, '');
  const lines = rows.flatMap((row) => [
    ...(rows.length > 1 ? [`  ${plain(row.command)}:`] : []),
    ...CODES.filter((c) => row.codes[c] !== undefined).map(
      (c) => `${rows.length > 1 ? '    ' : '  '}${c}  ${plain(row.codes[c]!)}`,
    ),
  ]);
  return ['', 'Exit codes (docs/operations.md, "Outcomes and exit codes"):', ...lines].join('\n');
}

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
