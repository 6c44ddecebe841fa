/**
 * The real `ragwatch run` (through tsx, as `spawnCli` starts it) against the devkit's Langfuse and judge
 * stand-ins on loopback, for tests that look at what a running daemon exports.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { seedDemo } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { openSqliteState } from '../../../src/state/index.js';
import { spawnCli } from '../../helpers/run-cli.js';
import { freePort } from '../../helpers/free-port.js';
import { standInEnv } from '../../helpers/stand-in-env.js';

export interface LiveDaemon {
  /** /metrics as text, once the first online tick has succeeded. */
  metrics: string;
  scrape(): Promise<string | null>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `traces`: demo traces seeded into the first window (0: a RAG service without traffic yet).
 * `persistedGauges`: gauge values already in the state file, as an earlier run (e.g. the weekly
 * experiment) leaves them; the daemon restores them at start-up.
 */
export async function startLiveDaemon(options: {
  traces: number;
  seed: string;
  persistedGauges?: Record<string, number>;
}): Promise<LiveDaemon> {
  const work = mkdtempSync(join(tmpdir(), 'ragwatch-live-'));
  let langfuse: LangfuseServer | undefined;
  let judge: JudgeServer | undefined;
  let daemon: ChildProcess | undefined;
  let output = '';
  const stop = async () => {
    if (daemon && daemon.exitCode === null && daemon.signalCode === null) {
      const exited = new Promise((r) => daemon!.once('exit', r));
      daemon.kill('SIGTERM');
      await exited;
    }
    await Promise.all([langfuse?.close(), judge?.close()]);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    [langfuse, judge] = await Promise.all([
      startLangfuseServer({ personality: 'v3', host: '127.0.0.1', port: 0 }),
      startJudgeServer({ host: '127.0.0.1', port: 0 }),
    ]);
    if (options.traces > 0) {
      // Settled production traces in the daemon's first window: RAG traces of several shapes, non-RAG ones.
      await seedDemo({
        langfuseUrl: langfuse.url,
        publicKey: langfuse.publicKey,
        secretKey: langfuse.secretKey,
        personality: 'v3',
        seed: options.seed,
        count: options.traces,
        now: new Date(Date.now() - 20 * 60_000),
        windowMinutes: 20,
        dataset: false,
        verify: false,
      });
    }
    if (options.persistedGauges) {
      const state = openSqliteState({ path: join(work, 'ragwatch.db') });
      await state.setGauges(options.persistedGauges, Date.now());
      await state.close();
    }
    const configFile = join(work, 'ragwatch.yaml');
    writeFileSync(
      configFile,
      stringify({
        sampling: { rate: 1 },
        online: { schedule: '* * * * *' },
        state: { path: join(work, 'ragwatch.db') },
        http: { host: '127.0.0.1' },
      }),
    );
    const port = await freePort();
    daemon = spawnCli(['run', '--config', configFile], {
      cwd: work,
      env: {
        ...standInEnv(langfuse, judge),
        RAGWATCH_HTTP_PORT: String(port),
      },
    });
    daemon.stdout!.on('data', (d) => (output += d));
    daemon.stderr!.on('data', (d) => (output += d));
    const scrape = async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) });
        return res.ok ? await res.text() : null;
      } catch {
        return null;
      }
    };
    // Until the first online tick has succeeded, so the labelled families have series.
    for (let i = 0; i < 2400; i++) {
      if (daemon.exitCode !== null) throw new Error(`ragwatch run exited ${daemon.exitCode}:\n${output}`);
      const text = await scrape();
      if (text && /^ragwatch_job_last_success_timestamp_seconds\{[^}]*job="online"/m.test(text)) {
        return { metrics: text, scrape, output: () => output, stop };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no successful online tick on /metrics:\n${output}`);
  } catch (err) {
    await stop();
    throw err;
  }
}
