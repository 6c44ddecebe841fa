import type { JobRun, MetaValue } from '../types.js';
import type { ReadOnlyState } from './read-only.js';

/** Read-only views of job runs, leases, cursors, gauges and meta facts. */

export interface LeaseRecord {
  name: string;
  holder: string;
  host: string;
  pid: number;
  acquiredAt: number;
  expiresAt: number;
}

export interface CursorRecord {
  job: string;
  position: number;
  updatedAt: number;
}

export function jobRuns(state: ReadOnlyState | null): JobRun[] {
  if (!state?.hasTable('job_runs')) return [];
  const rows = state.db
    .prepare('SELECT job, last_start_at, last_success_at, last_finish_at, last_outcome FROM job_runs ORDER BY job')
    .all() as {
    job: string;
    last_start_at: number | null;
    last_success_at: number | null;
    last_finish_at: number | null;
    last_outcome: string | null;
  }[];
  return rows.map((r) => ({
    job: r.job,
    lastStartAt: r.last_start_at,
    lastSuccessAt: r.last_success_at,
    lastFinishAt: r.last_finish_at,
    lastOutcome: r.last_outcome,
  }));
}

export function leases(state: ReadOnlyState | null): LeaseRecord[] {
  if (!state?.hasTable('leases')) return [];
  const rows = state.db
    .prepare('SELECT name, holder, host, pid, acquired_at, expires_at FROM leases ORDER BY name')
    .all() as {
    name: string;
    holder: string;
    host: string;
    pid: number;
    acquired_at: number;
    expires_at: number;
  }[];
  return rows.map((r) => ({
    name: r.name,
    holder: r.holder,
    host: r.host,
    pid: r.pid,
    acquiredAt: r.acquired_at,
    expiresAt: r.expires_at,
  }));
}

export function cursors(state: ReadOnlyState | null): CursorRecord[] {
  if (!state?.hasTable('cursors')) return [];
  const rows = state.db.prepare('SELECT job, position, updated_at FROM cursors ORDER BY job').all() as {
    job: string;
    position: number;
    updated_at: number;
  }[];
  return rows.map((r) => ({ job: r.job, position: r.position, updatedAt: r.updated_at }));
}

export function gauges(state: ReadOnlyState | null): Record<string, number> {
  if (!state?.hasTable('gauges')) return {};
  const out: Record<string, number> = {};
  for (const r of state.db.prepare('SELECT name, value FROM gauges ORDER BY name').all() as {
    name: string;
    value: number;
  }[])
    out[r.name] = r.value;
  return out;
}

/** A meta fact; null when absent, or when the file predates the meta table. */
export function readMeta(state: ReadOnlyState | null, key: string): MetaValue | null {
  if (!state?.hasTable('meta')) return null;
  const row = state.db.prepare('SELECT value, updated_at FROM meta WHERE key = ?').get(key) as
    { value: string; updated_at: number } | undefined;
  return row ? { value: row.value, updatedAt: row.updated_at } : null;
}
