import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';
import { DOCKERFILE, readText } from '../../unit/deploy/support/paths.js';
import { buildDockerfile, devOnlyPackages, makeContext, mapEnv, mapPath, onHost } from './dockerfile-runner.js';
import { freePort } from '../../helpers/free-port.js';
import {
  devkitOnlyPackages,
  installedPackages,
  type Lockfile,
  productionPackages,
} from '../../helpers/production-tree.js';
import { standInEnv } from '../../helpers/stand-in-env.js';

/**
 * deploy/Dockerfile without Docker: its npm commands run in a clean copy of the repository, then the
 * image's start command runs against the devkit's Langfuse and judge stand-ins, and /healthz must answer.
 */
const work = mkdtempSync(join(tmpdir(), 'ragwatch-dockerfile-'));
let daemon: ChildProcess | undefined;
let langfuse: LangfuseServer | undefined;
let judge: JudgeServer | undefined;

afterAll(async () => {
  if (daemon && daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
  await Promise.all([langfuse?.close(), judge?.close()]);
  rmSync(work, { recursive: true, force: true });
}, 120_000);

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<Response> {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null)
      throw new Error(`ragwatch exited ${child.exitCode} before /healthz answered:\n${output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return res;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`/healthz did not answer:\n${output()}`);
}

describe('deploy/Dockerfile, run without Docker', () => {
  it('installs, builds and starts from a clean copy; /healthz answers, the HEALTHCHECK passes, SIGTERM stops it cleanly', async () => {
    const context = join(work, 'context');
    const files = makeContext(REPO_ROOT, context, readText(`${DOCKERFILE}.dockerignore`));
    expect(files).toBeGreaterThan(10);
    expect(existsSync(join(context, 'node_modules'))).toBe(false);

    // npm as on the build host: this machine's npm config and cache; better-sqlite3 is compiled from
    // source rather than downloaded (only the npm registry is reachable here).
    const npmEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      npm_config_build_from_source: 'true',
      npm_config_prefer_offline: 'true',
      npm_config_update_notifier: 'false',
    };
    const { stages, log } = buildDockerfile(readText(DOCKERFILE), context, join(work, 'stages'), npmEnv);
    const image = stages[stages.length - 1]!;
    const ran = log.ran.map((r) => r.command);
    expect(ran.some((c) => /\bnpm ci\b.*--omit=dev/.test(c))).toBe(true);
    expect(ran.some((c) => /\bnpm run build\b/.test(c))).toBe(true);
    for (const r of log.ran) console.log(`dockerfile: ${r.stage}: ${r.command} (${r.seconds.toFixed(1)} s)`);
    for (const r of log.notRun)
      console.log(`dockerfile: ${r.stage}: not run here (base image setup): ${r.command.replace(/\s+/g, ' ')}`);

    // The runtime image holds production dependencies only: none of the dev dependencies, none of the
    // devkit workspace's, nothing the root package's dependencies do not reach.
    const appDir = onHost(image.root, '/app');
    const lockfile = join(appDir, 'package-lock.json');
    const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as Lockfile;
    const leaked = devOnlyPackages(lockfile).filter((p) => existsSync(join(appDir, p)));
    expect(leaked).toEqual([]);
    const devkitOnly = devkitOnlyPackages(lock);
    expect(devkitOnly).toContain('node_modules/js-tiktoken');
    expect(devkitOnly.filter((p) => existsSync(join(appDir, p)))).toEqual([]);
    const production = productionPackages(lock);
    expect(installedPackages(appDir).filter((p) => !production.has(p))).toEqual([]);
    expect(existsSync(join(appDir, 'node_modules', 'better-sqlite3'))).toBe(true);
    expect(existsSync(join(appDir, 'dist', 'cli.js'))).toBe(true);
    for (const dir of [appDir, join(appDir, 'dist'), join(appDir, 'node_modules')]) {
      const size = spawnSync('du', ['-sh', '--apparent-size', dir], { encoding: 'utf8' }).stdout.split('\t')[0];
      console.log(`dockerfile: runtime ${dir.slice(image.root.length)}: ${size}`);
    }

    // The CLI runs from that tree; the demo, whose devkit it leaves out, says how to get it.
    const cliEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [join(appDir, 'dist', 'cli.js'), ...args], {
        cwd: appDir,
        encoding: 'utf8',
        timeout: 60_000,
        env: cliEnv,
      });
    const help = cli(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('demo');
    const demo = cli(['demo']);
    expect(demo.status, demo.stderr).toBe(2);
    expect(demo.stderr).toContain('@ragwatch/devkit is not installed');
    expect(demo.stderr).toContain('npm ci && npm run demo');

    [langfuse, judge] = await Promise.all([
      startLangfuseServer({ personality: 'v3', host: '127.0.0.1', port: 0 }),
      startJudgeServer({ host: '127.0.0.1', port: 0 }),
    ]);
    const port = await freePort();
    const runtimeEnv: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...mapEnv(image.root, image.env),
      ...standInEnv(langfuse, judge),
      RAGWATCH_HTTP_PORT: String(port),
    };
    expect(runtimeEnv.NODE_ENV).toBe('production');

    // ENTRYPOINT is the init process (tini); what it runs is the image's command.
    const init = image.entrypoint.length > 0 ? image.entrypoint : [];
    expect(init[0]?.split('/').pop()).toMatch(/^(tini|dumb-init)$/);
    const argv = [...init.slice(init.indexOf('--') + 1), ...image.cmd].map((a) => mapPath(image.root, a));
    const cwd = onHost(image.root, image.workdir);
    mkdirSync(cwd, { recursive: true });
    let output = '';
    daemon = spawn(argv[0]!, argv.slice(1), { cwd, env: runtimeEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    daemon.stdout!.on('data', (d) => (output += d));
    daemon.stderr!.on('data', (d) => (output += d));

    const health = await waitForHealth(`http://127.0.0.1:${port}/healthz`, daemon, () => output);
    expect(health.status).toBe(200);

    // The image's own HEALTHCHECK command, with the image's environment.
    const check = spawnSync(image.healthcheck![0]!, image.healthcheck!.slice(1), {
      cwd,
      env: runtimeEnv,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(check.status, check.stderr).toBe(0);

    // The state file lands in the declared volume.
    const statePath = runtimeEnv.RAGWATCH_STATE_PATH!;
    expect(image.volumes.some((v) => statePath.startsWith(onHost(image.root, v)))).toBe(true);
    expect(existsSync(statePath), output).toBe(true);

    const exited = new Promise<number | null>((resolve) => daemon!.once('exit', (code) => resolve(code)));
    daemon.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    expect(output).not.toContain(langfuse.secretKey);
  }, 1_200_000);
});
