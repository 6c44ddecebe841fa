import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUTCOMES, outcomesHelp } from '../../src/outcomes.js';
import { runCliInProcess } from '../helpers/run-cli-in-process.js';

const OPERATIONS = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');

describe('the outcome table', () => {
  it('is the same in docs/operations.md as in --help', () => {
    for (const row of OUTCOMES) expect(OPERATIONS).toContain(`| ${row.situation} | ${row.oneShot} | ${row.daemon} |`);
  });

  it('is printed by ragwatch --help', async () => {
    const r = await runCliInProcess(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(outcomesHelp().trim());
  });
});
