import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { defaultContext } from '../../src/commands/index.js';
import { ExitCode } from '../../src/exit-codes.js';
import {
  CODES,
  COMMAND_OUTCOMES,
  exitCodesHelp,
  markdownRow,
  OUTCOMES,
  outcomesHelp,
  outcomesOf,
} from '../../src/outcomes.js';
import { buildProgram } from '../../src/program.js';
import { runCliInProcess } from '../helpers/run-cli-in-process.js';

const OPERATIONS = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');

/** Every command that runs (no subcommands), as a path. */
function leaves(command: Command, prefix: string[] = []): string[][] {
  return command.commands.flatMap((c) => {
    const path = [...prefix, c.name()];
    return c.commands.length > 0 ? leaves(c, path) : [path];
  });
}

describe('the outcome table', () => {
  it('is the same in docs/operations.md as in --help', () => {
    for (const row of OUTCOMES) expect(OPERATIONS).toContain(`| ${row.situation} | ${row.oneShot} | ${row.daemon} |`);
  });

  it('is printed by ragwatch --help', async () => {
    const r = await runCliInProcess(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(outcomesHelp().trim());
  });

  it('has a column per exit code', () => {
    expect(CODES).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
    expect(OPERATIONS).toContain(`| command | ${CODES.join(' | ')} |`);
  });

  it('names the codes of every command, each row the same in docs/operations.md', () => {
    for (const row of COMMAND_OUTCOMES) expect(OPERATIONS).toContain(markdownRow(row));
    const commands = leaves(buildProgram(defaultContext()));
    expect(commands.length).toBeGreaterThan(15);
    for (const path of commands) expect(outcomesOf(path), path.join(' ')).not.toEqual([]);
  });

  it("ends every command's --help with its row", async () => {
    for (const path of leaves(buildProgram(defaultContext()))) {
      const r = await runCliInProcess([...path, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout, path.join(' ')).toContain(exitCodesHelp(path).trim());
      expect(r.stdout.match(/Exit codes/g), path.join(' ')).toHaveLength(1);
    }
  });
});
