import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KNOWLEDGE } from '@ragwatch/devkit/corpus/knowledge.js';
import { reviewGoldenQueue } from '@ragwatch/devkit/demo/golden-reviewer.js';
import { card, dni, iban, nie, rng } from '../../fixtures/pii/generators.js';
import { startGoldenHarness, type GoldenHarness } from './harness.js';

/**
 * Canary: production traces whose retrieved contexts carry known personal data. A golden set built from them —
 * candidates, review traces, the published version — and everything sent to the judge or kept in the state file
 * holds none of it.
 */
const r = rng(20260302);
const CANARY = {
  name: 'Rocío Benjumea Ortiz',
  email: 'canary.rocio@correo-ejemplo.es',
  phone: '+34 612 98 76 54',
  dni: dni(r).surface,
  nie: nie(r).surface,
  iban: iban(r, true, 'ES').surface,
  card: card(r).surface,
  english: 'Margaret Thistlewood',
  englishEmail: 'm.thistlewood@example.co.uk',
};
const FORMS = [
  ...Object.values(CANARY),
  '612987654',
  'Benjumea',
  'Thistlewood',
  CANARY.card.replace(/\D/g, ''),
  CANARY.iban.replace(/\s/g, ''),
];

let h: GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function plantTraces(h: GoldenHarness, end: number): number {
  const clean = KNOWLEDGE.filter((c) => c.text.length >= 200).slice(0, 30);
  const personal = [
    `Ficha de cliente: ${CANARY.name}, DNI ${CANARY.dni}, correo ${CANARY.email}, teléfono ${CANARY.phone}. Solicita el reembolso de la suscripción anual a la cuenta ${CANARY.iban}; el titular secundario tiene NIE ${CANARY.nie}.`,
    `Payment log for order 7781: customer ${CANARY.english} (${CANARY.englishEmail}) was charged twice on card ${CANARY.card}; the second authorisation of 42.10 EUR was voided by support two minutes later.`,
    `${clean[0]!.text} Para cualquier duda sobre este caso, la gestora asignada es ${CANARY.name} (${CANARY.email}).`,
  ];
  let n = 0;
  for (let i = 0; i < clean.length; i++) {
    const id = `trace${String(i).padStart(27, '0')}`;
    const at = end - (i + 1) * 60_000;
    const contexts = [clean[i]!.text, personal[i % personal.length]!];
    const question = `Pregunta de cliente número ${i}`;
    const answer = `Respuesta a la pregunta ${i}.`;
    const store = h.langfuse.store;
    store.upsertTrace({
      id,
      timestamp: at,
      name: 'support-rag',
      input: question,
      output: answer,
      environment: 'production',
    });
    store.upsertObservation({
      id: `${id}-root`,
      traceId: id,
      type: 'SPAN',
      name: 'support-rag',
      startTime: at,
      endTime: at + 3000,
      input: question,
      output: answer,
      environment: 'production',
    });
    store.upsertObservation({
      id: `${id}-ret`,
      traceId: id,
      type: 'RETRIEVER',
      name: 'knowledge-base',
      parentObservationId: `${id}-root`,
      startTime: at + 100,
      endTime: at + 400,
      input: question,
      output: contexts.map((pageContent) => ({ pageContent, metadata: { source: 'kb' } })),
      environment: 'production',
    });
    store.upsertObservation({
      id: `${id}-gen`,
      traceId: id,
      type: 'GENERATION',
      name: 'answer',
      parentObservationId: `${id}-root`,
      startTime: at + 500,
      endTime: at + 2500,
      input: [{ role: 'user', content: question }],
      output: { role: 'assistant', content: answer },
      environment: 'production',
    });
    n++;
  }
  return n;
}

function leaks(text: string): string[] {
  return FORMS.filter((form) => text.includes(form));
}

describe.each(['v3', 'v4'] as const)('a golden set built from production traces on Langfuse %s', (personality) => {
  it('carries no personal data: not in candidates, review traces, the published set, the judge traffic or the state file', async () => {
    h = await startGoldenHarness(personality, {
      corpus: false,
      yaml: 'golden: {seeds: {min: 12}, review: {share: 0.5}}',
    });
    plantTraces(h, Date.now() - 5 * 60_000);
    const built = await h.cli('golden', 'build', '--from-traces', '--since', '1d', '--json');
    expect(built.code, built.stderr).toBe(0);
    const summary = JSON.parse(built.stdout);
    expect(summary.plan.excluded.personal_data).toBe(3);
    expect(summary.plan.eligible).toBeGreaterThanOrEqual(20);
    expect(summary.review.sampled).toBeGreaterThan(0);
    await reviewGoldenQueue(h.http, { queueName: 'rag-golden review', decide: () => 'accept' });
    const applied = await h.cli('golden', 'review', '--apply', '--json');
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout).published.items).toBeGreaterThan(0);

    const store = h.langfuse.store;
    const golden = ['rag-golden-candidates', 'rag-golden-v1'].flatMap((name) => store.datasetItems(name));
    expect(golden.length).toBeGreaterThan(20);
    const reviewTraces = store.traces().filter((t) => t.environment === 'ragwatch');
    expect(reviewTraces.length).toBe(summary.review.sampled);
    const reviewObservations = reviewTraces.flatMap((t) => store.observationsOfTrace(t.id));
    const judgeTraffic = JSON.stringify(h.judge.requests.map((q) => q.body));
    expect(judgeTraffic.length).toBeGreaterThan(10_000);
    const state =
      readFileSync(join(h.dir, 'state.db')).toString('latin1') +
      readFileSync(join(h.dir, 'state.db-wal'), { flag: 'a+' }).toString('latin1');

    expect(leaks(JSON.stringify(golden)), 'datasets').toEqual([]);
    expect(leaks(JSON.stringify(reviewTraces) + JSON.stringify(reviewObservations)), 'review traces').toEqual([]);
    expect(leaks(judgeTraffic), 'judge').toEqual([]);
    expect(leaks(state), 'state file').toEqual([]);
    expect(leaks(built.stdout + built.stderr + applied.stdout + applied.stderr), 'output').toEqual([]);
    // The canaries are there to find: the source traces still hold them.
    expect(leaks(JSON.stringify(store.observations())).length).toBeGreaterThan(5);
    expect(h.violations).toEqual([]);
  }, 120_000);
});
