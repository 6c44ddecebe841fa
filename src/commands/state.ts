import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliExit, ExitCode } from '../exit-codes.js';
import {
  copySqliteToPostgres,
  liveLease,
  type TableCopy,
  isStateError,
  openStateReadOnly,
  textTable,
  defaultIsProcessAlive,
  isPostgresUrl,
  maskPostgresUrl,
  schemaNameProblem,
  type StateError,
  withoutPassword,
} from '../state/index.js';
import { isDaemonLease } from '../service/index.js';
import type { CommandContext } from './context.js';

interface MigrateOptions {
  from: string;
  to?: string;
  schema: string;
}

const HELP = `
Copies the ledger, cursors, job runs, gauges, meta facts, experiment history, the golden-set builder's
state and the reports the state keeps from a stopped installation's SQLite file into PostgreSQL (the schema is created and migrated first).
Rows already in PostgreSQL are left as they are, so running it again copies nothing. Leases and the last
hour's attempt records are not copied. It refuses while a daemon uses the file: ragwatch run holds a lease
of its own there for as long as it is up, between ticks too.
Pass the URL with --to or in RAGWATCH_STATE_URL (the password is never printed).`;

export function registerStateCommand(program: Command, ctx: CommandContext): void {
  const state = program
    .command('state')
    .description('manage the state store (move an SQLite installation to PostgreSQL)');
  state
    .command('migrate')
    .description('copy an SQLite state file into a PostgreSQL schema (from a stopped installation)')
    .requiredOption('--from <file>', 'the SQLite state file (state.path of the old installation)')
    .option('--to <url>', 'postgres://user:password@host:5432/database (default: RAGWATCH_STATE_URL)')
    .option('--schema <name>', 'the PostgreSQL schema (state.schema)', 'ragwatch')
    .addHelpText('after', HELP)
    .action(async (options: MigrateOptions) => {
      const url = options.to ?? ctx.env.RAGWATCH_STATE_URL;
      if (!url)
        throw new CliExit(ExitCode.badInput, [
          'state migrate: --to: a postgres:// URL is required (or RAGWATCH_STATE_URL)',
        ]);
      if (!isPostgresUrl(url))
        throw new CliExit(ExitCode.badInput, [
          `state migrate: --to: must be a postgres:// URL (got ${maskPostgresUrl(url)})`,
        ]);
      const schemaProblem = schemaNameProblem(options.schema);
      if (schemaProblem) throw new CliExit(ExitCode.badInput, [`state migrate: --schema: ${schemaProblem}`]);
      const from = resolve(ctx.cwd, options.from);
      if (!existsSync(from)) throw new CliExit(ExitCode.badInput, [`state migrate: --from: ${from} does not exist`]);
      const urlFrom = options.to !== undefined ? '--to' : 'RAGWATCH_STATE_URL';
      const tables = await migrate(from, { url, from: urlFrom }, options.schema, Date.now());
      ctx.stdout.write(formatCopy(from, maskPostgresUrl(url), options.schema, tables));
      const missing = tables.filter((t) => t.present !== t.source);
      if (missing.length > 0) {
        const which = missing.map((t) => `${t.table} ${t.present} of ${t.source}`).join(', ');
        throw new CliExit(ExitCode.incomplete, [`state migrate: counts do not match: ${which}`]);
      }
    });
}

async function migrate(
  from: string,
  to: { url: string; from: '--to' | 'RAGWATCH_STATE_URL' },
  schema: string,
  now: number,
): Promise<TableCopy[]> {
  const url = to.url;
  let source;
  try {
    source = openStateReadOnly(from);
  } catch (err) {
    if (isStateError(err)) throw optionExit('--from', err);
    throw err;
  }
  if (!source) throw new CliExit(ExitCode.badInput, [`state migrate: --from: ${from} does not exist`]);
  try {
    const held = liveLease(source.db, now, { host: hostname() }, defaultIsProcessAlive);
    if (held) {
      throw new CliExit(ExitCode.incomplete, [
        isDaemonLease(held.name)
          ? `state migrate: ${from} is in use: ragwatch run (${held.holder}) is up; stop it and run this again`
          : `state migrate: ${from} is in use: lease ${held.name} is held by ${held.holder} until ` +
            `${new Date(held.expiresAt).toISOString()}; stop the daemon (ragwatch run) and run this again`,
      ]);
    }
    const { openPostgresState } = await import('../state/postgres/index.js');
    let target;
    try {
      target = await openPostgresState({ url, schema });
    } catch (err) {
      if (isStateError(err)) throw optionExit(to.from, err);
      throw new CliExit(ExitCode.badInput, [
        `state migrate: ${to.from}: ${withoutPassword(err instanceof Error ? err.message : String(err), url)}`,
      ]);
    }
    try {
      return await copySqliteToPostgres(source.db, target.db);
    } catch (err) {
      const converted = (await import('../state/postgres/index.js')).asPostgresStateError(err, target.location);
      if (isStateError(converted)) throw optionExit(to.from, converted);
      throw err;
    } finally {
      await target.close();
    }
  } finally {
    source.close();
  }
}

/** A state problem of the file or server an option named, said of that option (exit 2 or 3 as for the key). */
function optionExit(option: string, err: StateError): CliExit {
  return new CliExit(err.isInput ? ExitCode.badInput : ExitCode.incomplete, [`state migrate: ${err.lineFor(option)}`]);
}

export function formatCopy(from: string, to: string, schema: string, tables: TableCopy[]): string {
  const copied = tables.reduce((n, t) => n + t.copied, 0);
  const rows = tables.map((t) => [
    t.table,
    String(t.source),
    String(t.copied),
    String(t.alreadyThere),
    String(t.target),
  ]);
  const ok = tables.every((t) => t.present === t.source);
  return [
    `state migrate: ${from} -> ${to} (schema ${schema})`,
    ...textTable(['table', 'sqlite', 'copied', 'already there', 'postgres'], rows, [
      'left',
      'right',
      'right',
      'right',
      'right',
    ]),
    copied === 0 ? 'nothing to copy: every row of the file is already in PostgreSQL' : `copied ${copied} rows`,
    ok ? 'counts match: every row of the file is in PostgreSQL' : 'counts do NOT match (see the table)',
    '',
  ].join('\n');
}
