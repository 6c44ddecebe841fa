import { afterEach, describe, expect, it } from 'vitest';
import { weekStart } from '../../../src/calibrate/enqueue.js';
import { annotateCalibrationQueue } from '@ragwatch/devkit/calibrate/queue-annotator.js';
import { listAnnotationQueues, listQueueItems } from '../../../src/langfuse/resources/annotation-queues.js';
import { createAnnotationScore } from '../../../src/langfuse/resources/annotation-scores.js';
import { listScoreConfigs } from '../../../src/langfuse/resources/score-configs.js';
import { openSqliteState } from '../../../src/state/index.js';
import { startCalibrateHarness, type CalibrateHarness } from './harness.js';

let h: CalibrateHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;
const JUDGE_NAMES = { faithfulness: 'ragas-faithfulness', answer_relevancy: 'ragas-answer-relevancy' };

describe.each(['v3', 'v4'] as const)('ragwatch calibrate on Langfuse %s', (personality) => {
  it('enqueues a stratified sample once, people annotate through the API, the report pairs their scores', async () => {
    // Last week's Wednesday noon: the traces and their scores sit inside one week whatever day the test runs.
    const end = weekStart(Date.now() - 7 * DAY) + 2.5 * DAY;
    h = await startCalibrateHarness(personality, {
      extraYaml: 'online: {settleDelaySeconds: 0, initialLookbackSeconds: 1209600, maxWindowSeconds: 1209600}',
    });
    await h.seedTraces(40, 'calibrate-cli', end);
    const sampled = await h.cli(['sample', '--once', '--no-progress']);
    expect(sampled.code, sampled.stderr).toBe(0);
    const scored = new Set(
      h.langfuse.store
        .scores()
        .filter((s) => s.name === 'ragas-faithfulness')
        .map((s) => s.traceId),
    );
    expect(scored.size).toBeGreaterThan(10);
    const now = end + 3600_000;

    const dry = await h.cli(['calibrate', 'enqueue', '--dry-run', '--json'], now);
    expect(dry.code, dry.stderr).toBe(0);
    expect(await listAnnotationQueues(h.http)).toEqual([]);

    const first = await h.cli(['calibrate', 'enqueue', '--json'], now);
    expect(first.code, first.stderr).toBe(0);
    const plan = JSON.parse(first.stdout);
    expect(plan.eligible).toBe(scored.size);
    expect(plan.target).toBe(Math.ceil(0.5 * scored.size));
    expect(plan.enqueued).toEqual(JSON.parse(dry.stdout).picked);
    expect(plan.enqueued).toHaveLength(plan.target);
    // Stratified by language, trace name and score bucket, in proportion.
    const strata = plan.strata as Array<{
      language: string;
      traceName: string;
      bucket: string;
      candidates: number;
      picked: number;
    }>;
    expect(new Set(strata.map((s) => s.language)).size).toBeGreaterThan(1);
    expect(new Set(strata.map((s) => s.traceName)).size).toBeGreaterThan(1);
    for (const s of strata) expect(Math.abs(s.picked - 0.5 * s.candidates)).toBeLessThanOrEqual(1);

    const [queue] = await listAnnotationQueues(h.http);
    expect(queue?.name).toBe('ragwatch calibration');
    const items = await listQueueItems(h.http, queue!.id);
    expect(items.map((i) => i.objectId).sort()).toEqual([...plan.enqueued].sort());
    const configs = (await listScoreConfigs(h.http)).filter((c) => queue!.scoreConfigIds.includes(c.id));
    expect(configs.map((c) => [c.name, c.dataType]).sort()).toEqual([
      ['human-answer-relevancy', 'CATEGORICAL'],
      ['human-comment', 'TEXT'],
      ['human-faithfulness', 'CATEGORICAL'],
    ]);
    expect(configs.find((c) => c.name === 'human-faithfulness')?.categories).toEqual([
      { value: 0, label: 'unsupported' },
      { value: 0.5, label: 'partly' },
      { value: 1, label: 'supported' },
    ]);

    // Idempotent: the same week again queues nothing more.
    const again = await h.cli(['calibrate', 'enqueue', '--json'], now);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ enqueued: [], alreadyQueued: plan.target });
    expect(await listQueueItems(h.http, queue!.id)).toHaveLength(items.length);

    // A person works the queue in Langfuse: scores with source ANNOTATION, items completed.
    const annotations = await annotateCalibrationQueue(h.http, personality, {
      queueName: 'ragwatch calibration',
      judgeScoreNames: JUDGE_NAMES,
      agreement: 0.8,
      seed: 'cli',
      scale: 'levels',
    });
    expect(annotations.length).toBe(2 * items.length);
    expect((await listQueueItems(h.http, queue!.id, { status: 'PENDING' })).length).toBe(0);
    const human = h.langfuse.store.scores().filter((s) => s.name.startsWith('human-'));
    expect(new Set(human.map((s) => s.source))).toEqual(new Set(['ANNOTATION']));

    // An annotation made outside the queue, on a trace the queue never had, counts too.
    const outside = [...scored].find((id) => !plan.enqueued.includes(id))!;
    await createAnnotationScore(h.http, {
      traceId: outside,
      name: 'human-faithfulness',
      value: 'unsupported',
      configId: configs.find((c) => c.name === 'human-faithfulness')!.id,
      comment: 'no passage says so',
    });

    // A person who scored with ragwatch's own config in the UI left a `ragas-faithfulness` with source ANNOTATION:
    // never the judge's side of a pair (one older than the judge's, one newer).
    const ragasConfig = (await listScoreConfigs(h.http)).find((c) => c.name === 'ragas-faithfulness')!;
    for (const a of annotations.filter((x) => x.metric === 'faithfulness')) {
      const judged = h.langfuse.store.scores().find((s) => s.traceId === a.traceId && s.name === 'ragas-faithfulness')!;
      const opposite = a.judge >= 0.5 ? 0 : 1;
      await createAnnotationScore(h.http, {
        traceId: a.traceId,
        name: 'ragas-faithfulness',
        value: opposite,
        configId: ragasConfig.id,
      });
      h.langfuse.store.upsertScore({
        traceId: a.traceId,
        name: 'ragas-faithfulness',
        value: opposite,
        dataType: 'NUMERIC',
        source: 'ANNOTATION',
        configId: ragasConfig.id,
        timestamp: judged.timestamp - 3_600_000,
      });
    }

    const report = await h.cli(['calibrate', 'report', '--json'], now);
    expect(report.code, report.stderr).toBe(0);
    const summary = JSON.parse(report.stdout);
    const all = (metric: string) =>
      summary.table.cells.find(
        (c: { metric: string; language: unknown; stratum: unknown }) =>
          c.metric === metric && c.language === null && c.stratum === null,
      );
    expect(all('faithfulness').n).toBe(items.length + 1);
    expect(all('answer_relevancy').n).toBe(items.length);
    for (const figure of all('faithfulness').figures) {
      expect(figure.n).toBe(items.length + 1);
      if (figure.estimable) expect(figure.interval === null || figure.interval.low <= figure.value).toBe(true);
    }
    // The figures agree with the pairs the annotator made.
    const pairs = annotations.filter((a) => a.metric === 'faithfulness');
    const mae = all('faithfulness').figures.find((f: { statistic: string }) => f.statistic === 'mae');
    const judgeOutside = h.langfuse.store
      .scores()
      .find((s) => s.traceId === outside && s.name === 'ragas-faithfulness')!.value;
    const expectedMae =
      (pairs.reduce((sum, a) => sum + Math.abs(a.judge - a.human), 0) + judgeOutside) / (pairs.length + 1);
    expect(mae.value).toBeCloseTo(expectedMae, 10);
    expect(summary.humanScores).toBe(2 * items.length + 1);

    // The agreement gauge is persisted for the daemon's /metrics.
    const state = openSqliteState({ path: `${h.dir}/state.db` });
    const gauges = await state.getGauges();
    await state.close();
    expect(gauges['rag_judge_human_agreement_floor']).toBe(0.4);
    const kappa = all('faithfulness').figures.find((f: { statistic: string }) => f.statistic === 'kappa');
    if (kappa.estimable) expect(gauges['rag_judge_human_agreement{metric="faithfulness"}']).toBe(kappa.value);

    const text = await h.cli(['calibrate', 'report'], now);
    expect(text.stdout).toContain('# Judge agreement with people');
    expect(text.stdout).toMatch(/\| all \| \d+ \|/);
    expect(h.violations).toEqual([]);
  }, 120_000);
});
