import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LangfuseClient } from '@langfuse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS, type GoldenItem } from '@ragwatch/devkit/corpus/index.js';
import { answerQuestion } from '@ragwatch/devkit/rag/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { startHarness, type Harness } from './harness.js';

/**
 * The release gate end to end, on golden sets of the size it is meant for: the items carry stored answers
 * (`experiment.target.mode: replay`), so each run's answers are chosen — the toy RAG's healthy ones, its degraded
 * ones, or healthy ones whose adversarial answers never decline — and the gate's defaults decide (30 scored and
 * 10 adversarial items on the test split, abstention at least 0.8).
 */
type Answer = { answer: string; contexts: string[] };

/** 200 items: the demo golden set three times over (each copy its own ids) and two more. */
function goldenSet(size: number): Array<GoldenItem & { copy: number }> {
  const out: Array<GoldenItem & { copy: number }> = [];
  for (let copy = 0; out.length < size; copy++)
    for (const item of GOLDEN_ITEMS) if (out.length < size) out.push({ ...item, id: `${item.id}-c${copy}`, copy });
  return out;
}

const DECLINE = {
  es: 'No tengo información suficiente en la documentación para responder a esa pregunta.',
  en: 'I do not have enough information in the documentation to answer that question.',
};

function stored(item: GoldenItem): Record<string, Answer> {
  const healthy = answerQuestion(item.question, { degraded: false });
  const degraded = answerQuestion(item.question, { degraded: true });
  const adversarial = item.type === 'adversarial';
  return {
    // A healthy RAG: grounded extractive answers, and on adversarial items it declines.
    good: { answer: adversarial ? DECLINE[item.lang] : healthy.answer, contexts: healthy.contexts },
    // A degraded one: an off-topic chunk and a sentence no chunk supports.
    bad: { answer: degraded.answer, contexts: degraded.contexts },
    // Healthy on the grounded questions, but it answers false premises with confidence.
    confident: {
      answer: adversarial ? answerQuestion(item.question, { degraded: true }).answer : healthy.answer,
      contexts: healthy.contexts,
    },
  };
}

async function seed(h: Harness, name: string, items: GoldenItem[]): Promise<void> {
  const client = new LangfuseClient({
    baseUrl: h.langfuse.url,
    publicKey: h.langfuse.publicKey,
    secretKey: h.langfuse.secretKey,
  });
  await client.api.datasets.create({ name, metadata: { strata: 'type', splits: ['dev', 'test'] } });
  for (const item of items)
    await client.api.datasetItems.create({
      datasetName: name,
      id: `${name}:${item.id}`,
      input: { question: item.question },
      expectedOutput: { answer: item.reference },
      metadata: { type: item.type, split: item.split, language: item.lang, answers: stored(item) },
    });
}

describe.each(['v3', 'v4'] as const)('the release gate on Langfuse %s', (personality) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    h = await startHarness(personality, { items: GOLDEN_ITEMS.slice(0, 2) });
    await seed(h, 'golden-200', goldenSet(200));
    await seed(
      h,
      'golden-10',
      goldenSet(66)
        .filter((_, i) => i % 7 === 0)
        .slice(0, 10),
    );
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** `settings`: more lines of the experiment section; `metrics`: the metrics line (default: the harness's). */
  const run = async (
    dataset: string,
    answers: string,
    options: { settings?: string; metrics?: string } = {},
    ...args: string[]
  ) => {
    const file = join(h.dir, `gate-${++n}.yaml`);
    await writeFile(
      file,
      `${h.yaml(options.metrics ? `metrics: ${options.metrics}` : '')}\nexperiment:\n  dataset: ${dataset}\n` +
        `  reportsDir: ${join(h.dir, 'gate-reports')}\n  bootstrapSamples: 1000\n` +
        `  target: {mode: replay, replay: {answer: metadata.answers.${answers}.answer, contexts: metadata.answers.${answers}.contexts}}\n` +
        (options.settings ? `  ${options.settings}\n` : ''),
    );
    const r = await runCli(['--config', file, 'experiment', 'run', '--json', '--no-progress', ...args], {
      cwd: h.dir,
      timeoutMs: 240_000,
    });
    return { ...r, json: r.stdout.trim().startsWith('{') ? JSON.parse(r.stdout) : null };
  };

  it('a 10-item golden set gives not enough evidence, exit 4, naming the figure and its n', async () => {
    const r = await run('golden-10', 'good');
    expect(r.code, r.stderr).toBe(4);
    expect(r.json.outcome).toBe('not_enough_evidence');
    expect(r.json.gate.deciding.line).toMatch(
      /n = \d, threshold ≥ [\d.]+: not enough evidence \(fewer than 30 items\)/,
    );
    // A CI that knows two outcomes maps it.
    const strict = await run('golden-10', 'good', { settings: 'gate: {onInconclusive: fail}' });
    expect(strict.code).toBe(1);
    expect(strict.json.outcome).toBe('not_enough_evidence');
  }, 240_000);

  it('200 items: a healthy RAG passes, a degraded one fails against it, one that answers false premises fails on abstention', async () => {
    const junit = join(h.dir, 'good.junit.xml');
    const good = await run('golden-200', 'good', {}, '--run-name', 'good', '--junit', junit);
    expect(good.code, JSON.stringify(good.json?.gate?.checks?.map((c: { line: string }) => c.line))).toBe(0);
    expect(good.json.outcome).toBe('passed');
    expect(good.json.gate.judgedOn).toBe('test');
    for (const c of good.json.gate.checks)
      expect(c.n, c.check).toBeGreaterThanOrEqual(c.check === 'abstention' ? 10 : 30);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('<testsuite name="gate (rule point, test split): passed"');
    expect(xml).not.toContain('<failure');

    const bad = await run('golden-200', 'bad', {}, '--run-name', 'bad');
    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.json.outcome).toBe('failed');
    expect(bad.json.gate.deciding.line).toMatch(/: failed/);
    expect(bad.json.comparedWith).toEqual({ run: 'good', basis: 'previous' });
    expect(bad.json.regressions).toContain('faithfulness');

    const confident = await run('golden-200', 'confident', {}, '--run-name', 'confident');
    expect(confident.code).toBe(1);
    expect(confident.json.gate.deciding).toMatchObject({ check: 'abstention', outcome: 'failed' });
    expect(confident.json.diagnosis.adversarial).toBe('answers');
    for (const c of confident.json.gate.checks) if (c.check !== 'abstention') expect(c.outcome, c.check).toBe('passed');

    // --compare-with: the run a team pins, the last that passed, and a name that is not a run.
    const pinned = await run('golden-200', 'good', {}, '--run-name', 'pinned', '--compare-with', 'good');
    expect(pinned.json.comparedWith).toEqual({ run: 'good', basis: 'pinned' });
    const lastPassed = await run('golden-200', 'bad', { settings: 'compareWith: last-passed' }, '--run-name', 'after');
    expect(lastPassed.json.comparedWith).toEqual({ run: 'pinned', basis: 'last-passed' });
    const unknown = await run('golden-200', 'good', {}, '--compare-with', 'no-such-run');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no earlier complete ragwatch run named "no-such-run"');

    // A borderline figure: answer relevancy's threshold set at its own mean on the test split.
    const relevancy = good.json.gate.checks.find((c: { check: string }) => c.check === 'answer_relevancy');
    const at = Number(relevancy.value.toFixed(3));
    const metrics = `{thresholds: {answer_relevancy: ${at}}}`;
    const interval = await run(
      'golden-200',
      'good',
      { settings: 'gate: {rule: interval}', metrics },
      '--run-name',
      'edge',
    );
    expect(interval.code, interval.stderr).toBe(4);
    expect(interval.json.gate.deciding).toMatchObject({ check: 'answer_relevancy', outcome: 'not_enough_evidence' });
    expect(interval.json.gate.deciding.line).toContain('the interval holds the threshold');
    const point = await run(
      'golden-200',
      'good',
      { settings: 'gate: {rule: point}', metrics },
      '--run-name',
      'edge-point',
    );
    expect([0, 1]).toContain(point.code);
    const edge = point.json.gate.checks.find((c: { check: string }) => c.check === 'answer_relevancy');
    expect(edge.borderline).toBe(true);
    expect(edge.line).toContain('borderline');
  }, 600_000);
});
