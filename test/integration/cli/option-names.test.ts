import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';

/** A line that ends a command with 2 names the option the user typed, not the configuration key behind it. */

let dir: string;
let empty: string;
// Nothing listens on port 1: every case below must fail before connecting.
const URL = 'postgres://ragwatch@127.0.0.1:1/ragwatch';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-option-names-'));
  empty = join(dir, 'empty.db');
  writeFileSync(empty, '');
  writeFileSync(join(dir, 'ragwatch.yaml'), 'log: {level: silent}\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lines(args: string[]) {
  const r = await runCliInProcess(args, { cwd: dir });
  return { code: r.code, lines: r.stderr.trim().split('\n') };
}

describe('option names in errors', () => {
  it("state migrate --schema 'a\"b' names --schema", async () => {
    const r = await lines(['state', 'migrate', '--from', empty, '--to', URL, '--schema', 'a"b']);
    expect(r).toEqual({
      code: 2,
      lines: ['state migrate: --schema: must be a lower-case schema name (letters, digits, _) (got "a\\"b")'],
    });
  });

  it('state migrate with an empty --from file names --from', async () => {
    const r = await lines(['state', 'migrate', '--from', empty, '--to', URL]);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(/^state migrate: --from: .*empty\.db is empty \(0 bytes\)/)]);
  });

  it('state migrate with a --from file that is not SQLite names --from', async () => {
    const text = join(dir, 'notes.db');
    writeFileSync(text, 'not a database, just text that is long enough to have a header. '.repeat(20));
    const r = await lines(['state', 'migrate', '--from', text, '--to', URL]);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(/^state migrate: --from: .*notes\.db is not an SQLite database/)]);
  });

  it('evaluate --input names --input', async () => {
    const r = await lines(['evaluate', '--input', join(dir, 'missing.jsonl')]);
    expect(r).toEqual({
      code: 2,
      lines: [expect.stringMatching(/^evaluate: --input: cannot read .*missing\.jsonl: ENOENT$/)],
    });
  });

  it('golden build --corpus names --corpus', async () => {
    const r = await lines(['golden', 'build', '--corpus', join(dir, 'no-such-dir'), '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(/^golden build: --corpus: cannot read .*no-such-dir: ENOENT/)]);
  });

  it('golden build with golden.corpus in the configuration names golden.corpus', async () => {
    const config = join(dir, 'corpus.yaml');
    writeFileSync(config, `log: {level: silent}\ngolden: {corpus: ${JSON.stringify(join(dir, 'gone'))}}\n`);
    const r = await lines(['--config', config, 'golden', 'build', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(/^golden build: golden\.corpus: cannot read .*gone: ENOENT/)]);
  });

  it('experiment run --split names the command and --split', async () => {
    const r = await lines(['experiment', 'run', '--split', 'x']);
    expect(r).toEqual({ code: 2, lines: ['experiment run: --split: must be dev, test or all (got "x")'] });
  });
});
