import { PassThrough } from 'node:stream';
import type { CommandContext } from '../../src/commands/context.js';
import { main } from '../../src/program.js';

/** Runs the CLI in this process (`main` with captured streams): faster than a child, for tests that need no real process. */
export async function runCliInProcess(
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    context?: Partial<Pick<CommandContext, 'now' | 'timers'>>;
    stderrIsTTY?: boolean;
    stdin?: string;
  } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), options.stderrIsTTY ? { isTTY: true, columns: 200 } : {});
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const code = await main(args, {
    stdout,
    stderr,
    stdin,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    ...options.context,
  });
  return { code, stdout: out, stderr: err };
}
