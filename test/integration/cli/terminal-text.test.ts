import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

/**
 * Issue 29, part 5: the real binary prints no control characters from the texts it shows (here `anonymize`, which
 * echoes its input anonymized): an ANSI sequence in an annotator's comment or a dataset text reaches no terminal.
 */
describe('terminal output', () => {
  it('strips escape sequences and control characters from what a command prints', async () => {
    const r = await runCli(['anonymize'], {
      env: { ...process.env, RAGWATCH_CONFIG: '' },
      input: '\x1b[31mAviso\x1b[0m: llame al 699 11 22 33\x9b2J\u202e hoy\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
    expect(r.stdout).toMatch(/^Aviso: llame al <PHONE_1> hoy\n$/);
  });
});
