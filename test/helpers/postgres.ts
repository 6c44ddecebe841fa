import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postgresAnswers, postgresUrl, REQUIREMENTS } from '../tiers.js';

/** The test server's URL (RAGWATCH_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/test). */
export const TEST_PG_URL = postgresUrl();

/** Fails (never skips) when the server does not answer: the system tier needs it. */
export async function requirePostgres(): Promise<void> {
  if (!(await postgresAnswers())) {
    throw new Error(
      `PostgreSQL does not answer at ${TEST_PG_URL}: the system tier needs ${REQUIREMENTS.postgresql.install}`,
    );
  }
}

/** A schema name of its own for one test run (dropped by `dropSchema`). */
export function testSchema(prefix = 'rw_test'): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Runs one statement on the test server outside ragwatch (schema set-up and clean-up). */
export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  await adminQuery(`DROP SCHEMA IF EXISTS "${schema.replace(/"/g, '""')}" CASCADE`);
}
