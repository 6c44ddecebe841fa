/**
 * metrics.allowedLanguages (issue 31, part 1): the online job skips a sample in a language not on the list, with
 * the counted reason language_not_allowed, and scores the others; an undetermined one is scored with the fallback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOnlineTick, type TickReport } from '../../../src/online/job.js';
import { createOnlineRuntime } from '../../../src/online/runtime.js';
import { testRuntime } from '../../../src/runtime/index.js';
import { createServiceMetrics, type ServiceMetrics } from '../../../src/service/metrics.js';
import { openSqliteState } from '../../../src/state/index.js';
import type { StateStore } from '../../../src/state/types.js';
import { noSleep, plantRagTrace, stackConfig, startStack, type Stack } from './harness.js';

const MIN = 60_000;

describe('metrics.allowedLanguages in the online job (v4 stand-in)', () => {
  const now = Date.parse('2025-06-02T12:00:00Z');
  let stack: Stack;
  let state: StateStore;
  let metrics: ServiceMetrics;
  let report: TickReport;
  const id = (n: number) => `lang${'0'.repeat(27)}${n}`;

  beforeAll(async () => {
    stack = await startStack('v4', { now: () => now });
    const end = now - 11 * MIN;
    // UDHR Article 3 (after the OHCHR translation); the question is ours.
    plantRagTrace(stack, {
      id: id(1),
      at: end - 1_000,
      question: 'Welche Rechte hat laut der Erklärung jeder Mensch?',
      answer: 'Jeder hat das Recht auf Leben, Freiheit und Sicherheit der Person.',
      contexts: ['Jeder hat das Recht auf Leben, Freiheit und Sicherheit der Person.'],
    });
    plantRagTrace(stack, {
      id: id(2),
      at: end - 2_000,
      question: '¿Cómo cambio la domiciliación de mi cuota?',
      answer: 'Desde el área de cliente, en Pagos; el cambio se aplica a la siguiente factura.',
      contexts: ['La domiciliación bancaria se cambia desde el área de cliente, sección Pagos.'],
    });
    plantRagTrace(stack, {
      id: id(3),
      at: end - 3_000,
      question: 'Quels droits la Déclaration reconnaît-elle à chaque personne ?',
      answer: 'Tout individu a droit à la vie, à la liberté et à la sûreté de sa personne.',
      contexts: ['Tout individu a droit à la vie, à la liberté et à la sûreté de sa personne.'],
    });
    state = openSqliteState({ path: ':memory:' });
    metrics = createServiceMetrics({ scoreMetrics: ['faithfulness', 'answer_relevancy'], processMetrics: false });
    const config = stackConfig(stack, { sampling: { rate: 1 }, metrics: { allowedLanguages: ['es', 'en', 'fr'] } });
    const runtime = await createOnlineRuntime(config, {
      runtime: testRuntime({ now: { now: () => now }, sleep: noSleep }),
      state,
      recorder: metrics,
    });
    report = await runOnlineTick(runtime.deps, runtime.settings);
  }, 60_000);

  afterAll(async () => {
    await state?.close();
    await stack?.close();
  });

  it('skips the German sample with a counted reason and scores the Spanish one', async () => {
    expect(report.skipped).toEqual({ language_not_allowed: 1 });
    expect((await state.getEntry(id(1)))?.status).toBe('skipped');
    expect(stack.lf.store.scores({ traceId: id(1) })).toEqual([]);
    expect(stack.judge.requests.some((r) => JSON.stringify(r).includes('Freiheit'))).toBe(false);
    expect((await state.getEntry(id(2)))?.status).toBe('done');
    expect(stack.lf.store.scores({ traceId: id(2), name: 'ragas-faithfulness' })).toHaveLength(1);
    expect(await metrics.render()).toMatch(/ragwatch_traces_skipped_total\{reason="language_not_allowed",[^}]*\} 1/);
  });

  it('scores the French sample with English instructions naming French, and records fr on its scores', async () => {
    const scores = stack.lf.store.scores({ traceId: id(3) }).filter((s) => s.name.startsWith('ragas-'));
    expect(scores.map((s) => s.name).sort()).toEqual(['ragas-answer-relevancy', 'ragas-faithfulness']);
    for (const s of scores) {
      expect(s.metadata).toMatchObject({ language: { code: 'fr', name: 'French', source: 'detected' } });
      expect(String((s.metadata as { promptVersion: string }).promptVersion)).toMatch(/^fr-/);
    }
    const french = stack.judge.requests.filter(
      (r) => JSON.stringify(r).includes('/chat/completions') && JSON.stringify(r).includes('sûreté'),
    );
    expect(french.length).toBeGreaterThan(0);
    for (const r of french) expect(JSON.stringify(r)).toContain('The sample is in French.');
    expect(await metrics.render()).toMatch(/^rag_score_by_language\{metric="faithfulness",language="fr"\} /m);
  });
});
