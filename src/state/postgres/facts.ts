import type { StateFacts } from '../roles.js';
import type { Db } from './db.js';

/** Meta facts and gauges on PostgreSQL. */
export function postgresFacts(db: Db): StateFacts {
  return {
    async getMeta(key) {
      const r = await db.query<{ value: string; updated_at: number }>(
        'SELECT value, updated_at FROM meta WHERE key = $1',
        [key],
      );
      const row = r.rows[0];
      return row ? { value: row.value, updatedAt: row.updated_at } : null;
    },
    async setMeta(key, value, now) {
      await db.query(
        `INSERT INTO meta (key, value, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [key, value, now],
      );
    },
    async getGauges() {
      const out: Record<string, number> = {};
      for (const row of (await db.query<{ name: string; value: number }>('SELECT name, value FROM gauges')).rows)
        out[row.name] = row.value;
      return out;
    },
    async setGauges(values, now) {
      const names = Object.keys(values);
      if (names.length === 0) return;
      await db.query(
        `INSERT INTO gauges (name, value, updated_at) SELECT name, value, $3 FROM unnest($1::text[],
           $2::double precision[]) AS g(name, value)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [names, names.map((n) => values[n]), now],
      );
    },
  };
}
