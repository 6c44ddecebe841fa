import type { Leases } from '../roles.js';
import type { Db } from './db.js';

/**
 * Leases on PostgreSQL: taking one is a single conditional upsert (the row lock decides between racing
 * sessions); taking over from a dead process on this host is a compare-and-swap on the holder it saw.
 */
export function postgresLeases(db: Db, isProcessAlive: (pid: number) => boolean): Leases {
  return {
    async acquireLease(name, holder, ttlMs, now) {
      const taken = await db.query(
        `INSERT INTO leases AS l (name, holder, host, pid, acquired_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, host = excluded.host, pid = excluded.pid,
           acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
         WHERE l.expires_at <= $5 OR l.holder = $2
         RETURNING holder`,
        [name, holder.id, holder.host, holder.pid, now, now + ttlMs],
      );
      if (taken.rowCount === 1) return true;
      const current = (
        await db.query<{ holder: string; host: string; pid: number }>(
          'SELECT holder, host, pid FROM leases WHERE name = $1',
          [name],
        )
      ).rows[0];
      if (!current || current.host !== holder.host || current.pid === holder.pid || isProcessAlive(current.pid))
        return false;
      const swapped = await db.query(
        `UPDATE leases SET holder = $2, host = $3, pid = $4, acquired_at = $5, expires_at = $6
         WHERE name = $1 AND holder = $7`,
        [name, holder.id, holder.host, holder.pid, now, now + ttlMs, current.holder],
      );
      return swapped.rowCount === 1;
    },
    async renewLease(name, holder, ttlMs, now) {
      const r = await db.query('UPDATE leases SET expires_at = $1 WHERE name = $2 AND holder = $3', [
        now + ttlMs,
        name,
        holder.id,
      ]);
      return r.rowCount === 1;
    },
    async releaseLease(name, holder) {
      await db.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder.id]);
    },
    async leaseHolder(name, now) {
      const r = await db.query<{ holder: string; expires_at: number }>(
        'SELECT holder, expires_at FROM leases WHERE name = $1 AND expires_at > $2',
        [name, now],
      );
      const row = r.rows[0];
      return row ? { holder: row.holder, expiresAt: row.expires_at } : null;
    },
  };
}
