import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LangfuseApiError } from '../../../src/langfuse/core/http.js';
import {
  ingestionStatusesFrom,
  scoreConfigPageFrom,
  v3TraceFrom,
  v3TracePageFrom,
  v4PageFrom,
} from '../../../src/langfuse/core/shapes.js';
import { FIXTURES, fixtureFiles } from '../extract/load-fixture.js';

const meta = { page: 1, limit: 100, totalItems: 1, totalPages: 1 };
const listed = { id: 't-1', timestamp: '2025-03-01T10:30:00.000Z', name: 'qa', environment: 'default', tags: [] };
const row = {
  id: 'o-1',
  traceId: 't-1',
  startTime: '2025-03-01T10:30:00.000Z',
  type: 'SPAN',
  parentObservationId: null,
};

function protocolDetail(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LangfuseApiError);
    expect(err).toMatchObject({ kind: 'protocol', retryable: true });
    return (err as Error).message;
  }
  throw new Error('expected a protocol error');
}

describe('Langfuse answer shapes', () => {
  it('accepts every recorded trace of the fixtures (v3 bodies and v2 observation pages) as it is', () => {
    const files = fixtureFiles();
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const body = JSON.parse(readFileSync(FIXTURES + file, 'utf8')) as Record<string, unknown>;
      if (file.endsWith('.v2.json')) {
        const traceId = String((body.data as Array<{ traceId: string }>)[0]!.traceId);
        expect(() => v4PageFrom(body, 'r', 200, traceId), file).not.toThrow();
      } else {
        expect(() => v3TraceFrom(body, String(body.id), 'r', 200), file).not.toThrow();
      }
    }
  });

  it('takes pages with unknown fields, nullable fields left null and v4 field groups left out', () => {
    expect(v3TracePageFrom({ data: [{ ...listed, name: null, extra: { any: 1 } }], meta }, 'r').data).toHaveLength(1);
    expect(v3TracePageFrom({ data: [{ id: 't', timestamp: '2025-03-01T10:30:00Z' }], meta }, 'r').data).toHaveLength(1);
    expect(
      v4PageFrom({ data: [{ id: 'o', traceId: null, startTime: '2025-03-01T10:30:00Z' }], meta: {} }, 'r').meta,
    ).toEqual({});
    expect(v4PageFrom({ data: [], meta: { cursor: null } }, 'r').data).toEqual([]);
    expect(
      ingestionStatusesFrom(
        { successes: [{ id: 'e', status: 201 }], errors: [{ id: 'f', status: 400, message: null, error: { x: 1 } }] },
        'r',
      ).errors,
    ).toHaveLength(1);
    expect(
      scoreConfigPageFrom(
        { data: [{ id: 'c', name: 'ragas-faithfulness', dataType: 'NUMERIC', isArchived: false }], meta },
        'r',
      ).data,
    ).toHaveLength(1);
  });

  it.each<[string, () => unknown, RegExp]>([
    ['a string for data', () => v3TracePageFrom({ data: 'x', meta }, 'GET /api/public/traces'), /data: expected array/],
    ['null', () => v3TracePageFrom(null, 'GET /api/public/traces'), /body: expected object/],
    ['no meta', () => v3TracePageFrom({ data: [] }, 'GET /api/public/traces'), /meta: expected object/],
    [
      'a page number as text',
      () => v3TracePageFrom({ data: [], meta: { ...meta, totalPages: '2' } }, 'r'),
      /meta\.totalPages: expected number/,
    ],
    [
      'a row without id',
      () => v3TracePageFrom({ data: [{ timestamp: listed.timestamp }], meta }, 'r'),
      /data\.0\.id: expected string/,
    ],
    [
      'an unreadable timestamp',
      () => v3TracePageFrom({ data: [{ ...listed, timestamp: 'yesterday' }], meta }, 'r'),
      /data\.0\.timestamp: expected a date-time/,
    ],
    [
      'tags that are not strings',
      () => v3TracePageFrom({ data: [{ ...listed, tags: [1] }], meta }, 'r'),
      /data\.0\.tags\.0: expected string/,
    ],
    [
      'a cursor of the wrong type',
      () => v4PageFrom({ data: [row], meta: { cursor: 5 } }, 'r'),
      /meta\.cursor: expected string/,
    ],
    ['rows that are not objects', () => v4PageFrom({ data: ['o-1'], meta: {} }, 'r'), /data\.0: expected object/],
    [
      'another trace by id (v3)',
      () => v3TraceFrom({ ...listed, id: 't-2', observations: [] }, 't-1', 'r'),
      /another trace/,
    ],
    ['an object that is no trace', () => v3TraceFrom({ hello: 'world' }, 't-1', 'r'), /id: expected string/],
    [
      'observations that are not a list',
      () => v3TraceFrom({ ...listed, observations: {} }, 't-1', 'r'),
      /observations: expected array/,
    ],
    [
      'an observation of another trace',
      () => v3TraceFrom({ ...listed, observations: [{ ...row, traceId: 't-9' }] }, 't-1', 'r'),
      /observations\.0\.traceId: another trace/,
    ],
    [
      'v4 rows of another trace',
      () => v4PageFrom({ data: [row, { ...row, traceId: 't-9' }], meta: {} }, 'r', 200, 't-1'),
      /data\.1\.traceId: another trace/,
    ],
    ['a 207 without successes', () => ingestionStatusesFrom({ errors: [] }, 'r'), /successes: expected array/],
    [
      'a 207 with statuses as text',
      () => ingestionStatusesFrom({ successes: [{ id: 'e', status: '201' }], errors: [] }, 'r'),
      /successes\.0\.status: expected number/,
    ],
    ['score configs that are not a page', () => scoreConfigPageFrom({ data: {} }, 'r'), /data: expected array/],
  ])('rejects %s as a protocol error naming the field', (_label, fn, expected) => {
    expect(protocolDetail(fn)).toMatch(expected);
  });

  it('checks what a read budget kept of a cut trace: late members may be missing, partial elements are left out', () => {
    // the budget was spent before `observations`, or in the middle of the last observation
    const noObservations = { ...listed, input: 'q', output: 'a […]' };
    expect(() => v3TraceFrom(noObservations, 't-1', 'r')).toThrow(/observations: expected array/);
    expect(v3TraceFrom(noObservations, 't-1', 'r', 200, { cut: true }).observations).toEqual([]);
    const partial = { ...listed, observations: [row, { id: 'o-2', traceId: 't-1' }] };
    expect(
      (v3TraceFrom(partial, 't-1', 'r', 200, { cut: true }).observations as unknown[]).map(
        (o) => (o as { id: string }).id,
      ),
    ).toEqual(['o-1']);
    expect(v4PageFrom({ data: [row, { id: 'o-2' }] }, 'r', 200, 't-1', { cut: true })).toEqual({
      data: [row],
      meta: {},
    });
    // what was kept must still be the trace asked for
    expect(() => v3TraceFrom({ ...partial, id: 't-2' }, 't-1', 'r', 200, { cut: true })).toThrow(/another trace/);
    expect(() => v4PageFrom({ data: [{ ...row, traceId: 't-9' }] }, 'r', 200, 't-1', { cut: true })).toThrow(
      /another trace/,
    );
    expect(() => v3TraceFrom(null, 't-1', 'r', 200, { cut: true })).toThrow(/expected object/);
  });

  it('never quotes a value from the answer in its message', () => {
    const secret = 'Lucía Etxeberria, DNI 12345678Z';
    const messages = [
      protocolDetail(() => v3TracePageFrom({ data: [{ ...listed, id: 7, name: 3, timestamp: secret }], meta }, 'r')),
      protocolDetail(() => v3TraceFrom({ ...listed, id: secret, observations: [] }, 't-1', 'r')),
      protocolDetail(() => v4PageFrom({ data: [{ ...row, startTime: secret }], meta: { cursor: { secret } } }, 'r')),
      protocolDetail(() => ingestionStatusesFrom({ successes: secret, errors: [] }, 'r')),
    ];
    for (const message of messages) {
      expect(message).not.toContain('Lucía');
      expect(message).not.toContain('12345678Z');
    }
  });
});
