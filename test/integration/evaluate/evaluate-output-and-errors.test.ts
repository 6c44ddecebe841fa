import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { parseInputLines } from '../../../src/metrics/batch/input.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';

let server: JudgeServer;
let dir: string;

beforeAll(async () => {
  server = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'ragwatch-evaluate-limits-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
});

const sample = {
  id: 's1',
  question: 'How long does a plain VACUUM lock a PostgreSQL table?',
  answer: 'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock.',
  contexts: ['A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock and runs alongside reads and writes.'],
};

async function setup(lines: string[]): Promise<{ config: string; input: string }> {
  const config = join(dir, `ragwatch-${Math.random().toString(16).slice(2)}.yaml`);
  await writeFile(
    config,
    `judge:\n  baseUrl: ${server.url}\n  maxAttempts: 1\nembeddings:\n  model: ${server.embeddingModel}\nlog:\n  level: silent\n`,
  );
  const input = join(dir, `in-${Math.random().toString(16).slice(2)}.jsonl`);
  await writeFile(input, `${lines.join('\n')}\n`);
  return { config, input };
}

describe('evaluate --output', () => {
  it('exits 2 with one clear line, before any judge call, when the directory is missing', async () => {
    const { config, input } = await setup([JSON.stringify(sample)]);
    const output = join(dir, 'no-such-dir', 'results.jsonl');
    const res = await runCliInProcess(['evaluate', '--config', config, '--input', input, '--output', output]);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toEqual([
      `evaluate: cannot write --output ${output}: the directory does not exist`,
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('exits 2 with one clear line, before any judge call, when the output is a directory', async () => {
    const { config, input } = await setup([JSON.stringify(sample)]);
    const output = join(dir, 'a-directory');
    await mkdir(output, { recursive: true });
    const res = await runCliInProcess(['evaluate', '--config', config, '--input', input, '--output', output]);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toEqual([`evaluate: cannot write --output ${output}: it is a directory`]);
    expect(server.requests).toHaveLength(0);
  });

  it('still writes the results to a file it can write', async () => {
    const { config, input } = await setup([JSON.stringify(sample)]);
    const output = join(dir, 'results.jsonl');
    const res = await runCliInProcess([
      'evaluate',
      '--config',
      config,
      '--input',
      input,
      '--output',
      output,
      '--metrics',
      'faithfulness',
    ]);
    expect(res.code).toBe(0);
    expect(JSON.parse((await readFile(output, 'utf8')).trim())).toMatchObject({ id: 's1' });
  });
});

describe('evaluate never quotes its input in an error', () => {
  it('names the malformed line by number only: no personal data, no escape bytes', async () => {
    const malformed = [
      '\u001b[2J\u001b]0;pwned\u0007{"question": laura.gomez@example.com',
      'laura.gomez@example.com',
      '{"question": "x", "answer": "y", "contexts": "ES91 2100 0418 4502 0005 1332"}',
      '{"question": "\\u001b[31mcrimsonmark", "answer": 42, "contexts": []}',
    ];
    const { config, input } = await setup([...malformed, JSON.stringify(sample)]);
    const res = await runCliInProcess(['evaluate', '--config', config, '--input', input, '--metrics', 'faithfulness']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/line 1: not valid JSON/);
    expect(res.stderr).toMatch(/line 4: answer: answer must be a string/);
    for (const leak of ['laura', 'gomez', 'ES91', '2100', 'pwned', 'crimsonmark', '\u001b', '\u0007'])
      expect(res.stderr, JSON.stringify(leak)).not.toContain(leak);
  });

  it('property: no error says anything the line said', () => {
    // Every printable run of 4+ characters of a malformed line is absent from its error.
    const junk = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      fc.string({ minLength: 1, maxLength: 40 }).map((s) => `{"question": ${s}`),
      fc.string({ minLength: 1, maxLength: 40 }).map((s) => `["${s}"]`),
      fc
        .string({ minLength: 4, maxLength: 40 })
        .map((s) => JSON.stringify({ question: 'q', answer: 'a', contexts: s })),
    );
    fc.assert(
      fc.property(junk, (line) => {
        fc.pre(line.trim() !== '' && !line.includes('\n') && !line.includes('\r'));
        const [parsed] = parseInputLines(line);
        if (!parsed || !('error' in parsed)) return;
        const error = parsed.error;
        for (const run of line.match(/[^\s"{}[\]:,]{4,}/gu) ?? []) {
          if (
            [
              'question',
              'answer',
              'contexts',
              'reference',
              'language',
              'string',
              'strings',
              'array',
              'required',
            ].includes(run)
          )
            continue;
          expect(error.includes(run), `${JSON.stringify(run)} quoted in ${JSON.stringify(error)}`).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
