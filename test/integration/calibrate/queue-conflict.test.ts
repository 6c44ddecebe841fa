import { afterEach, describe, expect, it } from 'vitest';
import { humanScoreConfigs } from '../../../src/calibrate/human-scores.js';
import { createAnnotationQueue, listAnnotationQueues } from '../../../src/langfuse/resources/annotation-queues.js';
import { ensureScoreConfigs } from '../../../src/langfuse/resources/score-configs.js';
import { startGoldenHarness, type GoldenHarness } from '../golden/harness.js';
import { startCalibrateHarness, type CalibrateHarness } from './harness.js';

let h: CalibrateHarness | GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A queue a person made in the UI under the name ragwatch is configured with, over a config of their own. */
async function personsQueue(http: CalibrateHarness['http'], name: string) {
  const ids = await ensureScoreConfigs(http, [
    { name: 'helpfulness', description: 'a person’s own score', min: 0, max: 1 },
  ]);
  return createAnnotationQueue(http, { name, scoreConfigIds: [...ids.values()] });
}

describe.each(['v3', 'v4'] as const)(
  'an annotation queue of the configured name that people made, Langfuse %s',
  (personality) => {
    it('the stand-in refuses a second queue of one name, as Langfuse does', async () => {
      h = await startCalibrateHarness(personality);
      await personsQueue(h.http, 'ragwatch calibration');
      await expect(personsQueue(h.http, 'ragwatch calibration')).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('A queue with this name already exists'),
      });
      expect(h.violations).toEqual([]);
    });

    it('calibrate enqueue and its dry run refuse it by name, with what it lacks and the way out, exit 2', async () => {
      h = await startCalibrateHarness(personality);
      const queue = await personsQueue(h.http, 'ragwatch calibration');
      for (const args of [
        ['calibrate', 'enqueue', '--dry-run'],
        ['calibrate', 'enqueue'],
      ]) {
        const r = await h.cli(args);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(
          'calibrate.queue: annotation queue "ragwatch calibration" already exists in Langfuse without the score configs "human-faithfulness", "human-answer-relevancy"',
        );
        expect(r.stderr).toContain('set calibrate.queue to another name, or delete that queue in Langfuse');
        expect(r.stderr).not.toContain('langfuse.baseUrl');
      }
      // Nothing created beside it, the person's queue untouched.
      expect(await listAnnotationQueues(h.http)).toEqual([queue]);
      expect(h.violations).toEqual([]);
    });

    it('calibrate enqueue reuses a queue of that name carrying every config it needs, and more', async () => {
      h = await startCalibrateHarness(personality);
      const ours = await ensureScoreConfigs(h.http, humanScoreConfigs(['faithfulness', 'answer_relevancy'], 'levels'));
      const theirs = await ensureScoreConfigs(h.http, [{ name: 'helpfulness', description: 'theirs', min: 0, max: 1 }]);
      const queue = await createAnnotationQueue(h.http, {
        name: 'ragwatch calibration',
        scoreConfigIds: [...theirs.values(), ...ours.values()],
      });
      const r = await h.cli(['calibrate', 'enqueue']);
      expect(r.code, r.stderr).toBe(0);
      expect((await listAnnotationQueues(h.http)).map((q) => q.id)).toEqual([queue.id]);
    });
  },
);

describe('the golden review queue of the configured name that people made', () => {
  it('stops golden build before any judge call, naming golden.review.queue, exit 2', async () => {
    const g = await startGoldenHarness('v3');
    h = g;
    await personsQueue(g.http, 'rag-golden review');
    const r = await g.cli('golden', 'build', '--corpus', 'corpus');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      'golden.review.queue: annotation queue "rag-golden review" already exists in Langfuse without the score configs "golden-review", "golden-review-note"',
    );
    expect(g.judgeRequests()).toBe(0);
    expect(g.violations).toEqual([]);
  });
});
