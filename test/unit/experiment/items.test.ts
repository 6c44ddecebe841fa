import { describe, expect, it } from 'vitest';
import { inSplit, readGoldenItem, textAt } from '../../../src/experiment/items.js';
import type { DatasetItem } from '../../../src/langfuse/resources/datasets.js';
import { configSchema } from '../../helpers/config.js';

const mapping = configSchema.parse({}).experiment;
const item = (over: Partial<DatasetItem>): DatasetItem => ({
  id: 'i1',
  status: 'ACTIVE',
  input: null,
  expectedOutput: null,
  metadata: null,
  sourceTraceId: null,
  datasetName: 'd',
  ...over,
});

describe('golden items', () => {
  it('reads question, reference, stratum and split through the configured paths and keys', () => {
    const r = readGoldenItem(
      item({
        input: { question: ' ¿Cuánto cuesta? ' },
        expectedOutput: 'Cuesta 5 €.',
        metadata: { type: 'multi-hop', split: 'TEST' },
      }),
      mapping,
    );
    expect(r).toMatchObject({
      ok: true,
      item: {
        question: '¿Cuánto cuesta?',
        reference: 'Cuesta 5 €.',
        stratum: 'multi-hop',
        split: 'test',
        adversarial: false,
      },
    });
  });

  it('takes a plain string input as the question and nested paths into objects', () => {
    const custom = {
      ...mapping,
      questionPath: 'messages[0].content',
      referencePath: 'gold.text',
      strataKey: 'kind',
      splitKey: 'part',
    };
    expect(readGoldenItem(item({ input: 'What is it?' }), custom)).toMatchObject({
      ok: true,
      item: { question: 'What is it?', reference: null, stratum: 'unknown', split: 'unknown' },
    });
    const r = readGoldenItem(
      item({
        input: { messages: [{ role: 'user', content: 'Why?' }] },
        expectedOutput: { gold: { text: 'Because.' } },
        metadata: { kind: 'adversarial', part: 'dev' },
      }),
      custom,
    );
    expect(r).toMatchObject({
      ok: true,
      item: { question: 'Why?', reference: 'Because.', adversarial: true, split: 'dev' },
    });
  });

  it('reports an item without a question instead of guessing one', () => {
    expect(readGoldenItem(item({ input: { query: 'x' } }), mapping)).toEqual({
      ok: false,
      itemId: 'i1',
      reason: 'no question at input.question',
    });
    expect(readGoldenItem(item({ input: '   ' }), mapping).ok).toBe(false);
  });

  it('filters splits; `all` keeps items whose split is unknown', () => {
    expect(inSplit({ split: 'dev' }, 'dev')).toBe(true);
    expect(inSplit({ split: 'test' }, 'dev')).toBe(false);
    expect(inSplit({ split: 'unknown' }, 'all')).toBe(true);
    expect(textAt({ answer: { text: 'hi' } }, 'answer')).toBe('hi');
    expect(textAt(null, 'answer')).toBeNull();
  });
});
