/**
 * What checking Langfuse answers for the API's shape (src/langfuse/core/shapes.ts) costs beside what reading them
 * costs anyway: JSON.parse of the same body, measured side by side in one run. Pages as the online job gets
 * them: a v3 trace page (100 rows), a v4 observation page (1000 rows), a v3 trace with 40 observations of
 * 8 KB of IO each, a 207 for 100 events.
 */
import { performance } from 'node:perf_hooks';
import { ingestionStatusesFrom, v3TraceFrom, v3TracePageFrom, v4PageFrom } from '../src/langfuse/core/shapes.js';

const stamp = '2025-03-01T10:30:00.000Z';
const io = 'lorem ipsum dolor sit amet '.repeat(300);
const v3Row = (i: number) => ({
  id: `t-${i}`,
  timestamp: stamp,
  name: 'rag',
  environment: 'production',
  tags: ['a', 'b'],
  htmlPath: `/t/${i}`,
  observations: [],
  scores: [],
  public: false,
  sessionId: null,
  release: null,
  version: null,
  userId: null,
  metadata: { tenant: 'x' },
});
const v4Row = (i: number) => ({
  id: `o-${i}`,
  traceId: `t-${i}`,
  startTime: stamp,
  endTime: stamp,
  projectId: 'p',
  parentObservationId: null,
  type: 'SPAN',
  name: 'handler',
  traceName: 'rag',
  environment: 'production',
  tags: [],
  isRootObservation: true,
  level: 'DEFAULT',
});
const cases: Array<{ name: string; body: unknown; check: (body: unknown) => unknown }> = [
  {
    name: 'v3 trace page, 100 rows',
    body: {
      data: Array.from({ length: 100 }, (_, i) => v3Row(i)),
      meta: { page: 1, limit: 100, totalItems: 100, totalPages: 1 },
    },
    check: (b) => v3TracePageFrom(b, 'r'),
  },
  {
    name: 'v4 observation page, 1000 rows',
    body: { data: Array.from({ length: 1000 }, (_, i) => v4Row(i)), meta: { cursor: 'abc' } },
    check: (b) => v4PageFrom(b, 'r'),
  },
  {
    name: 'v3 trace, 40 observations x 8 KB IO',
    body: {
      ...v3Row(0),
      input: io,
      output: io,
      observations: Array.from({ length: 40 }, (_, i) => ({ ...v4Row(i), traceId: 't-0', input: io, output: io })),
    },
    check: (b) => v3TraceFrom(b, 't-0', 'r'),
  },
  {
    name: 'ingestion 207, 100 events',
    body: { successes: Array.from({ length: 100 }, (_, i) => ({ id: `e-${i}`, status: 201 })), errors: [] },
    check: (b) => ingestionStatusesFrom(b, 'r'),
  },
];

function timeIt(fn: () => void, rounds: number): number {
  for (let i = 0; i < Math.min(50, rounds); i++) fn();
  const start = performance.now();
  for (let i = 0; i < rounds; i++) fn();
  return ((performance.now() - start) / rounds) * 1000;
}

console.log('case                                   JSON.parse µs   shape check µs   check / parse');
for (const c of cases) {
  const text = JSON.stringify(c.body);
  const parsed = JSON.parse(text) as unknown;
  const rounds = text.length > 500_000 ? 200 : 2000;
  const parse = timeIt(() => JSON.parse(text), rounds);
  const check = timeIt(() => c.check(parsed), rounds);
  console.log(
    `${c.name.padEnd(38)} ${parse.toFixed(1).padStart(12)} ${check.toFixed(1).padStart(16)} ${(check / parse).toFixed(2).padStart(15)}`,
  );
}
