import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteGoldenStore, openSqliteState } from '../../../src/state/index.js';
import { stateConformance } from '../../state-conformance/cases.js';

/** The state conformance suite on SQLite: a new file per test, connections are handles on it. */
stateConformance({
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-conformance-'));
    const path = join(dir, 'state.db');
    return {
      open: async (options = {}) => openSqliteState({ path, ...options }),
      golden: async () => openSqliteGoldenStore({ path }),
      processOpener: `async function openStore(dist) {
  const { openSqliteState } = await import(dist + 'state/index.js');
  return openSqliteState({ path: ${JSON.stringify(path)}, isProcessAlive: () => true });
}`,
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
});
