import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { startGoldenHarness, type GoldenHarness } from './harness.js';

let h: GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('ragwatch golden: input, plan, progress', () => {
  it('exits 2 with one line per problem on bad input, before anything is sent', async () => {
    h = await startGoldenHarness('v3');
    await mkdir(join(h.dir, 'empty'));
    await writeFile(join(h.dir, 'bad.yaml'), 'golden: {mix: {single-hop: 2}, questionsPerSeed: 9}\n');
    const cases: Array<[string[], RegExp]> = [
      [['golden', 'build'], /no corpus: give --corpus DIR \(or set golden.corpus\), or --from-traces/],
      [['golden', 'build', '--corpus', 'corpus', '--from-traces'], /give --corpus or --from-traces, not both/],
      [
        ['golden', 'build', '--from-traces', '--since', 'last tuesday'],
        /--since: must be like 30d, 12h, 2w or an ISO date/,
      ],
      [['golden', 'build', '--corpus', 'nowhere'], /--corpus: cannot read .*nowhere/],
      [['golden', 'build', '--corpus', 'empty'], /the corpus has no chunks/],
    ];
    for (const [args, message] of cases) {
      const r = await h.cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    const bad = await runCliInProcess(['--config', join(h.dir, 'bad.yaml'), 'golden', 'build', '--corpus', 'corpus'], {
      cwd: h.dir,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('golden.mix.single-hop: must be between 0 and 1');
    expect(bad.stderr).toContain('golden.questionsPerSeed: must be between 1 and 5');
    const diff = await h.cli('golden', 'diff');
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain('golden diff: need two versions of rag-golden (found 0)');
    expect(h.judgeRequests()).toBe(0);
  });

  it('a front matter the YAML library warns about: file and line on stderr, never the line (issue 29)', async () => {
    h = await startGoldenHarness('v3');
    await mkdir(join(h.dir, 'tagged'));
    const body = 'Orders ship within 48 hours from the central warehouse. '.repeat(5);
    await writeFile(
      join(h.dir, 'tagged', 'owner.md'),
      `---\nid: o\nowner: !foo juan.perez@example.com\n---\n${body}\n`,
    );
    // The real binary: the yaml library's warnings go to the process's own stderr, not the command's.
    const r = await runCli(
      ['--config', join(h.dir, 'ragwatch.yaml'), 'golden', 'build', '--corpus', 'tagged', '--dry-run', '--no-progress'],
      { cwd: h.dir },
    );
    expect(r.stderr).toContain('corpus: warning: owner.md:3: front matter: an unknown YAML tag');
    expect(r.stderr + r.stdout).not.toContain('juan.perez');
    expect(r.stderr).not.toContain('!foo');
  });

  it('a FIFO and a link out of the folder: the real binary skips both, counted, reads nothing outside (issue 30)', async () => {
    h = await startGoldenHarness('v3');
    const corpus = join(h.dir, 'hostile');
    await mkdir(corpus);
    const body = 'Orders ship within 48 hours from the central warehouse. '.repeat(5);
    await writeFile(join(corpus, 'shipping.md'), `${body}\n`);
    await writeFile(join(h.dir, 'outside.md'), `${'Private note of Ana García, 699 11 22 33. '.repeat(8)}\n`);
    await symlink(join(h.dir, 'outside.md'), join(corpus, 'note.md'));
    execFileSync('mkfifo', [join(corpus, 'stream.jsonl')]);
    // Before: the synchronous read of the FIFO blocked the process for good, --dry-run included.
    const r = await runCli(
      [
        '--config',
        join(h.dir, 'ragwatch.yaml'),
        'golden',
        'build',
        '--corpus',
        'hostile',
        '--dry-run',
        '--no-progress',
      ],
      { cwd: h.dir, timeoutMs: 30_000 },
    );
    expect(r.signal).toBeNull();
    expect(r.stderr).toContain('corpus: note.md: a link to a file outside the corpus folder');
    expect(r.stderr).toContain('corpus: stream.jsonl: not a regular file');
    expect(r.stdout).toContain('files not read: 1 not_regular, 1 outside_folder');
    expect(r.stdout + r.stderr).not.toContain('Ana García');
  });

  it('--dry-run shows the plan and sends nothing', async () => {
    h = await startGoldenHarness('v4');
    const r = await h.cli('golden', 'build', '--corpus', 'corpus', '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('plan (dry run: nothing generated, nothing written)');
    expect(r.stdout).toMatch(
      /chunks: 67 read, 65 eligible \(left out: 2 with personal data, 0 shorter than 200 characters/,
    );
    expect(r.stdout).toContain(
      'seeds: 12 (rate 0.075, min 12, max 1000, at least 1 per stratum), stratified over metadata "section" (strataKey auto: 11 values covering 100 % of the eligible chunks):',
    );
    expect(r.stdout).toMatch(/^ {2}bucket +chunks +seeds$/m);
    expect(r.stdout).toContain(
      'questions: 2 per seed, 24 in all: 7 single-hop seeds, 3 multi-hop seeds, 2 adversarial seeds (6 multi-hop seeds had no related chunk: single-hop or adversarial)',
    );
    expect(r.stdout).toContain(
      "mix: single-hop 58 %, multi-hop 25 %, adversarial 17 % of the seeds (golden.mix 50 % / 25 % / 25 %; each seed's stratum is drawn from its own chunk, so at 12 seeds a share may stray by up to ±37 / ±33 / ±33 points)",
    );
    expect(r.stdout).toMatch(
      /^related chunks \(multi-hop\): 5 of 12 seeds have one \(a neighbour in their document, else rare shared names\), 7 found no partner$/m,
    );
    expect(r.stdout).toMatch(/judge requests: at most \d+/);
    expect(r.stdout).toContain('state: 0 seeds done, 0 generated and not yet filtered, 12 to generate');
    expect(h.judgeRequests()).toBe(0);
    expect(h.judge.requests).toHaveLength(0);
    expect(h.exchanges).toHaveLength(0);
  });

  it('shows its stages on a terminal and ends with the cost line', async () => {
    h = await startGoldenHarness('v3');
    const r = await runCliInProcess(
      ['--config', join(h.dir, 'ragwatch.yaml'), 'golden', 'build', '--corpus', 'corpus'],
      { cwd: h.dir, stderrIsTTY: true },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('golden: generating and filtering');
    expect(r.stderr).toMatch(/\d+\/12 seeds/);
    expect(r.stderr).toContain('golden: review queue');
    expect(r.stdout).toMatch(/^stratum +seeds +candidates +accepted +rejected +to review$/m);
    expect(r.stdout).toMatch(
      /cost: \d+ judge requests \(generator \d+, filters \d+\), [\d,]+ prompt and [\d,]+ completion tokens; \d+ embeddings requests/,
    );
    expect(r.stdout).toContain('next: people review in Langfuse, then `ragwatch golden review --apply`');
  });

  it('exits 3 when Langfuse cannot be reached', async () => {
    h = await startGoldenHarness('v3');
    const yaml = join(h.dir, 'down.yaml');
    await writeFile(
      yaml,
      `langfuse: {baseUrl: "http://127.0.0.1:9", maxAttempts: 1}\nlog: {level: silent}\nstate: {path: "${join(h.dir, 'state.db')}"}\n`,
    );
    const r = await runCliInProcess(['--config', yaml, 'golden', 'review', '--no-progress'], { cwd: h.dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('langfuse unreachable after retries');
  });
});
