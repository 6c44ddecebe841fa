import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultContext } from '../../../src/commands/index.js';
import { buildProgram } from '../../../src/program.js';
import { spawnCli } from '../../helpers/run-cli.js';
import { standInConfigLines } from '../../helpers/stand-in-env.js';
import { seed, startStack, type Stack } from '../online/harness.js';

/**
 * `ragwatch … | head -1`: the reader of stdout (or stderr) goes away before the command has written. Every command
 * ends quietly: its usual exit code, no `write EPIPE` stack. The reader here closes before the first byte, so
 * every write the command makes fails.
 */

interface Ended {
  code: number | null;
  /** What the command wrote to the stream that kept its reader. */
  other: string;
}

/** Runs the CLI with the reader of `closed` gone from the start; collects the other stream. */
function runWithReaderGone(args: string[], closed: 'stdout' | 'stderr', input = ''): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, { cwd: dir });
    child[closed]!.destroy();
    let other = '';
    child[closed === 'stdout' ? 'stderr' : 'stdout']!.on('data', (d) => (other += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, other });
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(input);
  });
}

/** Every command path with subcommands expanded: ['sample'], ['state', 'migrate'], … */
function commandPaths(command: Command, prefix: string[] = []): string[][] {
  return command.commands.flatMap((c) => {
    const path = [...prefix, c.name()];
    return c.commands.length > 0 ? [path, ...commandPaths(c, path)] : [path];
  });
}

let dir: string;
let stack: Stack;
let configFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-broken-pipe-'));
  stack = await startStack('v3');
  await seed(stack, 'v3', 12, new Date(Date.now() - 11 * 60_000), 5);
  configFile = join(dir, 'ragwatch.yaml');
  writeFileSync(configFile, standInConfigLines(stack.lf, stack.judge, join(dir, 'state.db')).join('\n'));
}, 60_000);
afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the reader of stdout goes away', () => {
  const paths = commandPaths(buildProgram(defaultContext()));

  it('finds every command', () => {
    expect(paths.length).toBeGreaterThan(20);
  });

  it.each([[[] as string[]], ...paths.map((p) => [p])])('ragwatch %j --help: exit 0, no stack', async (path) => {
    const r = await runWithReaderGone([...path, '--help'], 'stdout');
    expect(r.other).toBe('');
    expect(r.code).toBe(0);
  });

  it('anonymize, a filter, on a large input: exit 0', async () => {
    const text = 'Escríbeme a ana.garcia@example.com o llama al +34 612 345 678.\n'.repeat(4000);
    const r = await runWithReaderGone(['--config', configFile, 'anonymize'], 'stdout', text);
    expect(r.other).toBe('');
    expect(r.code).toBe(0);
  });

  it('anonymize --format jsonl with a bad line keeps its usual exit 2 and says why', async () => {
    const lines = [...Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: i, text: 'ana@example.com' })), 'nope'];
    const r = await runWithReaderGone(
      ['--config', configFile, 'anonymize', '--format', 'jsonl'],
      'stdout',
      `${lines.join('\n')}\n`,
    );
    expect(r.other).toBe('anonymize: line 51: not valid JSON\n');
    expect(r.code).toBe(2);
  });

  it.each([
    [['config', 'check']],
    [['doctor']],
    [['sample', '--once', '--dry-run', '--no-progress']],
    [['status']],
    [['status', '--json']],
  ])('ragwatch %j against the stand-ins: exit 0, no stack', async (args) => {
    const r = await runWithReaderGone(['--config', configFile, ...args], 'stdout');
    expect(r.other).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('the reader of stderr goes away', () => {
  it('a bad configuration still exits 2', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'sampling: {rate: 2}\n');
    const r = await runWithReaderGone(['--config', bad, 'config', 'check'], 'stderr');
    expect(r.code).toBe(2);
  });

  it('an unknown option still exits 2', async () => {
    const r = await runWithReaderGone(['sample', '--no-such-option'], 'stderr');
    expect(r.code).toBe(2);
  });
});
