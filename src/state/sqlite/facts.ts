import type { Database } from 'better-sqlite3';
import type { StateFacts } from '../roles.js';

/** Meta facts and gauges on SQLite. */
export function sqliteFacts(db: Database): StateFacts {
  const p = (sql: string) => db.prepare(sql);
  const stmt = {
    getMeta: p('SELECT value, updated_at FROM meta WHERE key = ?'),
    setMeta: p(
      `INSERT INTO meta (key, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ),
    getGauges: p('SELECT name, value FROM gauges'),
    setGauge: p(
      `INSERT INTO gauges (name, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ),
  };
  const setGauges = db.transaction((values: Record<string, number>, now: number) => {
    for (const [name, value] of Object.entries(values)) stmt.setGauge.run(name, value, now);
  });
  return {
    async getMeta(key) {
      const row = stmt.getMeta.get(key) as { value: string; updated_at: number } | undefined;
      return row ? { value: row.value, updatedAt: row.updated_at } : null;
    },
    async setMeta(key, value, now) {
      stmt.setMeta.run(key, value, now);
    },
    async getGauges() {
      const out: Record<string, number> = {};
      for (const row of stmt.getGauges.all() as { name: string; value: number }[]) out[row.name] = row.value;
      return out;
    },
    async setGauges(values, now) {
      setGauges(values, now);
    },
  };
}
