import { describe, expect, it } from 'vitest';
import {
  humanScoreConfigs,
  humanScoreName,
  humanValue,
  metricOfHumanScore,
} from '../../../src/calibrate/human-scores.js';
import {
  annotatedPairs,
  enqueueCandidates,
  languageOf,
  scoredTraces,
  type HumanScoreRow,
  type JudgeScoreRow,
} from '../../../src/calibrate/scored-traces.js';
import { weekStart } from '../../../src/calibrate/enqueue.js';

const judge = (
  traceId: string,
  metric: string,
  value: number,
  metadata: Record<string, unknown>,
  timestamp = '2026-11-25T10:00:00.000Z',
): JudgeScoreRow => ({
  traceId,
  metric,
  value,
  comment: `judge on ${traceId}`,
  metadata: { source: 'ragwatch', ...metadata },
  timestamp,
});
const human = (
  traceId: string,
  metric: string | null,
  value: number | null,
  comment: string | null,
  timestamp = '2026-11-26T10:00:00.000Z',
): HumanScoreRow => ({
  traceId,
  metric,
  value,
  comment,
  timestamp,
});

describe('human score names and values', () => {
  it('names people’s scores apart from the judge’s and reads them back', () => {
    expect(humanScoreName('answer_relevancy')).toBe('human-answer-relevancy');
    expect(metricOfHumanScore('human-faithfulness', ['faithfulness', 'answer_relevancy'])).toBe('faithfulness');
    expect(metricOfHumanScore('ragas-faithfulness', ['faithfulness'])).toBeNull();
  });

  it('reads a level by its label, a number as it is, and nothing off the scale', () => {
    expect(humanValue({ dataType: 'CATEGORICAL', value: 2, stringValue: 'supported' })).toBe(1);
    expect(humanValue({ dataType: 'CATEGORICAL', value: 0.5, stringValue: 'Partly ' })).toBe(0.5);
    expect(humanValue({ dataType: 'CATEGORICAL', value: 1, stringValue: 'maybe' })).toBeNull();
    expect(humanValue({ dataType: 'NUMERIC', value: 0.3, stringValue: null })).toBe(0.3);
    expect(humanValue({ dataType: 'NUMERIC', value: 1.3, stringValue: null })).toBeNull();
  });

  it('mirrors the metrics on three levels or 0–1, with a free comment', () => {
    const levels = humanScoreConfigs(['faithfulness'], 'levels');
    expect(levels.map((c) => [c.name, c.dataType])).toEqual([
      ['human-faithfulness', 'CATEGORICAL'],
      ['human-comment', 'TEXT'],
    ]);
    expect(levels[0]!.categories!.map((c) => c.value)).toEqual([0, 0.5, 1]);
    expect(humanScoreConfigs(['faithfulness'], 'numeric')[0]).toMatchObject({ dataType: 'NUMERIC', min: 0, max: 1 });
  });
});

describe('scored traces', () => {
  it('takes the language from the prompt version, origin, stratum and split from ragwatch’s metadata', () => {
    expect(languageOf({ promptVersion: 'es-1a2b3c4d5e6f' })).toBe('es');
    expect(languageOf({ language: 'en', promptVersion: 'es-1' })).toBe('en');
    expect(languageOf(null)).toBe('unknown');
    const traces = scoredTraces(
      [
        judge('t1', 'faithfulness', 0.9, { promptVersion: 'en-aa' }),
        judge('t2', 'faithfulness', 0.2, {
          promptVersion: 'es-bb',
          runName: 'weekly-2026-W48',
          stratum: 'multi-hop',
          split: 'dev',
        }),
        judge('t1', 'faithfulness', 0.4, { promptVersion: 'en-aa' }, '2026-11-24T10:00:00.000Z'),
      ],
      (id, origin) => (origin === 'online' && id === 't1' ? 'support-chat' : null),
    );
    expect(traces.map((t) => [t.traceId, t.origin, t.language, t.stratum, t.split, t.traceName])).toEqual([
      ['t1', 'online', 'en', 'online', null, 'support-chat'],
      ['t2', 'experiment', 'es', 'multi-hop', 'dev', 'ragwatch-experiment'],
    ]);
    // The latest score of a metric wins.
    expect(traces[0]!.scores.get('faithfulness')!.value).toBe(0.9);
    const candidates = enqueueCandidates(traces, new Set(['t2']), new Set());
    expect(candidates.map((c) => [c.traceId, c.queued, c.scores])).toEqual([
      ['t1', false, { faithfulness: 0.9 }],
      ['t2', true, { faithfulness: 0.2 }],
    ]);
  });

  it('pairs a person’s latest answer with the judge’s score; the free comment stands in for a missing one', () => {
    const traces = scoredTraces([judge('t1', 'faithfulness', 0.9, {}), judge('t2', 'faithfulness', 0.1, {})]);
    const pairs = annotatedPairs(
      traces,
      [
        human('t1', 'faithfulness', 0, 'first look', '2026-11-26T10:00:00.000Z'),
        human('t1', 'faithfulness', 0.5, null, '2026-11-27T10:00:00.000Z'),
        human('t1', null, null, 'call Ana at 612 345 678 about it'),
        human('t2', 'faithfulness', 1, 'all there'),
        human('t3', 'faithfulness', 1, 'no judge score'),
      ],
      { cleanComment: (t) => t.replace(/\d[\d ]+\d/g, '<PHONE>') },
    );
    expect(pairs.map((p) => [p.traceId, p.judge, p.human, p.humanComment])).toEqual([
      ['t1', 0.9, 0.5, 'call Ana at <PHONE> about it'],
      ['t2', 0.1, 1, 'all there'],
    ]);
  });

  it('starts the week on Monday 00:00 UTC', () => {
    expect(new Date(weekStart(Date.parse('2026-12-01T18:00:00Z'))).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(new Date(weekStart(Date.parse('2026-11-30T00:00:00Z'))).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(new Date(weekStart(Date.parse('2026-11-29T23:59:59Z'))).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });
});

describe('trace names of scored traces (issue 29, part 5)', () => {
  it('a name read from score metadata is its key: the strata and the report never carry a careless name', () => {
    const careless = 'Pregunta de Ana García';
    const [t] = scoredTraces([judge('t1', 'faithfulness', 0.5, { traceName: careless })]);
    expect(t!.traceName).toMatch(/^#[0-9a-f]{16}$/);
    const [kept] = scoredTraces([judge('t2', 'faithfulness', 0.5, { traceName: 'rag-answer' })]);
    expect(kept!.traceName).toBe('rag-answer');
  });
});
