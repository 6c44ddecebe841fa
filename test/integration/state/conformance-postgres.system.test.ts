import { beforeAll } from 'vitest';
import { openPostgresState } from '../../../src/state/postgres/open.js';
import type { BackendInstance } from '../../state-conformance/backend.js';
import { stateConformance } from '../../state-conformance/cases.js';
import { dropSchema, requirePostgres, testSchema } from '../../helpers/postgres.js';
import { postgresUrl } from '../../tiers.js';

/** The test server (RAGWATCH_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/test). */
const TEST_PG_URL = postgresUrl();

beforeAll(requirePostgres);

/** The state conformance suite on PostgreSQL: a schema of its own per test, dropped after it. */
stateConformance({
  name: 'postgres',
  async create() {
    const schema = testSchema();
    // PostgreSQL is always shared: every claim holds, whoever made it.
    const open = async ({ shared: _shared, ...options }: Parameters<BackendInstance['open']>[0] = {}) =>
      openPostgresState({ url: TEST_PG_URL, schema, ...options });
    const golden = await open();
    return {
      open,
      golden: async () => Object.assign(golden.golden(), { close: () => golden.close() }),
      processOpener: `async function openStore(dist) {
  const { openPostgresState } = await import(dist + 'state/postgres/open.js');
  return openPostgresState({ url: ${JSON.stringify(TEST_PG_URL)}, schema: ${JSON.stringify(schema)}, isProcessAlive: () => true });
}`,
      dispose: async () => {
        await golden.close();
        await dropSchema(schema);
      },
    };
  },
});
