import { afterEach, describe, expect, it } from 'vitest';
import { startActiveObservation, propagateAttributes } from '@langfuse/tracing';
import { extractRagSample } from '../../../src/extract/extract.js';
import { detectApiGeneration } from '../../../src/langfuse/core/detect.js';
import { filtersFromConfig } from '../../../src/langfuse/core/filters.js';
import { getTrace, listTraces } from '../../../src/langfuse/resources/trace-reads.js';
import { ensureScoreConfigs } from '../../../src/langfuse/resources/score-configs.js';
import { scoreIdFor, writeScores } from '../../../src/langfuse/resources/scores.js';
import type { TraceSummary } from '../../../src/langfuse/core/types.js';
import { startStand, tracingTo, type Stand } from './harness.js';
import { parseConfig } from '../../helpers/config.js';

let stand: Stand | undefined;
afterEach(async () => {
  await stand?.close();
  stand = undefined;
});

async function collect(it: AsyncIterable<TraceSummary>) {
  const out: TraceSummary[] = [];
  for await (const t of it) out.push(t);
  return out;
}

/** A RAG answer traced with the real @langfuse/tracing SDK: root span, retriever, generation. */
async function traceRag(s: Stand, environment: string | undefined, question: string): Promise<string> {
  const provider = tracingTo(s.server, environment);
  let traceId = '';
  await propagateAttributes({ traceName: 'rag-answer', tags: ['rag'] }, async () => {
    await startActiveObservation('rag-answer', async (root) => {
      root.update({ input: { question } });
      const retriever = root.startObservation('kb-search', { input: { query: question } }, { asType: 'retriever' });
      retriever
        .update({
          output: [
            { pageContent: 'Returns are accepted within 30 days.', metadata: { source: 'faq' } },
            { pageContent: 'Items must be unused.', metadata: {} },
          ],
        })
        .end();
      const generation = root.startObservation(
        'answer',
        {
          model: 'judge',
          input: [
            { role: 'system', content: 'Answer from context.' },
            { role: 'user', content: question },
          ],
        },
        { asType: 'generation' },
      );
      generation.update({ output: { role: 'assistant', content: 'Within 30 days, if unused.' } }).end();
      root.update({ output: 'Within 30 days, if unused.' });
      traceId = root.traceId;
    });
  });
  await provider.forceFlush();
  await provider.shutdown();
  return traceId;
}

/** Many small traces straight into the store, each with a root observation (v4 lists roots). */
function seedMany(s: Stand, count: number, start: number, environment = 'default') {
  for (let i = 0; i < count; i++) {
    const id = `bulk-${environment}-${String(i).padStart(4, '0')}`;
    const timestamp = new Date(start + i * 1000).toISOString();
    s.server.store.upsertTrace({ id, timestamp, name: 'bulk', environment, input: 'q', output: 'a' });
    s.server.store.upsertObservation({
      id: `${id}-root`,
      traceId: id,
      type: 'SPAN',
      name: 'bulk',
      startTime: timestamp,
      environment,
      input: 'q',
      output: 'a',
    });
  }
}

for (const personality of ['v3', 'v4'] as const) {
  describe(`Langfuse access layer against the devkit (${personality})`, () => {
    it('detects the generation, lists a window page by page with the default exclusions, and extracts a real SDK trace', async () => {
      stand = await startStand({ personality });
      expect(await detectApiGeneration(stand.http)).toBe(personality);

      const ragId = await traceRag(stand, undefined, 'How long do I have to return an item?');
      await traceRag(stand, 'sdk-experiment', 'experiment item');
      await traceRag(stand, 'ragwatch', 'own trace');
      const now = Date.now();
      seedMany(stand, 230, now - 30 * 60_000);
      seedMany(stand, 5, now - 20 * 60_000, 'staging');

      // `langfuse-*` (Langfuse's own evaluator runs) is excluded too, but the stand-in, like the public API, refuses
      // that prefix on ingestion; the unit tests cover it. `staging` is excluded here by configuration.
      const filters = filtersFromConfig(
        parseConfig({ online: { filters: { excludeEnvironments: ['langfuse-*', 'sdk-experiment', 'stag*'] } } }),
      );
      const listed = await collect(
        listTraces(stand.http, {
          generation: personality,
          from: new Date(now - 3600_000),
          to: new Date(now + 60_000),
          filters,
        }),
      );
      const ids = listed.map((t) => t.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => id.startsWith('bulk-default-'))).toHaveLength(230);
      expect(ids).toContain(ragId);
      expect(listed.filter((t) => !t.id.startsWith('bulk-')).map((t) => [t.environment, t.name])).toEqual([
        ['default', 'rag-answer'],
      ]);
      expect(listed).toHaveLength(231);
      const rag = listed.find((t) => t.id === ragId)!;
      expect(rag).toMatchObject({ name: 'rag-answer', environment: 'default', tags: ['rag'] });
      const pageRoute = personality === 'v3' ? 'GET /api/public/traces' : 'GET /api/public/v2/observations';
      expect(stand.requests.filter((r) => r.route === pageRoute).length).toBeGreaterThanOrEqual(
        personality === 'v3' ? 3 : 1,
      );

      const trace = await getTrace(stand.http, ragId, personality);
      expect(trace).not.toBeNull();
      const extracted = extractRagSample(trace!);
      expect(extracted).toMatchObject({
        ok: true,
        sample: {
          traceId: ragId,
          question: 'How long do I have to return an item?',
          answer: 'Within 30 days, if unused.',
          contexts: ['Returns are accepted within 30 days.', 'Items must be unused.'],
        },
      });
      expect(await getTrace(stand.http, 'does-not-exist', personality)).toBeNull();
      expect(stand.violations).toEqual([]);
    });

    it('writes one score per trace and name, replaces on rewrite, and survives 503 bursts and 429s', async () => {
      stand = await startStand({ personality });
      const now = Date.now();
      seedMany(stand, 3, now - 60_000);
      const traces = stand.server.store
        .traces()
        .map((t) => ({ id: t.id, timestamp: new Date(t.timestamp).toISOString() }));
      const configs = await ensureScoreConfigs(stand.http, [
        {
          name: 'ragas-faithfulness',
          description: 'Share of answer claims supported by the retrieved context',
          min: 0,
          max: 1,
        },
        {
          name: 'ragas-answer-relevancy',
          description: 'How directly the answer addresses the question',
          min: 0,
          max: 1,
        },
      ]);
      expect(
        await ensureScoreConfigs(stand.http, [{ name: 'ragas-faithfulness', description: 'x', min: 0, max: 1 }]),
      ).toEqual(new Map([['ragas-faithfulness', configs.get('ragas-faithfulness')]]));

      const scores = (value: number) =>
        traces.flatMap((t) =>
          ['ragas-faithfulness', 'ragas-answer-relevancy'].map((name) => ({
            traceId: t.id,
            name,
            value,
            timestamp: t.timestamp,
            configId: configs.get(name),
            comment: 'supported by 2 of 2 claims',
            metadata: { ragwatch: 'test', judgeModel: 'judge' },
            environment: 'default',
          })),
        );
      stand.server.faults.set('POST /api/public/ingestion', { failNext: 2, errorStatus: 503 });
      const first = await writeScores(stand.http, scores(0.5), { sleep: async () => {} });
      expect(first.failed).toEqual([]);
      expect(first.written.sort()).toEqual(
        traces
          .flatMap((t) => [scoreIdFor(t.id, 'ragas-faithfulness'), scoreIdFor(t.id, 'ragas-answer-relevancy')])
          .sort(),
      );

      stand.server.faults.set('POST /api/public/ingestion', { failNext: 1, errorStatus: 429, retryAfterSeconds: 3 });
      const second = await writeScores(stand.http, scores(0.75), { sleep: async () => {} });
      expect(second.failed).toEqual([]);
      expect(stand.sleeps).toContain(3000);

      const stored = stand.server.store.scores();
      expect(stored).toHaveLength(6);
      expect(stored.every((s) => s.value === 0.75)).toBe(true);
      expect(new Set(stored.map((s) => `${s.traceId}/${s.name}`)).size).toBe(6);
      expect(stand.violations).toEqual([]);
    });

    it('hides traces during read lag (null, not an error) and shows them afterwards', async () => {
      let clock = Date.now();
      stand = await startStand({ personality, now: () => clock, readLagSeconds: 120 });
      seedMany(stand, 1, clock - 1000);
      const id = stand.server.store.traces()[0]!.id;
      expect(await getTrace(stand.http, id, personality)).toBeNull();
      clock += 121_000;
      expect((await getTrace(stand.http, id, personality))?.id).toBe(id);
    });

    it('reports wrong keys as a non-retryable 401', async () => {
      stand = await startStand({ personality, secretKey: 'sk-lf-right' });
      const { createLangfuseHttp } = await import('../../../src/langfuse/core/http.js');
      const wrong = createLangfuseHttp({
        baseUrl: stand.server.url,
        publicKey: stand.server.publicKey,
        secretKey: 'sk-lf-wrong',
        sleep: async () => {},
      });
      const err = await detectApiGeneration(wrong).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 401, retryable: false });
      expect(String((err as Error).message)).not.toContain('sk-lf-wrong');
    });
  });
}
