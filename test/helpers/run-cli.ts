import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/esm/index.mjs', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string;
  timeoutMs?: number;
  /** Run as this user (and group): a root test process makes file permissions real for its child. */
  uid?: number;
  gid?: number;
}

/**
 * How to start the real `ragwatch` entry point: the run's transpiled build (test/setup/build-cli.ts) when
 * there is one, else the TypeScript sources through tsx's loader.
 */
function entry(): string[] {
  const built = inject('ragwatchCli');
  return built ? [built] : ['--conditions=ragwatch-source', '--import', TSX, CLI];
}

/** Runs the real `ragwatch` entry point in a child process. */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin!.end(options.input ?? '');
  });
}

/** The command and arguments that start the CLI (for wrapping it in another program). */
export function cliCommand(args: string[]): [string, string[]] {
  return [process.execPath, [...entry(), ...args]];
}

/** Starts the CLI and hands back the child, for daemons and kill tests. */
export function spawnCli(args: string[], options: RunCliOptions = {}) {
  return spawn(process.execPath, [...entry(), ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
}
