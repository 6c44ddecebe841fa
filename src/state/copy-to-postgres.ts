import type { Database } from 'better-sqlite3';
import { traceNameKey } from '../internal/index.js';
import type { Db } from './postgres/db.js';
import type { LeaseHolder } from './types.js';

/**
 * Copies an SQLite state file into a PostgreSQL schema of the same version, table by table, in one PostgreSQL
 * transaction. A row whose key is already in the target is left as it is there (the target may have moved
 * on), so a second run copies nothing. Leases (the daemon takes its own) and attempt records (they only feed
 * the last hour's cap) are not copied.
 */

/** Tables copied, in order, with their key columns. */
export const COPIED_TABLES: ReadonlyArray<{ table: string; key: readonly string[] }> = [
  { table: 'ledger', key: ['trace_id'] },
  { table: 'cursors', key: ['job'] },
  { table: 'job_runs', key: ['job'] },
  { table: 'gauges', key: ['name'] },
  { table: 'meta', key: ['key'] },
  { table: 'experiment_runs', key: ['dataset', 'run_name'] },
  { table: 'experiment_item_values', key: ['dataset', 'run_name', 'item_id', 'metric'] },
  { table: 'golden_builds', key: ['build_id'] },
  { table: 'golden_seeds', key: ['candidates_dataset', 'seed_key'] },
  { table: 'golden_candidates', key: ['candidates_dataset', 'candidate_id'] },
  { table: 'golden_review_queues', key: ['candidates_dataset'] },
  { table: 'golden_publications', key: ['prefix', 'version'] },
  { table: 'golden_question_vectors', key: ['model', 'text_hash'] },
  { table: 'report_files', key: ['run_dir', 'file'] },
];

export interface TableCopy {
  table: string;
  /** Rows in the SQLite file. */
  source: number;
  /** Rows inserted into PostgreSQL by this run. */
  copied: number;
  /** Source rows whose key PostgreSQL already had (left as they were). */
  alreadyThere: number;
  /** Source keys found in PostgreSQL after the copy: equals `source` when nothing is missing. */
  present: number;
  /** Rows in the PostgreSQL table after the copy. */
  target: number;
}

const BATCH_ROWS = 500;

/** A lease the SQLite file says is held by a live process: the installation is not stopped. */
export function liveLease(
  source: Database,
  now: number,
  self: Pick<LeaseHolder, 'host'>,
  isProcessAlive: (pid: number) => boolean,
): { name: string; holder: string; expiresAt: number } | null {
  const hasLeases = source.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leases'").get();
  if (!hasLeases) return null;
  const rows = source.prepare('SELECT name, holder, host, pid, expires_at FROM leases').all() as {
    name: string;
    holder: string;
    host: string;
    pid: number;
    expires_at: number;
  }[];
  for (const r of rows) {
    if (r.expires_at <= now) continue;
    // A holder on this host whose process is gone left its lease behind: nothing is running.
    if (r.host === self.host && !isProcessAlive(r.pid)) continue;
    return { name: r.name, holder: r.holder, expiresAt: r.expires_at };
  }
  return null;
}

export async function copySqliteToPostgres(source: Database, target: Db): Promise<TableCopy[]> {
  const tables = new Set(
    (source.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (r) => r.name,
    ),
  );
  return target.transaction(async (q) => {
    const out: TableCopy[] = [];
    for (const { table, key } of COPIED_TABLES) {
      const rows = tables.has(table)
        ? (source.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[]).map((row) => keptAs(table, row))
        : [];
      const columns = rows[0] ? Object.keys(rows[0]) : [];
      let copied = 0;
      for (let i = 0; i < rows.length; i += BATCH_ROWS) {
        const batch = rows.slice(i, i + BATCH_ROWS);
        const params: unknown[] = [];
        const tuples = batch.map((row) => `(${columns.map((c) => `$${params.push(row[c])}`).join(', ')})`);
        const r = await q(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}
           ON CONFLICT (${key.join(', ')}) DO NOTHING`,
          params,
        );
        copied += r.rowCount ?? 0;
      }
      const present = await presentKeys(q, table, key, rows);
      const target = Number((await q(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0]!.n);
      out.push({ table, source: rows.length, copied, alreadyThere: rows.length - copied, present, target });
    }
    return out;
  });
}

/**
 * A row as the target keeps it: a file written before trace names were keyed (schema version 6) still holds them
 * as the apps wrote them; they are copied as their keys (internal/trace-name.ts), never as written.
 */
function keptAs(table: string, row: Record<string, unknown>): Record<string, unknown> {
  if (table !== 'ledger' || typeof row.trace_name !== 'string') return row;
  return { ...row, trace_name: traceNameKey(row.trace_name) };
}

/** How many of the source rows' keys the target holds. */
async function presentKeys(
  q: Db['query'],
  table: string,
  key: readonly string[],
  rows: Record<string, unknown>[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const arrays = key.map((k) => rows.map((r) => (r[k] === null || r[k] === undefined ? null : String(r[k]))));
  const unnest = key.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const join = key.map((k) => `t.${k}::text = k.${k}`).join(' AND ');
  const r = await q(
    `SELECT COUNT(*) AS n FROM (SELECT DISTINCT * FROM unnest(${unnest}) AS k(${key.join(', ')})) k
     WHERE EXISTS (SELECT 1 FROM ${table} t WHERE ${join})`,
    arrays,
  );
  return Number(r.rows[0]!.n);
}
