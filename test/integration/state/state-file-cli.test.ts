import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { openSqliteState } from '../../../src/state/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';

/**
 * Real state files a careless operator leaves behind: read-only, emptied, not SQLite, another program's
 * database. Every command that opens the state gives the same one line naming `state.path` and the same
 * exit code (2: retrying cannot help), before anything starts; nothing is created or overwritten.
 */

let dir: string | undefined;
afterEach(() => {
  if (dir) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
  dir = undefined;
});

function setUp(): { statePath: string; configFile: string } {
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-state-cli-'));
  chmodSync(dir, 0o777);
  const statePath = join(dir, 'state.db');
  const configFile = join(dir, 'ragwatch.yaml');
  // Langfuse is never reached: every case ends at the state file.
  writeFileSync(
    configFile,
    stringify({
      langfuse: { baseUrl: 'http://127.0.0.1:9', maxAttempts: 1 },
      state: { path: statePath },
      http: { host: '127.0.0.1', port: 0 },
    }),
  );
  chmodSync(configFile, 0o644);
  return { statePath, configFile };
}

const COMMANDS: Array<[string, string[]]> = [
  ['run', ['run']],
  ['sample --once', ['sample', '--once']],
  ['sample --trace', ['sample', '--trace', 't-1']],
  ['status', ['status']],
  ['retry-dead', ['retry-dead']],
  ['experiment run', ['experiment', 'run']],
];

describe.each<[string, (path: string) => void, RegExp]>([
  ['an empty (0-byte) file', (path) => writeFileSync(path, ''), /is empty \(0 bytes\)/],
  [
    'a file that is not SQLite',
    (path) => writeFileSync(path, 'not a database '.repeat(300)),
    /is not an SQLite database.*\(SQLITE_NOTADB\)/,
  ],
  [
    "another program's SQLite database",
    (path) => {
      const db = new BetterSqlite3(path);
      db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
      db.close();
    },
    /is an SQLite database but not a ragwatch state file/,
  ],
])('a state file that is %s', (_label, make, message) => {
  it.each(COMMANDS)('%s exits 2 with one line naming state.path and leaves the file as it was', async (_name, args) => {
    const { statePath, configFile } = setUp();
    make(statePath);
    const before = statSync(statePath);
    const r = await runCliInProcess([...args, '--config', configFile]);
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^state\\.path: ${statePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
    expect(lines[0]).toMatch(message);
    const after = statSync(statePath);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
  });
});

describe('a read-only state file', () => {
  // Root writes whatever the mode says: the commands run as an unprivileged user then.
  const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

  it.each([
    ['run', ['run']],
    ['sample --once', ['sample', '--once']],
  ] as Array<[string, string[]]>)(
    '%s exits 2 with one line naming state.path, before anything starts',
    async (_name, args) => {
      const { statePath, configFile } = setUp();
      const state = openSqliteState({ path: statePath });
      await state.setCursor('online', 1, 1);
      await state.close();
      chmodSync(statePath, 0o444);
      const r = await runCli([...args, '--config', configFile], { ...user, cwd: dir!, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toEqual([
        `state.path: ${statePath} cannot be written: ragwatch writes the file and, beside it, its -wal and -shm files; check their and the directory's ownership and permissions (SQLITE_READONLY)`,
      ]);
    },
  );

  it('is still shown by status (which only reads)', async () => {
    const { statePath, configFile } = setUp();
    const state = openSqliteState({ path: statePath });
    await state.setCursor('online', 1, 1);
    await state.close();
    chmodSync(statePath, 0o444);
    const r = await runCli(['status', '--config', configFile], { ...user, cwd: dir!, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`state: ${statePath}`);
  });
});
