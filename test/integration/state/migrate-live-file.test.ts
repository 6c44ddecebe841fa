import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli, spawnCli } from '../../helpers/run-cli.js';

/**
 * `state migrate` refuses a file a daemon is using, between ticks too: `ragwatch run` holds a liveness lease of
 * its own while it is up. The refusal comes before PostgreSQL is reached (nothing answers at the URL here).
 */

const NOWHERE = 'postgres://ragwatch:pw@127.0.0.1:9/ragwatch';
const children: Array<ReturnType<typeof spawnCli>> = [];
let dir: string | undefined;
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function setUp(): { statePath: string; configFile: string } {
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-live-'));
  const statePath = join(dir, 'state.db');
  const configFile = join(dir, 'ragwatch.yaml');
  writeFileSync(
    configFile,
    stringify({
      // Langfuse never answers: the daemon stays up, retrying, and runs no tick (no tick lease is ever held).
      langfuse: { baseUrl: 'http://127.0.0.1:9', maxAttempts: 1 },
      state: { path: statePath },
      http: { host: '127.0.0.1', port: 0 },
      log: { level: 'warn' },
    }),
  );
  return { statePath, configFile };
}

/** The leases in the file, as another process sees them. */
function leases(statePath: string): Array<{ name: string; holder: string; pid: number }> {
  try {
    const db = new BetterSqlite3(statePath, { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT name, holder, pid FROM leases').all() as Array<{
        name: string;
        holder: string;
        pid: number;
      }>;
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}

async function until<T>(what: () => T, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = what();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const migrate = (statePath: string) => runCli(['state', 'migrate', '--from', statePath, '--to', NOWHERE]);

describe('state migrate and a running daemon', () => {
  it('refuses the file while ragwatch run is up between ticks; a stopped or killed daemon lets it through', async () => {
    const { statePath, configFile } = setUp();
    const daemon = spawnCli(['--config', configFile, 'run']);
    children.push(daemon);
    const held = await until(
      () => leases(statePath),
      (rows) => rows.some((r) => r.pid === daemon.pid),
    );
    expect(held.map((r) => r.name)).toEqual([expect.stringMatching(/^daemon:/)]);

    const refused = await migrate(statePath);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/is in use: ragwatch run \(.+:\d+:[0-9a-f]+\) is up; stop it and run this again/);
    expect(refused.stderr).not.toContain('pw@');

    // A graceful stop gives the lease back: the file is free (the copy then fails on the URL, exit 3, not "in use").
    daemon.kill('SIGTERM');
    await new Promise((r) => daemon.once('exit', r));
    expect(leases(statePath)).toEqual([]);
    const free = await migrate(statePath);
    expect(free.stderr).not.toContain('is in use');

    // A killed daemon leaves its lease behind, but its process is gone on this host: the file is free too.
    const again = spawnCli(['--config', configFile, 'run']);
    children.push(again);
    await until(
      () => leases(statePath),
      (rows) => rows.some((r) => r.pid === again.pid),
    );
    again.kill('SIGKILL');
    await new Promise((r) => again.once('exit', r));
    expect(leases(statePath).some((r) => r.pid === again.pid)).toBe(true);
    expect((await migrate(statePath)).stderr).not.toContain('is in use');
  }, 90_000);
});
