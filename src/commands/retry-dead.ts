import type { Command } from 'commander';
import { CliExit, ExitCode } from '../exit-codes.js';
import { openStateOrExit, stateFailureExit, withStatePathFrom } from '../service/index.js';
import { deadEntries, isStateError, openStateReadOnly, utcTime, openState } from '../state/index.js';
import { requireConfig, type CommandContext } from './context.js';

interface RetryDeadOptions {
  since?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** What `retry-dead --json` prints. */
export interface RetryDeadResult {
  dryRun: boolean;
  /** Only traces that went dead at or after this time were considered (ISO 8601), or null for all. */
  since: string | null;
  count: number;
  traceIds: string[];
}

/** Trace ids listed in the human output; `--json` always lists them all. */
const SHOWN_IDS = 50;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

export function registerRetryDeadCommand(program: Command, ctx: CommandContext): void {
  program
    .command('retry-dead')
    .description('re-queue dead traces (status pending, attempts reset, due now) so the next online tick takes them')
    .option(
      '--since <time>',
      'only traces that went dead since this time: ISO 8601 (2025-06-01T00:00:00Z) or a duration back from now (30m, 24h, 7d, 2w)',
    )
    .option('--dry-run', 'show what would be re-queued; change nothing')
    .option('--json', 'print JSON: { dryRun, since, count, traceIds }')
    .action(async (options: RetryDeadOptions, command: Command) => {
      const now = Date.now();
      const since = options.since === undefined ? null : parseSince(options.since, now);
      const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
      const path = config.state.path;
      const dryRun = options.dryRun === true;
      let traceIds: string[] | null;
      if (config.state.url) traceIds = await onPostgres(config, since, now, dryRun);
      else if (path === ':memory:') traceIds = null;
      else traceIds = dryRun ? deadIdsReadOnly(path, since) : await requeue(config, since, now);
      const result: RetryDeadResult = {
        dryRun,
        since: since === null ? null : new Date(since).toISOString(),
        count: traceIds?.length ?? 0,
        traceIds: traceIds ?? [],
      };
      if (options.json) ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else ctx.stdout.write(formatRetryDead(result, traceIds === null ? path : null));
    });
}

/** `24h`, `7d`, ... back from `now`, or an ISO 8601 time; ms since epoch. */
export function parseSince(text: string, now: number): number {
  const t = text.trim();
  const duration = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(t);
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2]!.toLowerCase()]!;
  const ms = Date.parse(t);
  if (/^\d{4}-\d{2}-\d{2}/.test(t) && !Number.isNaN(ms)) return ms;
  throw new CliExit(ExitCode.badInput, [
    `retry-dead: --since must be an ISO 8601 time (2025-06-01T00:00:00Z) or a duration such as 30m, 24h, 7d (got ${JSON.stringify(text)})`,
  ]);
}

function deadIdsReadOnly(path: string, since: number | null): string[] | null {
  try {
    const state = openStateReadOnly(path);
    if (!state) return null;
    try {
      return deadEntries(state, since === null ? {} : { diedSince: since }).map((d) => d.traceId);
    } finally {
      state.close();
    }
  } catch (err) {
    if (isStateError(err)) throw stateFailureExit(err);
    throw err;
  }
}

async function requeue(
  config: Parameters<typeof openState>[0],
  since: number | null,
  now: number,
): Promise<string[] | null> {
  const path = config.state.path;
  // Opening for writing would create the file: nothing has run yet, so nothing is dead.
  const probe = deadIdsReadOnly(path, since);
  if (probe === null) return null;
  if (probe.length === 0) return [];
  let state;
  try {
    state = await openState(config);
  } catch (err) {
    if (isStateError(err)) throw stateFailureExit(err);
    throw new CliExit(ExitCode.incomplete, [
      `retry-dead: cannot open the state file ${path} for writing: ${err instanceof Error ? err.message : String(err)}`,
    ]);
  }
  try {
    return await state.requeueDead(since === null ? {} : { diedSince: since }, now);
  } finally {
    await state.close();
  }
}

/** On PostgreSQL the schema is there once anything ran: list (dry run) or re-queue in place. */
async function onPostgres(
  config: Parameters<typeof openState>[0],
  since: number | null,
  now: number,
  dryRun: boolean,
): Promise<string[]> {
  const state = await openStateOrExit(config as Parameters<typeof openStateOrExit>[0]);
  try {
    if (!dryRun) return await state.requeueDead(since === null ? {} : { diedSince: since }, now);
    const dead = await state.listByStatus('dead', Number.MAX_SAFE_INTEGER);
    return dead.filter((e) => since === null || e.updatedAt >= since).map((e) => e.traceId);
  } catch (err) {
    if (isStateError(err)) throw stateFailureExit(err);
    throw err;
  } finally {
    await state.close();
  }
}

export function formatRetryDead(result: RetryDeadResult, missingPath: string | null): string {
  if (missingPath !== null) {
    return missingPath === ':memory:'
      ? 'nothing to re-queue: state.path is :memory:\n'
      : `nothing to re-queue: ${missingPath} does not exist (no runs yet)\n`;
  }
  const since = result.since ? ` (dead since ${utcTime(result.since)})` : '';
  if (result.count === 0)
    return `${result.since ? `no traces went dead since ${utcTime(result.since)}` : 'no dead traces'}: nothing to re-queue\n`;
  const what = `${result.count} dead trace${result.count === 1 ? '' : 's'}${since}`;
  const lines = [
    result.dryRun
      ? `dry run: would re-queue ${what}`
      : `re-queued ${what}: pending with attempts reset; the next online tick takes them`,
    ...result.traceIds.slice(0, SHOWN_IDS).map((id) => `  ${id}`),
  ];
  if (result.count > SHOWN_IDS) lines.push(`  … and ${result.count - SHOWN_IDS} more (--json lists them all)`);
  return `${lines.join('\n')}\n`;
}
