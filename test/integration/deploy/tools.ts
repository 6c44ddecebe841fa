import { spawnSync } from 'node:child_process';

export interface ToolResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an external checker (promtool, systemd-analyze). A missing tool fails the test with the package
 * to install: these checks are part of the deliverable, never skipped.
 */
export function runTool(
  command: string,
  args: string[],
  options: { cwd?: string; debianPackage: string; timeoutMs?: number },
): ToolResult {
  const result = spawnSync(command, args, { cwd: options.cwd, encoding: 'utf8', timeout: options.timeoutMs ?? 60_000 });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error(
      `${command} is not installed: apt-get install ${options.debianPackage} (.ci/run installs it; the test is in the system tier: npm run test:system)`,
    );
  }
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
