import type { Database } from 'better-sqlite3';
import type { Leases } from '../roles.js';

interface LeaseRow {
  holder: string;
  host: string;
  pid: number;
  expires_at: number;
}

/** Leases on SQLite: taken under the write lock (`BEGIN IMMEDIATE`), so two processes never both get one. */
export function sqliteLeases(db: Database, isProcessAlive: (pid: number) => boolean): Leases {
  const getLease = db.prepare('SELECT * FROM leases WHERE name = ?');
  const putLease = db.prepare(
    `INSERT INTO leases (name, holder, host, pid, acquired_at, expires_at)
     VALUES (@name, @holder, @host, @pid, @now, @expires)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, host = excluded.host, pid = excluded.pid,
       acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
  );
  const renew = db.prepare('UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?');
  const release = db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?');
  const live = db.prepare('SELECT holder, expires_at FROM leases WHERE name = ? AND expires_at > ?');
  return {
    async acquireLease(name, holder, ttlMs, now) {
      return db
        .transaction(() => {
          const current = getLease.get(name) as LeaseRow | undefined;
          const free =
            !current ||
            current.expires_at <= now ||
            current.holder === holder.id ||
            (current.host === holder.host && current.pid !== holder.pid && !isProcessAlive(current.pid));
          if (!free) return false;
          putLease.run({ name, holder: holder.id, host: holder.host, pid: holder.pid, now, expires: now + ttlMs });
          return true;
        })
        .immediate();
    },
    async renewLease(name, holder, ttlMs, now) {
      return renew.run(now + ttlMs, name, holder.id).changes > 0;
    },
    async releaseLease(name, holder) {
      release.run(name, holder.id);
    },
    async leaseHolder(name, now) {
      const row = live.get(name, now) as { holder: string; expires_at: number } | undefined;
      return row ? { holder: row.holder, expiresAt: row.expires_at } : null;
    },
  };
}
