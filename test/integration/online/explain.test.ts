import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { JUDGE_TRACE_NAME } from '../../../src/judge-calls/index.js';
import { openSqliteState } from '../../../src/state/index.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import {
  canaryNeedles,
  plantCanaryTraces,
  plantRagTrace,
  startStack,
  type Personality,
  type Stack,
} from './harness.js';

const MIN = 60_000;
const stacks: Stack[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function stack(personality: Personality = 'v3'): Promise<Stack> {
  const s = await startStack(personality);
  stacks.push(s);
  return s;
}

function configFile(
  s: Stack,
  extra: Record<string, Record<string, unknown>> = {},
): { file: string; statePath: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-explain-'));
  dirs.push(dir);
  const statePath = join(dir, 'state.db');
  const config: Record<string, Record<string, unknown>> = {
    langfuse: { baseUrl: s.lf.url, publicKey: s.lf.publicKey, secretKey: s.lf.secretKey },
    judge: { baseUrl: s.judge.url, model: s.judge.model },
    embeddings: { model: s.judge.embeddingModel },
    sampling: { rate: 1 },
    state: { path: statePath },
    log: { level: 'silent' },
  };
  for (const [section, values] of Object.entries(extra)) config[section] = { ...(config[section] ?? {}), ...values };
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(file, stringify(config));
  return { file, statePath, dir };
}

const sample = (args: string[], cwd: string) => runCliInProcess(['sample', ...args], { cwd });

/** A RAG trace written straight into the stand-in: question, answer, retrieved chunks. */
function plantTrace(s: Stack, id: string, answer: string, chunks: string[], at = Date.now() - 20 * MIN): void {
  const question = 'How long does a plain VACUUM lock a PostgreSQL table, and can reads go on meanwhile?';
  plantRagTrace(s, { id, at, question, answer, contexts: chunks });
}

const GOOD_ANSWER =
  'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock, so reads and writes go on. It also compresses the table with zstd.';
const GOOD_CHUNKS = [
  'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock and runs alongside normal reads and writes.',
  'VACUUM FULL rewrites the table and holds an ACCESS EXCLUSIVE lock for the entire time.',
];

describe('sample --trace explains a score', () => {
  it('shows the claims and verdicts, the generated questions with their flags, and the prompt once', async () => {
    const s = await stack();
    plantTrace(s, 'explain-1', GOOD_ANSWER, GOOD_CHUNKS);
    const cfg = configFile(s);
    const res = await sample(['--trace', 'explain-1', '--dry-run', '--config', cfg.file], cfg.dir);
    expect(res.code, res.stderr).toBe(0);
    const out = res.stdout;
    expect(out).toContain('what the judge was given (anonymized, cut to the token budgets');
    expect(out).toMatch(/^ {2}faithfulness = 0\.500 {2}1 of 2 claims supported/m);
    expect(out).toMatch(
      /--- ragwatch_faithfulness {2}\(1 attempt, [\d,]+ prompt \+ [\d,]+ completion tokens, \d+ ms\)/,
    );
    expect(out).toMatch(/^ {2}claims \(2\):$/m);
    expect(out).toMatch(
      /^ {4}supported {4}A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock, so reads and writes go on\. {2}\(chunk 1\)$/m,
    );
    expect(out).toMatch(/^ {4}UNSUPPORTED {2}It also compresses the table with zstd\.$/m);
    expect(out).toMatch(/^ {2}generated questions \(\d\):$/m);
    expect(out).toMatch(/^ {4}.+ {2}\[(committal|noncommittal), cosine \d\.\d\d\]$/m);
    // The shared system message is printed once; the second call points back to it.
    const system = /\[system\] ([^\n]+)/.exec(out)![1]!;
    expect(out.split(system)).toHaveLength(2);
    expect(out).toContain('[system] (the same as in ragwatch_faithfulness above)');
    expect(out).toMatch(/\[user\] \([\d,]+ characters; --show-prompts prints every prompt\)/);
    expect(out).toContain('dry run: no score written');

    const all = await sample(['--trace', 'explain-1', '--dry-run', '--show-prompts', '--config', cfg.file], cfg.dir);
    expect(all.stdout.split(system)).toHaveLength(3);
    expect(all.stdout).not.toContain('--show-prompts prints every prompt');
    expect(all.stdout.match(/\[user\] <answer>/g)).toHaveLength(2);

    expect((await sample(['--once', '--show-prompts', '--config', cfg.file], cfg.dir)).code).toBe(2);
  });

  it('on a trace with a 5 MB answer and 2,000 chunks shows what the judge got after the budgets, the cuts marked', async () => {
    const s = await stack();
    const sentence = (i: number) =>
      `Sentence ${i} says that the maintenance window of cluster ${i % 97} runs on Sundays. `;
    let answer = '';
    for (let i = 0; answer.length < 5_000_000; i++) answer += sentence(i);
    const chunks = Array.from(
      { length: 2000 },
      (_, i) => `Chunk ${i}: ${'the vacuum daemon keeps table bloat in check on busy systems '.repeat(4)}`,
    );
    plantTrace(s, 'huge-1', answer, chunks);
    const cfg = configFile(s);
    const res = await sample(['--trace', 'huge-1', '--dry-run', '--config', cfg.file], cfg.dir);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.length).toBeLessThan(150_000);
    // The given sample, before the scores: one line per chunk sent, as many as metrics.maxContextTokens takes
    // (~130 of these), never one per retrieved chunk; the rest in one line.
    expect(res.stdout.slice(0, res.stdout.indexOf('\nscores:')).split('\n').length).toBeLessThan(200);
    expect(res.stdout).toMatch(/^ {2}context\[\d+\.\.\d+\]: [\d,]+ chunks left out by the budget$/m);
    // the 5 MB answer was cut to langfuse.maxFieldBytes as it was read, then to the token budget
    expect(res.stdout).toMatch(
      /^read: trace over ragwatch's read budget: \d+ texts? cut.* \(langfuse\.maxTraceBytes 1,048,576, maxFieldBytes 131,072\)$/m,
    );
    expect(res.stdout).toMatch(
      /^ {2}answer: {3}Sentence 0 says .* \[…\] {2}\(cut: [\d,]{6,} → [\d,]+ tokens, metrics\.maxAnswerTokens\)$/m,
    );
    expect(res.stdout).toMatch(/^ {2}contexts {2}\(cut: [\d,]+ → [\d,]+ tokens, metrics\.maxContextTokens\)$/m);
    expect(res.stdout).not.toContain(sentence(20_000));
    // What the judge was sent is what was shown: no request carried more than the budgets allow.
    for (const r of s.judge.requests) expect(JSON.stringify(r.body ?? '').length).toBeLessThan(200_000);

    const json = await sample(['--trace', 'huge-1', '--dry-run', '--json', '--config', cfg.file], cfg.dir);
    expect(json.stdout.length).toBeLessThan(300_000);
    const parsed = JSON.parse(json.stdout) as {
      view: { given: { answer: string; truncated: Record<string, { originalTokens: number; keptTokens: number }> } };
    };
    expect(parsed.view.given.answer.endsWith(' […]')).toBe(true);
    expect(parsed.view.given.truncated.answer!.originalTokens).toBeGreaterThan(
      parsed.view.given.truncated.answer!.keptTokens * 10,
    );
    expect(parsed.view.given.truncated.contexts).toBeDefined();
  }, 60_000);
});

describe.each<Personality>(['v3', 'v4'])('judge.traceCalls against the %s stand-in', (personality) => {
  it('records every judge call as a generation in ragwatch’s environment, links it from the score, and never samples it', async () => {
    const s = await stack(personality);
    const canaries = plantCanaryTraces(s, 3, Date.now() - 20 * MIN);
    plantTrace(s, 'traced-1', GOOD_ANSWER, GOOD_CHUNKS);
    const cfg = configFile(s, { judge: { traceCalls: true } });
    const tick = await sample(['--once', '--config', cfg.file], cfg.dir);
    expect(tick.code, tick.stdout + tick.stderr).toBe(0);

    const scores = s.lf.store.scores().filter((x) => x.name.startsWith('ragas-'));
    expect(scores.length).toBeGreaterThanOrEqual(8);
    const judgeTraces = s.lf.store.traces().filter((t) => t.name === JUDGE_TRACE_NAME);
    expect(judgeTraces).toHaveLength(4);
    for (const score of scores) {
      const link = (score.metadata as { executionTraceId?: string }).executionTraceId;
      const trace = judgeTraces.find((t) => t.id === link);
      expect(trace, `${score.name} on ${score.traceId}`).toBeDefined();
      expect(trace!.environment).toBe('ragwatch');
      expect(trace!.metadata).toMatchObject({ source: 'ragwatch', evaluatedTraceId: score.traceId });
    }
    for (const trace of judgeTraces) {
      // v4 keeps the OTLP root span as an observation too.
      const generations = s.lf.store.observationsOfTrace(trace.id).filter((o) => o.name !== JUDGE_TRACE_NAME);
      expect(generations.map((g) => g.name).sort()).toEqual(['ragwatch_answer_relevancy', 'ragwatch_faithfulness']);
      for (const g of generations) {
        expect(g.type).toBe('GENERATION');
        expect(g.environment).toBe('ragwatch');
        expect(g.model).toBe(s.judge.model);
        expect(g.usageDetails.input).toBeGreaterThan(0);
        expect(g.usageDetails.output).toBeGreaterThan(0);
        expect(g.endTime).toBeGreaterThanOrEqual(g.startTime);
        expect(JSON.parse(g.input!)).toEqual([
          expect.objectContaining({ role: 'system' }),
          expect.objectContaining({ role: 'user' }),
        ]);
        expect(g.output).toBeTruthy();
      }
    }
    const faithfulness = s.lf.store
      .observationsOfTrace(
        judgeTraces.find((t) => (t.metadata as { evaluatedTraceId: string }).evaluatedTraceId === 'traced-1')!.id,
      )
      .find((g) => g.name === 'ragwatch_faithfulness')!;
    // The parsed answer as the metric read it: the claims, and what the parser dropped.
    expect(JSON.parse(faithfulness.output!).items).toEqual([
      expect.objectContaining({ claim: expect.stringContaining('SHARE UPDATE EXCLUSIVE'), supported: true }),
      expect.objectContaining({ claim: expect.stringContaining('zstd'), supported: false }),
    ]);

    // Anonymized text only.
    const stored = JSON.stringify([judgeTraces, ...judgeTraces.map((t) => s.lf.store.observationsOfTrace(t.id))]);
    for (const needle of canaryNeedles()) expect(stored.includes(needle), needle).toBe(false);
    expect(stored).toContain('<EMAIL_1>');
    expect(canaries.every((id) => s.lf.store.scores({ traceId: id }).length > 0)).toBe(true);

    // A tick whose window covers the judge traces takes none of them, even with the environment named.
    const again = configFile(s, {
      online: { settleDelaySeconds: 0, filters: { environments: ['production', 'ragwatch'] } },
    });
    const second = await sample(['--once', '--json', '--config', again.file], again.dir);
    expect(second.code, second.stderr).toBe(0);
    const report = JSON.parse(second.stdout) as { listed: number; traces: Array<{ traceId: string }> };
    expect(report.listed).toBe(4);
    const judgeIds = new Set(judgeTraces.map((t) => t.id));
    expect(report.traces.filter((t) => judgeIds.has(t.traceId))).toEqual([]);
    const state = openSqliteState({ path: again.statePath });
    for (const id of judgeIds) expect(await state.getEntry(id)).toBeNull();
    await state.close();
  }, 60_000);
});
