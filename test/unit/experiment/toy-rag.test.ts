import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { answerQuestion, startToyRag, type ToyRag } from '@ragwatch/devkit/rag/index.js';

const question = GOLDEN_ITEMS.find((i) => i.id === 'golden-es-001')?.question ?? '¿Cuánto cuesta el Lumora Hub?';

describe('toy RAG', () => {
  it('answers extractively from the chunks it retrieved, deterministically', () => {
    const a = answerQuestion(question, { degraded: false });
    expect(a.abstained).toBe(false);
    expect(a.contexts.length).toBeGreaterThan(0);
    for (const sentence of a.answer.split(/(?<=\.)\s+/))
      expect(a.contexts.join(' ')).toContain(sentence.replace(/\.$/, ''));
    expect(answerQuestion(question, { degraded: false })).toEqual(a);
  });

  it('degraded: loses the best chunk, brings an off-topic one, and adds a sentence no chunk supports', () => {
    const good = answerQuestion(question, { degraded: false });
    const bad = answerQuestion(question, { degraded: true });
    expect(bad.sources[0]).not.toBe(good.sources[0]);
    const unsupported = bad.answer
      .split(/(?<=\.)\s+/)
      .filter((s) => !bad.contexts.join(' ').includes(s.replace(/\.$/, '')));
    expect(unsupported.length).toBeGreaterThan(0);
  });

  it('abstains when retrieval finds little, and appends distractors to the contexts', () => {
    expect(answerQuestion('¿Qué opinas del programa espacial marciano de 1850?', { degraded: false }).abstained).toBe(
      true,
    );
    const withNoise = answerQuestion(question, { degraded: false, distractors: ['Un fragmento ajeno.'] });
    expect(withNoise.contexts.at(-1)).toBe('Un fragmento ajeno.');
  });

  describe('over HTTP', () => {
    let rag: ToyRag;
    beforeAll(async () => {
      rag = await startToyRag();
    });
    afterAll(async () => {
      await rag.close();
    });

    it('POST /ask answers, 400 without a question, and plays outages on demand', async () => {
      const ok = await fetch(rag.askUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question, distractors: ['x y z.'] }),
      });
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { answer: string; contexts: string[]; traceId?: string };
      expect(body.answer.length).toBeGreaterThan(0);
      expect(body.contexts).toContain('x y z.');
      expect(body.traceId).toBeUndefined();
      expect((await fetch(rag.askUrl, { method: 'POST', body: '{}' })).status).toBe(400);
      rag.failWith = 503;
      expect((await fetch(rag.askUrl, { method: 'POST', body: JSON.stringify({ question }) })).status).toBe(503);
      rag.failWith = null;
      expect(rag.stats).toMatchObject({ asked: 1, withDistractors: 1, failed: 1 });
    });
  });
});
