import { describe, expect, it } from 'vitest';
import { parseInputLines } from '../../../src/metrics/batch/input.js';
import { recordToJson, scoreBatch, scoreOne } from '../../../src/metrics/batch/run.js';
import { renderSummary, summarise } from '../../../src/metrics/batch/summary.js';
import type { RagSample } from '../../../src/sample.js';
import { FakeEmbeddings, FakeJudge } from './fakes.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

const options = defaultMetricsOptions();
const sample: RagSample = { traceId: 's', question: 'Q?', answer: 'It is red.', contexts: ['It is red.'], meta: {} };
const judge = () =>
  new FakeJudge({ ragwatch_faithfulness: () => ({ claims: [{ claim: 'It is red.', chunks: [1], verdict: 1 }] }) });

describe('evaluate input', () => {
  it('numbers lines like an editor, skips blank ones and explains malformed ones', () => {
    const parsed = parseInputLines(
      [
        JSON.stringify({ id: 7, question: 'q', answer: 'a', contexts: ['c'], reference: 'r', language: 'es' }),
        '',
        '{oops',
        JSON.stringify({ question: 'q', answer: 'a', contexts: 'c' }),
        JSON.stringify({ question: 'q', answer: 'a', contexts: [], language: 'fr' }),
      ].join('\n'),
    );
    expect(parsed[0]).toEqual({
      line: 1,
      sample: {
        traceId: '7',
        question: 'q',
        answer: 'a',
        contexts: ['c'],
        reference: 'r',
        language: 'es',
        meta: { line: 1 },
      },
    });
    expect(parsed.map((p) => p.line)).toEqual([1, 3, 4, 5]);
    expect(parsed[1]).toMatchObject({ error: expect.stringContaining('not valid JSON') });
    expect(parsed[2]).toMatchObject({ error: 'contexts: contexts must be an array of strings' });
    expect(parsed[3]).toMatchObject({ error: "language: language must be 'es' or 'en'" });
  });
});

describe('evaluate batch', () => {
  it('keeps a sample with residual personal data away from the judge: not_scorable pii_residual for every metric', async () => {
    const j = judge();
    const anonymizer = { anonymizeSample: (s: RagSample) => ({ sample: s, entities: [{}], residual: [{}] }) };
    const record = await scoreOne(sample, ['faithfulness', 'answer_relevancy'], {
      judge: j,
      embeddings: new FakeEmbeddings(),
      options,
      anonymizer,
    });
    expect(record.results).toEqual([
      { metric: 'faithfulness', status: 'not_scorable', reason: 'pii_residual' },
      { metric: 'answer_relevancy', status: 'not_scorable', reason: 'pii_residual' },
    ]);
    expect(j.requests).toHaveLength(0);
  });

  it('judges the anonymized sample, not the original', async () => {
    const j = judge();
    const anonymizer = {
      anonymizeSample: (s: RagSample) => ({
        sample: { ...s, answer: 'It is <COLOR_1>.' },
        entities: [{}],
        residual: [],
      }),
    };
    const record = await scoreOne(sample, ['faithfulness'], {
      judge: j,
      embeddings: new FakeEmbeddings(),
      options,
      anonymizer,
    });
    expect(record).toMatchObject({ anonymized: true, piiEntities: 1 });
    expect(JSON.stringify(j.requests[0]?.messages)).toContain('It is <COLOR_1>.');
    expect(recordToJson(record)).toMatchObject({
      id: 's',
      anonymized: true,
      metrics: { faithfulness: { status: 'scored', value: 1 } },
    });
  });

  it('delivers records in input order and summarises per metric', async () => {
    const samples = Array.from({ length: 7 }, (_, i) => ({
      ...sample,
      traceId: `s${i}`,
      answer: i === 3 ? '' : sample.answer,
    }));
    const seen: string[] = [];
    const records = await scoreBatch(
      samples,
      ['faithfulness'],
      { judge: judge(), embeddings: new FakeEmbeddings(), options, concurrency: 3 },
      (r) => {
        seen.push(r.id);
      },
    );
    expect(seen).toEqual(samples.map((s) => s.traceId));
    const rows = summarise(
      ['faithfulness'],
      records.map((r) => r.results),
    );
    expect(rows[0]).toMatchObject({ metric: 'faithfulness', mean: 1, scored: 6, notScorable: 1, failed: 0, calls: 6 });
    const table = renderSummary(rows, { samples: 7, malformed: 1, piiBlocked: 0 });
    expect(table).toContain('7 samples evaluated; 1 malformed line skipped');
  });
});
