import { describe, expect, it } from 'vitest';
import type { GoldenItem } from '../../../src/experiment/items.js';
import type { RunPlan } from '../../../src/experiment/plan.js';
import { distractorDonors, itemsInFlight, runPasses } from '../../../src/experiment/run-passes.js';
import type { Target, TargetRequest } from '../../../src/experiment/target.js';
import type { JudgeClient, StructuredRequest, StructuredResult } from '../../../src/judge/types.js';
import { createLogger } from '../../../src/runtime/logger.js';
import { configSchema } from '../../helpers/config.js';
import { FakeEmbeddings } from '../metrics/fakes.js';

/** The passes as a pipeline: a slow item holds back nobody else's judge calls, its own noise pass included. */
const item = (id: string, adversarial = false): GoldenItem => ({
  id,
  question: `question ${id}`,
  reference: null,
  stratum: adversarial ? 'adversarial' : 'single-hop',
  split: 'dev',
  adversarial,
  raw: { id, status: 'ACTIVE', input: id, expectedOutput: null, metadata: null, sourceTraceId: null, datasetName: 'd' },
});

class CountingJudge implements JudgeClient {
  readonly model = 'counting';
  /** Item ids (from the prompt) of every call, in order. */
  readonly calls: string[] = [];
  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    // The sample's texts are in the user message (the system prompt may name the sample's language).
    const text = request.messages.at(-1)?.content ?? '';
    this.calls.push(/question (\w+)/.exec(text)?.[1] ?? '?');
    const value =
      request.name === 'ragwatch_faithfulness'
        ? { claims: [{ claim: 'It is blue.', chunks: [1], verdict: 1 }] }
        : { abstained: 1, reason: 'declined' };
    return { value: request.parse(value), usage: { calls: 1, promptTokens: 1, completionTokens: 1, latencyMs: 0 } };
  }
}

describe('the experiment passes as a pipeline', () => {
  it('a slow item does not hold back the other items’ judge calls: their clean and noise passes finish first', async () => {
    let releaseSlow!: () => void;
    const slowAnswered = new Promise<void>((r) => (releaseSlow = r));
    const asked: string[] = [];
    const target: Target = {
      description: 'fake',
      acceptsDistractors: true,
      async ask(request: TargetRequest) {
        asked.push(`${request.itemId}${request.distractors.length > 0 ? '+noise' : ''}`);
        if (request.itemId === 'slow' && request.distractors.length === 0) await slowAnswered;
        return {
          answer: `It is blue (question ${request.itemId}).`,
          contexts: [`Chunk retrieved for ${request.itemId}.`],
          traceId: null,
          latencyMs: 1,
          attempts: 1,
        };
      },
    };
    const config = configSchema.parse({
      judge: { concurrency: 2 },
      experiment: { metrics: ['faithfulness'], target: { concurrency: 1 }, noise: { enabled: true, distractors: 1 } },
    });
    const judge = new CountingJudge();
    const items = [item('slow'), ...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => item(id)), item('adv', true)];
    const plan = { runName: 'r', target, noise: true } as unknown as RunPlan;
    const passes = runPasses(
      {
        config,
        judge,
        embeddings: new FakeEmbeddings(),
        anonymizer: { anonymizeSample: (sample) => ({ sample, entities: [], residual: [] }) },
        logger: createLogger({ level: 'silent' }),
        now: () => 0,
      },
      plan,
      items,
      new AbortController().signal,
    );
    // Let everything that does not wait for the slow item run.
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    const beforeRelease = [...asked];
    // While the slow item's answer is outstanding, every other item was scored, and those whose donors (their
    // neighbours: width 4 here) do not include it went through their noise pass too; before, the noise pass
    // waited for the whole clean pass.
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) expect(judge.calls, id).toContain(id);
    for (const id of ['e', 'f']) expect(beforeRelease, id).toContain(`${id}+noise`);
    for (const id of ['a', 'b', 'c', 'd']) expect(beforeRelease, id).not.toContain(`${id}+noise`);
    expect(judge.calls.filter((c) => c === 'slow')).toEqual([]);
    releaseSlow();
    const result = await passes;
    expect(result.stop).toBeNull();
    expect(result.clean.map((c) => c?.item.id)).toEqual(items.map((i) => i.id));
    expect(asked).toContain('slow+noise');
    expect(result.clean.filter((c) => !c!.outcome.adversarial).every((c) => c!.outcome.noisyFaithfulness === 1)).toBe(
      true,
    );
  });

  it('keeps one item in flight per judge slot and per RAG service slot', () => {
    const config = configSchema.parse({ judge: { concurrency: 32 }, experiment: { target: { concurrency: 4 } } });
    expect(itemsInFlight(config)).toBe(36);
  });

  it('fixes each item’s donors before the run: its neighbours, never itself, never an adversarial item', () => {
    const items = [...'abcdefgh'].map((id) => item(id)).concat(item('x', true));
    const donors = distractorDonors(items, 1);
    expect(donors.get('a')).toEqual(['b', 'c', 'd', 'e']);
    expect(donors.get('f')).toEqual(['b', 'c', 'd', 'e']);
    expect(donors.has('x')).toBe(false);
    for (const [id, ds] of donors) expect(ds).not.toContain(id);
  });
});
