import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { startToyRag, type ToyRag } from '@ragwatch/devkit/rag/index.js';
import { createHttpTarget } from '../../../src/experiment/target.js';
import { runOnlineTick } from '../../../src/online/job.js';
import { noopRecorder, type OnlineRecorder } from '../../../src/online/ports.js';
import { createOnlineRuntime } from '../../../src/online/runtime.js';
import { testRuntime } from '../../../src/runtime/index.js';
import { openSqliteState } from '../../../src/state/index.js';
import { noSleep, stackConfig, startStack, type Personality, type Stack } from './harness.js';

/**
 * The weekly run's requests reach the RAG service marked as docs/integrations.md says; a service instrumented
 * with the real Langfuse SDK (`@langfuse/otel` + `@langfuse/tracing`) that follows that page tags its traces of
 * them, and the online job leaves those traces out by default, counting them. Production requests to the same
 * service, in the same window, are sampled and scored as before.
 */
describe.each<Personality>(['v3', 'v4'])('experiment traffic against the %s stand-in', (personality) => {
  let stack: Stack;
  let rag: ToyRag;
  const production: string[] = [];
  const experiment: string[] = [];
  const questions = GOLDEN_ITEMS.filter((i) => i.sources.length > 0)
    .slice(0, 12)
    .map((i) => i.question);

  beforeAll(async () => {
    stack = await startStack(personality);
    const { url: baseUrl, publicKey, secretKey } = stack.lf;
    rag = await startToyRag({ langfuse: { baseUrl, publicKey, secretKey }, tracing: 'sdk' });
    // Production: the service's own users, no mark.
    for (const question of questions.slice(0, 6)) {
      const res = await fetch(rag.askUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question }),
      });
      production.push(((await res.json()) as { traceId: string }).traceId);
    }
    // The weekly run: ragwatch's own HTTP target, configured as a team would (no header of its own).
    const config = stackConfig(stack, {
      experiment: {
        target: { url: rag.askUrl, response: { answer: 'answer', contexts: 'contexts', traceId: 'traceId' } },
      },
    });
    const target = createHttpTarget(config.experiment.target, { sleep: noSleep });
    for (const [i, question] of questions.slice(6).entries()) {
      const answer = await target.ask({ itemId: `item-${i}`, question, distractors: [], runName: 'weekly-2025-W23' });
      experiment.push(answer.traceId!);
    }
  }, 120_000);

  afterAll(async () => {
    await rag?.close();
    await stack?.close();
  });

  async function tick(filters: Record<string, unknown> = {}) {
    const state = openSqliteState({ path: ':memory:' });
    const skipped: Array<[string, string | null | undefined]> = [];
    const recorder: OnlineRecorder = { ...noopRecorder, traceSkipped: (r, n) => skipped.push([r, n]) };
    const now = Date.now() + 60_000;
    const runtime = await createOnlineRuntime(
      stackConfig(stack, {
        sampling: { rate: 1 },
        online: { settleDelaySeconds: 0, filters },
      }),
      { runtime: testRuntime({ now: { now: () => now }, sleep: noSleep }), state, recorder },
    );
    const report = await runOnlineTick(runtime.deps, runtime.settings);
    const scored = (ids: string[]) => ids.filter((id) => stack.lf.store.scores({ traceId: id }).length > 0);
    const inLedger = async (ids: string[]) => {
      const found: string[] = [];
      for (const id of ids) if (await state.getEntry(id)) found.push(id);
      return found;
    };
    const result = {
      report,
      skipped,
      productionScored: scored(production),
      experimentScored: scored(experiment),
      experimentInLedger: await inLedger(experiment),
    };
    await state.close();
    return result;
  }

  it('the service saw every experiment request marked and none of the production ones', () => {
    expect(rag.stats.asked).toBe(12);
    expect(rag.stats.marked).toBe(6);
    expect(new Set([...production, ...experiment]).size).toBe(12);
  });

  it('by default the experiment traffic is left out, counted, and production is still scored', async () => {
    const r = await tick();
    expect(r.report.outcome).toBe('success');
    expect(r.experimentScored).toEqual([]);
    expect(r.experimentInLedger).toEqual([]);
    expect(r.report.excluded).toBe(experiment.length);
    expect(r.report.listed).toBe(production.length);
    expect(r.productionScored.length).toBeGreaterThan(0);
    expect(r.skipped.filter(([reason]) => reason === 'excluded_tag')).toHaveLength(experiment.length);
  });
  it('without the exclusion (a team emptying online.filters.excludeTags) the same traffic is sampled and scored', async () => {
    const r = await tick({ excludeTags: [] });
    expect(r.report.outcome).toBe('success');
    expect(r.report.excluded).toBe(0);
    expect(r.experimentInLedger.sort()).toEqual([...experiment].sort());
    expect(r.experimentScored.length).toBeGreaterThan(0);
  });
});
