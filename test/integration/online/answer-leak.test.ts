/**
 * The answer-leak check end to end: the online job against the devkit stand-ins flags a RAG answer holding an
 * e-mail the question and contexts did not, writes the `ragwatch-answer-leak` score and counts it on /metrics,
 * and the leaked value reaches neither the state, the logs, the scores nor the judge.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOnlineTick, type TickReport } from '../../../src/online/job.js';
import { createOnlineRuntime } from '../../../src/online/runtime.js';
import { testRuntime } from '../../../src/runtime/index.js';
import { createServiceMetrics, type ServiceMetrics } from '../../../src/service/metrics.js';
import { openSqliteState } from '../../../src/state/index.js';
import type { StateStore } from '../../../src/state/types.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import {
  CANARY,
  noSleep,
  plantCanaryTraces,
  plantRagTrace,
  stackConfig,
  startStack,
  type Personality,
  type Stack,
} from './harness.js';

const MIN = 60_000;
const LEAKED = 'jordi.vila.leak@example.org';
const LEAK_SCORE = 'ragwatch-answer-leak';

describe.each<Personality>(['v3', 'v4'])('answer leak in the online job against the %s stand-in', (personality) => {
  const now = Date.parse('2025-06-02T12:00:00Z');
  let stack: Stack;
  let state: StateStore;
  let metrics: ServiceMetrics;
  let report: TickReport;
  let dir: string;
  let statePath: string;
  const log = captureLogger('debug');
  const leakId = `leak${'0'.repeat(27)}1`;
  const cleanId = `leak${'0'.repeat(27)}2`;
  let canaryIds: string[];

  beforeAll(async () => {
    stack = await startStack(personality, { now: () => now });
    const end = now - 11 * MIN;
    plantRagTrace(stack, {
      id: leakId,
      at: end - 5_000,
      question: '¿Cómo cambio la domiciliación de mi cuota?',
      answer: `Desde el área de cliente, en Pagos. Si tienes dudas, escribe a ${LEAKED}, que lleva las domiciliaciones.`,
      contexts: ['La domiciliación bancaria se cambia desde el área de cliente, sección Pagos.'],
    });
    plantRagTrace(stack, {
      id: cleanId,
      at: end - 6_000,
      question: '¿Cómo cambio la domiciliación de mi cuota?',
      answer: 'Desde el área de cliente, en Pagos; el cambio se aplica a la siguiente factura.',
      contexts: [
        'La domiciliación bancaria se cambia desde el área de cliente, sección Pagos. El cambio se aplica a la siguiente factura.',
      ],
    });
    // The canary's answer repeats the e-mail and phone its question and contexts gave: no leak.
    canaryIds = plantCanaryTraces(stack, 2, end - 10_000);
    dir = mkdtempSync(join(tmpdir(), 'ragwatch-leak-'));
    statePath = join(dir, 'state.db');
    state = openSqliteState({ path: statePath });
    metrics = createServiceMetrics({ scoreMetrics: ['faithfulness', 'answer_relevancy'], processMetrics: false });
    const config = stackConfig(stack, { sampling: { rate: 1 }, log: { level: 'debug' } });
    const runtime = await createOnlineRuntime(config, {
      runtime: testRuntime({ now: { now: () => now }, sleep: noSleep, logger: log.logger }),
      state,
      recorder: metrics,
    });
    report = await runOnlineTick(runtime.deps, runtime.settings);
  }, 120_000);

  afterAll(async () => {
    await state?.close();
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scores 1 on the answer that holds an e-mail the question and contexts did not, 0 on the others', async () => {
    expect(report.outcome).toBe('success');
    const leak = stack.lf.store.scores({ traceId: leakId, name: LEAK_SCORE });
    expect(leak).toHaveLength(1);
    expect(leak[0]!.value).toBe(1);
    expect(leak[0]!.configId).toBeTruthy();
    expect(leak[0]!.metadata).toMatchObject({ metric: 'answer_leak', leaked: 1, leakedByType: { EMAIL: 1 } });
    for (const id of [cleanId, ...canaryIds]) {
      const scores = stack.lf.store.scores({ traceId: id, name: LEAK_SCORE });
      expect(scores, id).toHaveLength(1);
      expect(scores[0]!.value, id).toBe(0);
    }
    // The RAGAS metrics still score the leaking trace, on its anonymized text.
    const faithfulness = stack.lf.store.scores({ traceId: leakId, name: 'ragas-faithfulness' });
    expect(faithfulness).toHaveLength(1);
    // Every score records the sample's language (issue 31, part 1).
    expect(faithfulness[0]!.metadata).toMatchObject({
      language: { code: 'es', name: 'Spanish', source: 'detected' },
    });
  });

  it('counts the leak on /metrics by type, with no value in any label', async () => {
    const text = await metrics.render();
    expect(text).toMatch(/^ragwatch_answer_leak_traces_total 1$/m);
    expect(text).toMatch(/^ragwatch_answer_leak_checked_total 4$/m);
    expect(text).toMatch(/^ragwatch_answer_leak_entities_total\{type="EMAIL"\} 1$/m);
    expect(text).not.toContain('jordi');
    // Per-language means of the tick (issue 31, part 1): these samples are all Spanish.
    expect(text).toMatch(/^rag_score_by_language\{metric="faithfulness",language="es"\} [01](\.\d+)?$/m);
    expect(text).not.toMatch(/^rag_score_by_language\{[^}]*language="en"/m);
  });

  it('keeps the leaked value out of the state, the logs, the scores and the judge', async () => {
    const haystacks: Record<string, string> = {
      judgeRequests: JSON.stringify(stack.judge.requests),
      logs: log.text(),
      scores: JSON.stringify(stack.lf.store.scores()),
      state: ['', '-wal', '-shm']
        .map((suffix) => (existsSync(statePath + suffix) ? readFileSync(statePath + suffix).toString('latin1') : ''))
        .join(''),
    };
    expect(stack.judge.requests.length).toBeGreaterThan(0);
    expect(log.text()).toContain('online run finished');
    for (const [where, text] of Object.entries(haystacks)) {
      for (const needle of [LEAKED, 'jordi.vila', CANARY.email])
        expect(text.includes(needle), `${needle} found in ${where}`).toBe(false);
    }
  });
});
