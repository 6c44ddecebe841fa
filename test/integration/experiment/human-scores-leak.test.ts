import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startToyRag, type ToyRag } from '@ragwatch/devkit/rag/index.js';
import { createAnnotationScore } from '../../../src/langfuse/resources/annotation-scores.js';
import { createLangfuseHttp } from '../../../src/langfuse/core/http.js';
import { listScoreConfigs } from '../../../src/langfuse/resources/score-configs.js';
import { startHarness } from './harness.js';

/**
 * People's scores never mix into judge figures: after a run, people annotate its traces — with the `human-…`
 * names, and with ragwatch's own `ragas-…` score configs in the Langfuse UI (source ANNOTATION, same names) —
 * and the next run's baseline, paired comparison and trend still read the judge's values only.
 */

const SUBSET = [
  ...GOLDEN_ITEMS.filter((i) => i.type === 'single-hop').slice(0, 5),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'multi-hop').slice(0, 3),
];

let judge: JudgeServer;
let rag: ToyRag;
beforeAll(async () => {
  judge = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  rag = await startToyRag();
});
afterAll(async () => {
  await rag?.close();
  await judge?.close();
});

describe.each(['v3', 'v4'] as const)('human scores on Langfuse %s', (personality) => {
  it('stay out of the next run’s baseline, comparison and trend', async () => {
    const h = await startHarness(personality, { judge, rag, items: SUBSET });
    try {
      const first = await h.run();
      const judged = first.report.cells.find(
        (c) => c.metric === 'faithfulness' && c.split === 'all' && c.stratum === 'all',
      )!;
      const http = createLangfuseHttp({
        baseUrl: h.langfuse.url,
        publicKey: h.langfuse.publicKey,
        secretKey: h.langfuse.secretKey,
      });
      const configs = await listScoreConfigs(http);
      const ragasConfig = configs.find((c) => c.name === 'ragas-faithfulness')!;
      const traces = h.langfuse.store
        .scores()
        .filter((s) => s.name === 'ragas-faithfulness' && s.source === 'API' && s.traceId);
      expect(traces.length).toBe(judged.summary.n);
      for (const s of traces) {
        // A person disagreeing completely, under ragwatch's own name and under their own.
        const opposite = s.value >= 0.5 ? 0 : 1;
        await createAnnotationScore(http, {
          traceId: s.traceId!,
          name: 'ragas-faithfulness',
          value: opposite,
          configId: ragasConfig.id,
        });
        // And one older than the judge's, so it is listed after it: whichever a reader took last, a person's shows.
        const older = { timestamp: s.timestamp - 3_600_000, configId: ragasConfig.id };
        h.langfuse.store.upsertScore({
          traceId: s.traceId!,
          name: 'ragas-faithfulness',
          value: opposite,
          dataType: 'NUMERIC',
          source: 'ANNOTATION',
          ...older,
        });
        h.langfuse.store.upsertScore({
          traceId: s.traceId!,
          name: 'human-faithfulness',
          value: opposite,
          dataType: 'NUMERIC',
          source: 'ANNOTATION',
        });
      }
      h.clock.now += 7 * 86_400_000;
      const second = await h.run();
      expect(second.historySource).toBe('langfuse');
      const baseline = second.report.baseline.find((r) => r.metric === 'faithfulness')!;
      expect(baseline.baseline).toBeCloseTo(judged.summary.mean!, 12);
      const compared = second.report.comparison!.perMetric.find((m) => m.metric === 'faithfulness')!;
      expect(compared.comparison.n).toBe(judged.summary.n);
      expect(Math.abs(compared.comparison.meanDelta ?? 0)).toBeLessThan(1e-9);
      const point = second.report.trend.find((p) => p.runName === first.runName)!;
      expect(point.means.faithfulness).toBeCloseTo(judged.summary.mean!, 12);
    } finally {
      await h.close();
    }
  }, 120_000);
});
