import { describe, expect, it } from 'vitest';
import { extractRagSample } from '../../../src/extract/extract.js';
import { expectations, fixtureFiles, loadTrace } from './load-fixture.js';

const expected = expectations();

describe('extractRagSample on real integration shapes', () => {
  it('has an expectation for every fixture', () => {
    expect(fixtureFiles().sort()).toEqual(Object.keys(expected).sort());
  });

  for (const file of fixtureFiles()) {
    it(file, () => {
      const want = expected[file]!;
      const result = extractRagSample(loadTrace(file));
      if (!want.ok) {
        expect(result).toMatchObject({ ok: false, reason: want.reason });
        return;
      }
      if (!result.ok) throw new Error(`${file}: skipped with ${result.reason} (${result.detail ?? ''})`);
      expect(result.sample.question).toBe(want.question);
      expect(result.sample.answer).toBe(want.answer);
      expect(result.sample.contexts).toEqual(want.contexts);
      expect(result.shape).toMatch(/^question=.+;answer=.+;contexts=.+$/);
    });
  }
});
