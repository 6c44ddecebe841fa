import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGoldenHarness, type GoldenHarness } from './harness.js';

let h: GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const YAML = 'golden: {seeds: {min: 12}}';

describe('golden build resumes after an interruption, generating nothing twice', () => {
  it('a judge that fails the filters leaves seeds generated; the next build reads their candidates back from Langfuse', async () => {
    h = await startGoldenHarness('v3', { yaml: YAML });
    await writeAttempts(h, 1);
    h.judge.script.answer({ schema: 'ragwatch_faithfulness', raw: '{"claims": [' });
    const first = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(first.code).toBe(3);
    const partial = JSON.parse(first.stdout);
    expect(partial.complete).toBe(false);
    expect(partial.stopped).toBeNull();
    expect(partial.failures.length).toBeGreaterThan(0);
    expect(new Set(partial.failures.map((f: { code: string }) => f.code))).toEqual(new Set(['judge:invalid_json']));
    const generation = () => ({
      questions: h!.judgeRequests('questions'),
      adversarial: h!.judgeRequests('adversarial'),
      references: h!.judgeRequests('references'),
    });
    const generatedOnce = generation();
    // The devkit corpus's plan: 7 single-hop, 3 multi-hop and 2 adversarial seeds.
    expect(generatedOnce.questions).toBe(10);
    expect(generatedOnce.adversarial).toBe(2);
    expect(h.langfuse.store.datasetItems('rag-golden-candidates')).toHaveLength(24);

    h.judge.script.clear();
    const second = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(second.code, second.stderr).toBe(0);
    const done = JSON.parse(second.stdout);
    expect(done.resume.generated).toBe(partial.failures.length);
    expect(done.complete).toBe(true);
    expect(generation()).toEqual(generatedOnce);
    expect(h.langfuse.store.datasetItems('rag-golden-candidates')).toHaveLength(24);
    for (const item of h.langfuse.store.datasetItems('rag-golden-candidates')) {
      expect(['accepted', 'rejected']).toContain((item.metadata as { status: string }).status);
    }
  }, 60_000);

  it('an outage stops the build after three seeds fail on it (exit 3); the next build finishes the job', async () => {
    h = await startGoldenHarness('v4', { yaml: `${YAML.slice(0, -1)}, concurrency: 1}` });
    await writeAttempts(h, 1);
    h.judge.faults.always('http_503');
    const stopped = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(stopped.code).toBe(3);
    const result = JSON.parse(stopped.stdout);
    expect(result.stopped).toMatch(/^judge:http_503 on 3 consecutive seeds/);
    expect(result.failures).toHaveLength(3);
    expect(h.langfuse.store.datasetItems('rag-golden-candidates')).toHaveLength(0);
    const text = await h.cli('golden', 'build', '--corpus', 'corpus');
    expect(text.stdout).toContain('nothing is lost: run the same command again to resume');

    h.judge.faults.clear();
    const resumed = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).complete).toBe(true);
    expect(h.judgeRequests('questions') + h.judgeRequests('adversarial')).toBeGreaterThanOrEqual(12);
    expect(h.langfuse.store.datasetItems('rag-golden-candidates')).toHaveLength(24);
    expect(h.violations).toEqual([]);
  }, 60_000);

  it('keeps no question, answer or chunk text in the state file', async () => {
    h = await startGoldenHarness('v3', { yaml: YAML });
    expect((await h.cli('golden', 'build', '--corpus', 'corpus')).code).toBe(0);
    const db = new BetterSqlite3(join(h.dir, 'state.db'), { readonly: true });
    const dump = [
      'golden_builds',
      'golden_seeds',
      'golden_candidates',
      'golden_review_queues',
      'golden_question_vectors',
    ]
      .flatMap((t) => db.prepare(`SELECT * FROM ${t}`).all())
      .map((row) => JSON.stringify(row))
      .join('\n');
    db.close();
    expect(dump.length).toBeGreaterThan(1000);
    for (const item of h.langfuse.store.datasetItems('rag-golden-candidates')) {
      const question = (item.input as { question: string }).question;
      const answer = (item.expectedOutput as { answer: string }).answer;
      if (question.length > 12) expect(dump).not.toContain(question.slice(0, 40));
      if (answer.length > 12) expect(dump).not.toContain(answer.slice(0, 40));
    }
    expect(dump).not.toMatch(/Lumora|garantía|warranty/i);
  }, 60_000);
});

/** Judge calls without retries: a failure is immediate (no backoff to sleep through). */
async function writeAttempts(h: GoldenHarness, attempts: number): Promise<void> {
  const { readFile, writeFile } = await import('node:fs/promises');
  const file = join(h.dir, 'ragwatch.yaml');
  const yaml = await readFile(file, 'utf8');
  await writeFile(file, yaml.replace('maxAttempts: 2, timeoutMs: 20000', `maxAttempts: ${attempts}, timeoutMs: 20000`));
}
