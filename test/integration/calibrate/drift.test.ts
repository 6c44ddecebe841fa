import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnchorFile } from '../../../src/calibrate/anchor-file.js';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, STANDIN_VLLM_VERSION, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startToyRag, type ToyRag } from '@ragwatch/devkit/rag/index.js';
import { annotateCalibrationQueue } from '@ragwatch/devkit/calibrate/queue-annotator.js';
import { createLangfuseHttp } from '../../../src/langfuse/core/http.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { startHarness } from '../experiment/harness.js';

/**
 * Judge drift anchors end to end: the set built from the golden set (each question asked once of the RAG
 * service), re-scored before the weekly run; an unchanged judge is unchanged (its interval below the tolerance), a judge whose scores moved
 * is "the judge changed" — first in the report and in the gate verdict — with what changed in its fingerprint.
 */

const SUBSET = [
  ...GOLDEN_ITEMS.filter((i) => i.type === 'single-hop').slice(0, 8),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'multi-hop').slice(0, 4),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'adversarial').slice(0, 2),
];

let judge: JudgeServer;
let rag: ToyRag;
beforeAll(async () => {
  judge = await startJudgeServer({ host: '127.0.0.1', port: 0, modelRoot: 'standin/judge-8b-instruct' });
  rag = await startToyRag();
});
afterAll(async () => {
  await rag?.close();
  await judge?.close();
});

describe.each(['v3', 'v4'] as const)('judge drift anchors on Langfuse %s', (personality) => {
  it('builds the anchor set, finds an unchanged judge unchanged and a moved one changed, before the verdict', async () => {
    judge.setIdentity({ vllmVersion: STANDIN_VLLM_VERSION });
    const h = await startHarness(personality, { judge, rag, items: SUBSET });
    try {
      const anchors = join(h.dir, 'anchors', 'judge-anchors.json');
      const calibrate = { anchors: { path: anchors, minAnchors: 5 }, bootstrapSamples: 300, minPairs: 5 };
      const yaml =
        `${h.yaml(`experiment: {target: {url: "${rag.askUrl}", response: {answer: answer, contexts: contexts}}}`)}\n` +
        `calibrate: {anchors: {path: "${anchors}", minAnchors: 5}, rate: 1, bootstrapSamples: 300, minPairs: 5}\n`;
      await writeFile(join(h.dir, 'ragwatch.yaml'), yaml);
      const built = await runCliInProcess(
        ['--config', join(h.dir, 'ragwatch.yaml'), 'calibrate', 'anchors', 'build', '--json'],
        { cwd: h.dir },
      );
      expect(built.code, built.stderr).toBe(0);
      const summary = JSON.parse(built.stdout);
      expect(summary.anchors).toBe(12);
      expect(summary.judge).toMatchObject({
        model: `${judge.model} (standin/judge-8b-instruct)`,
        vllmVersion: STANDIN_VLLM_VERSION,
      });
      const file = JSON.parse(await readFile(anchors, 'utf8')) as AnchorFile;
      expect(file.version).toBe(summary.version);
      expect(file.anchors.every((a) => a.contexts.length > 0 && typeof a.answer === 'string')).toBe(true);
      // Building again without --force refuses: an anchor set is fixed.
      const again = await runCliInProcess(['--config', join(h.dir, 'ragwatch.yaml'), 'calibrate', 'anchors', 'build'], {
        cwd: h.dir,
      });
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/exists: an anchor set is fixed; --force replaces it/);

      const steady = await h.run({}, h.config({ calibrate }));
      const drift = steady.report.judge!.drift!;
      expect(drift.judgeChanged).toBe(false);
      expect(drift.metrics.map((m) => [m.metric, m.status, m.paired])).toEqual([
        ['answer_relevancy', 'unchanged', 12],
        ['faithfulness', 'unchanged', 12],
      ]);
      expect(steady.report.gate.judgeChanged).toBe(false);
      expect(steady.report.run).toMatchObject({
        judgeModelRoot: 'standin/judge-8b-instruct',
        judgeVllmVersion: STANDIN_VLLM_VERSION,
      });

      // People annotate the run's traces in the calibration queue; the next weekly report carries the figures.
      const cli = (...args: string[]) =>
        runCliInProcess(['--config', join(h.dir, 'ragwatch.yaml'), ...args], {
          cwd: h.dir,
          context: { now: () => h.clock.now },
        });
      const enqueued = await cli('calibrate', 'enqueue', '--json');
      expect(enqueued.code, enqueued.stderr).toBe(0);
      const queued = JSON.parse(enqueued.stdout).enqueued as string[];
      const scoredItems = steady.report.cells.find(
        (c) => c.metric === 'faithfulness' && c.split === 'all' && c.stratum === 'all',
      )!;
      expect(queued.length).toBeGreaterThanOrEqual(scoredItems.summary.n);
      const http = createLangfuseHttp({
        baseUrl: h.langfuse.url,
        publicKey: h.langfuse.publicKey,
        secretKey: h.langfuse.secretKey,
      });
      const annotations = await annotateCalibrationQueue(http, personality, {
        queueName: 'ragwatch calibration',
        judgeScoreNames: { faithfulness: 'ragas-faithfulness', answer_relevancy: 'ragas-answer-relevancy' },
        agreement: 0.7,
        seed: 'drift',
        scale: 'levels',
      });
      expect(annotations.filter((a) => a.metric === 'faithfulness')).toHaveLength(scoredItems.summary.n);

      // The stored verdicts were an older judge's: its faithfulness sat 0.3 lower; the server was upgraded too.
      for (const a of file.anchors)
        if (a.scores.faithfulness != null) a.scores.faithfulness = Math.max(0, a.scores.faithfulness - 0.3);
      await writeFile(anchors, JSON.stringify(file));
      judge.setIdentity({ vllmVersion: '0.12.1' });
      h.clock.now += 7 * 86_400_000;
      const moved = await h.run({}, h.config({ calibrate }));
      const report = moved.report;
      expect(report.judge!.drift!.metrics.find((m) => m.metric === 'faithfulness')!.status).toBe('changed');
      expect(report.judge!.drift!.fingerprintChanges).toEqual([`vLLM version: ${STANDIN_VLLM_VERSION} → 0.12.1`]);
      expect(report.gate.judgeChanged).toBe(true);
      expect(report.gate.lines[0]).toMatch(/^the judge changed: .* for faithfulness \(vLLM version/);
      const markdown = await readFile(moved.files.markdown, 'utf8');
      expect(markdown.indexOf('**The judge changed.**')).toBeGreaterThan(0);
      expect(markdown.indexOf('**The judge changed.**')).toBeLessThan(markdown.indexOf('## Verdict'));
      // Said once, then what moved: no "The judge changed. the judge changed: …".
      expect(markdown).toMatch(/\*\*The judge changed\.\*\* Its scores on the anchor set /);
      expect(markdown).not.toMatch(/The judge changed\.\*\* the judge changed/i);
      expect(markdown.indexOf('## The judge')).toBeLessThan(markdown.indexOf('## Change against'));
      const html = await readFile(moved.files.html, 'utf8');
      expect(html).toContain('id="judge-changed"');
      const json = JSON.parse(await readFile(moved.files.json, 'utf8'));
      expect(json.judge.drift.judgeChanged).toBe(true);
      // The agreement figures in the weekly report, every pair the person made.
      const all = report.calibration!.table.cells.find(
        (c) => c.metric === 'faithfulness' && c.language === null && c.stratum === null,
      )!;
      expect(all.n).toBe(scoredItems.summary.n);
      const mae = all.figures.find((f) => f.statistic === 'mae')!;
      const pairs = annotations.filter((a) => a.metric === 'faithfulness');
      expect(mae.estimable && mae.value).toBeCloseTo(
        pairs.reduce((t, a) => t + Math.abs(a.judge - a.human), 0) / pairs.length,
        10,
      );
      expect(json.calibration.table.cells.length).toBe(report.calibration!.table.cells.length);
      expect(markdown).toContain('## Judge agreement with people');
      expect(markdown).toMatch(/\| all \| \d+ \| /);
      expect(html).toContain('<h2 id="calibration">');
      // Disagreements list dev items only; test-split pairs are held back.
      const listed = report.calibration!.disagreements.flatMap((d) => d.worst);
      expect(listed.every((d) => d.split === 'dev')).toBe(true);
    } finally {
      await h.close();
    }
  }, 180_000);
});
