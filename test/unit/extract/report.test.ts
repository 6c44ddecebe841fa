import { describe, expect, it } from 'vitest';
import { extractRagSample } from '../../../src/extract/extract.js';
import { extractReport, valueShape } from '../../../src/extract/report.js';
import type { ObservationRecord, TraceRecord } from '../../../src/langfuse/core/types.js';

const o = (id: string, parent: string | null, extra: Partial<ObservationRecord> = {}): ObservationRecord => ({
  id,
  parentObservationId: parent,
  type: 'SPAN',
  name: id,
  startTime: `2026-01-01T00:00:0${id.charCodeAt(0) % 10}.000Z`,
  input: null,
  output: null,
  metadata: null,
  ...extra,
});

describe('extract report', () => {
  it('shapes values without their text', () => {
    expect(valueShape('secret text')).toBe('s');
    expect(valueShape('{"q":"secret","k":3,"docs":[{"text":"x"}]}')).toBe('{docs:[{…}],k:n,q:s}');
    expect(valueShape([{ role: 'user', content: 'secret' }], 3)).toBe('[{content:s,role:s}]');
    expect(valueShape(null)).toBe('-');
  });

  it('lists observations as a tree with their roles, and keeps the ones a parent cycle cuts off', () => {
    const trace: TraceRecord = {
      id: 't',
      name: 'rag',
      timestamp: '2026-01-01T00:00:00.000Z',
      environment: 'default',
      input: 'q?',
      output: 'a.',
      metadata: null,
      tags: [],
      observations: [
        o('a', null),
        o('c', 'a', { type: 'GENERATION', input: [{ role: 'user', content: 'q?' }], output: 'a.' }),
        o('b', 'a', {
          type: 'RETRIEVER',
          output: ['secret doc'],
          metadata: { attributes: '{"db.system":"pgvector"}', scope: '{}' },
        }),
        o('x', 'y'),
        o('y', 'x'),
      ],
    };
    const report = extractReport(trace, extractRagSample(trace));
    expect(report.observations.slice(0, 3).map((r) => [r.id, r.depth])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 1],
    ]);
    expect(report.observations.map((r) => r.id).sort()).toEqual(['a', 'b', 'c', 'x', 'y']);
    expect(report.observations.find((r) => r.id === 'b')).toMatchObject({
      roles: ['retrieval', 'gave contexts'],
      output: '[s]',
      metadata: ['attributes.db.system'],
    });
    expect(report.observations.find((r) => r.id === 'c')?.roles).toEqual(['generation']);
    expect(JSON.stringify(report.observations)).not.toContain('secret');
  });
});
