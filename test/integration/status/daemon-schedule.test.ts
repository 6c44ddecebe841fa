import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { StatusReport } from '../../../src/state/queries/status-report.js';
import { spawnCli } from '../../helpers/run-cli.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { startStack, type Stack } from '../online/harness.js';

/**
 * `status` answers for the running daemon: its schedules and next runs come from what the daemon recorded in the
 * state at start and at every run, not from the configuration `status` is given, and a configuration that differs
 * is flagged.
 */

let stack: Stack;
let dir: string;
const DAEMON_SCHEDULE = '*/10 * * * * *';

function config(name: string, schedule: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    stringify({
      langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
      judge: { baseUrl: stack.judge.url, model: stack.judge.model },
      embeddings: { model: stack.judge.embeddingModel },
      online: { schedule },
      state: { path: join(dir, 'state.db') },
      http: { host: '127.0.0.1', port: 0 },
      log: { level: 'warn' },
    }),
  );
  return file;
}

async function status(file: string): Promise<StatusReport> {
  const r = await runCliInProcess(['--config', file, 'status', '--json'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as StatusReport;
}

beforeAll(async () => {
  stack = await startStack('v3');
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-status-daemon-'));
}, 60_000);
afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('status beside a running daemon', () => {
  it('shows the daemon’s schedule and next run, flags a configuration that differs, and falls back once it stops', async () => {
    const daemon = spawnCli(['--config', config('daemon', DAEMON_SCHEDULE), 'run']);
    const exited = new Promise<number | null>((resolve) => daemon.on('close', (code) => resolve(code)));
    try {
      const other = config('other', '*/5 * * * *');
      // Wait for the daemon to record itself (start-up: connecting to the stand-ins, arming its timers).
      let report = await status(other);
      for (let i = 0; i < 150 && !report.daemon?.running; i++) {
        await new Promise((r) => setTimeout(r, 200));
        report = await status(other);
      }
      expect(report.daemon).toMatchObject({ running: true, pid: daemon.pid, stoppedAt: null });
      const online = report.jobs.find((j) => j.name === 'online')!;
      expect(online.schedule).toBe(DAEMON_SCHEDULE);
      const next = Date.parse(online.nextRunAt!) - Date.parse(report.generatedAt);
      expect(next).toBeGreaterThan(0);
      expect(next).toBeLessThanOrEqual(10_000);
      expect(online.intervalSeconds).toBe(10);
      expect(report.daemon!.differs).toEqual([`online.schedule: */5 * * * * here, ${DAEMON_SCHEDULE} in the daemon`]);

      const text = await runCliInProcess(['--config', other, 'status'], { cwd: dir });
      expect(text.stdout).toMatch(
        /^daemon: running on .* \(pid \d+\) since .*; schedules and next runs as it recorded them$/m,
      );
      expect(text.stdout).toContain(`    online.schedule: */5 * * * * here, ${DAEMON_SCHEDULE} in the daemon`);

      // The same configuration as the daemon's: nothing flagged.
      expect((await status(config('same', DAEMON_SCHEDULE))).daemon!.differs).toEqual([]);
    } finally {
      daemon.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const after = await status(config('after', '*/5 * * * *'));
    expect(after.daemon).toMatchObject({ running: false, stoppedAt: expect.any(String) });
    expect(after.jobs.find((j) => j.name === 'online')!.schedule).toBe('*/5 * * * *');
  }, 60_000);
});
