/**
 * The seam between `ragwatch demo` and the devkit (`@ragwatch/devkit`, the `devkit/` workspace of the
 * repository). ragwatch does not depend on the devkit: a production install leaves it out, and the demo
 * loads it only when it runs. The devkit implements `RunDemoCommand`; this file is all ragwatch knows of it.
 */
import { CliExit, ExitCode } from '../exit-codes.js';

export interface DemoCommandOptions {
  personality: 'v3' | 'v4';
  traces: number;
  seed: string;
  host: string;
  langfusePort: number;
  judgePort: number;
  /** Keep the servers running until SIGINT or SIGTERM. */
  keep: boolean;
  /** Print one JSON report instead of text. */
  json: boolean;
}

export interface DemoCommandResult {
  /** Every demo step succeeded. */
  ok: boolean;
  /** Why the demo could not run at all (the stand-ins did not start), for stderr. */
  problem?: string;
}

/** Runs the demo and writes its output. */
export type RunDemoCommand = (
  options: DemoCommandOptions,
  stdout: { write(chunk: string): unknown },
) => Promise<DemoCommandResult>;

export const DEVKIT_PACKAGE = '@ragwatch/devkit';
export const DEVKIT_DEMO_ENTRY = `${DEVKIT_PACKAGE}/demo/command.js`;

const HOW_TO_GET_IT = [
  'The demo needs the devkit, which a production install leaves out. To run it, clone the repository, then:',
  '  npm ci && npm run demo',
];

function missingPackage(err: unknown, name: string): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = err instanceof Error ? err.message : String(err);
  return message.includes(`'${name}'`) || message.includes(`"${name}"`);
}

/**
 * Loads the devkit's demo entry. Exits 2 with how to get the devkit when it is not installed, or how to
 * build it when only its sources are there; any other failure (a broken devkit) is not hidden.
 */
export async function loadDemoCommand(
  entry: string = DEVKIT_DEMO_ENTRY,
  load: (specifier: string) => Promise<unknown> = (specifier) => import(specifier),
): Promise<RunDemoCommand> {
  const pkg = entry.startsWith('@') ? entry.split('/').slice(0, 2).join('/') : (entry.split('/')[0] ?? entry);
  let mod: unknown;
  try {
    mod = await load(entry);
  } catch (err) {
    if (missingPackage(err, pkg))
      throw new CliExit(ExitCode.badInput, [`demo: ${pkg} is not installed.`, ...HOW_TO_GET_IT]);
    const message = err instanceof Error ? err.message : String(err);
    if (
      (err as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
      message.includes(`${entry.slice(pkg.length + 1, -3)}`)
    ) {
      throw new CliExit(ExitCode.badInput, [
        `demo: ${pkg} is installed but not built (${message}).`,
        'Build it with `npm run build:devkit`, or run the demo from the sources with `npm run demo`.',
      ]);
    }
    throw err;
  }
  const run = (mod as { runDemoCommand?: unknown }).runDemoCommand;
  if (typeof run !== 'function')
    throw new CliExit(ExitCode.badInput, [`demo: ${entry} does not export runDemoCommand; reinstall the devkit`]);
  return run as RunDemoCommand;
}
