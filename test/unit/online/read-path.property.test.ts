import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractRagSample } from '../../../src/extract/index.js';
import { connectLangfuse } from '../../../src/langfuse/index.js';
import { ONLINE_JOB, runOnlineTick } from '../../../src/online/job.js';
import type { OnlineJobDeps, OnlineSettings } from '../../../src/online/job.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { openSqliteState } from '../../../src/state/index.js';
import { createOpenApiValidator } from '../../helpers/openapi.js';
import { FIXTURES } from '../extract/load-fixture.js';
import { fakeScorer, identityAnonymizer, testSettings } from './fakes.js';
import { scriptedFetch, type RecordedRequest } from '../langfuse/fake-fetch.js';
import { parseConfig } from '../../helpers/config.js';

/**
 * Property: whatever the Langfuse read path is answered with, an answer that breaks the OpenAPI spec in a
 * part ragwatch reads (or answers for another trace) never moves the cursor past a window it could not list
 * and never makes the trace it concerns final (done, skipped or dead). The server is scripted: valid
 * answers built from recorded traces, one of them replaced by a mutation drawn by fast-check, and the
 * mutation is checked against the spec itself (test/helpers/openapi.ts) so it really breaks it.
 */

const NOW = Date.parse('2025-03-03T12:00:00Z');
const STAMP = '2025-03-03T11:20:00.000Z';
const RAG_IDS = ['rag-1', 'rag-2', 'rag-3'];
const NOISE = 100;
const spec = createOpenApiValidator();

type Json = Record<string, unknown>;
type Generation = 'v3' | 'v4';
type Target = 'list-page-1' | 'list-page-2' | 'trace' | 'ingestion';

const v3Fixture = JSON.parse(readFileSync(`${FIXTURES}langchain-python-lcel.v3.json`, 'utf8')) as Json;
const v4Fixture = JSON.parse(readFileSync(`${FIXTURES}haystack-chat-generator.v2.json`, 'utf8')) as { data: Json[] };

function v3Trace(id: string): Json {
  const observations = (v3Fixture.observations as Json[]).map((o) => ({ ...o, traceId: id }));
  return {
    ...v3Fixture,
    id,
    timestamp: STAMP,
    name: 'rag',
    htmlPath: `/project/p/traces/${id}`,
    scores: [],
    observations,
  };
}

function v3Listed(id: string, name: string): Json {
  const { observations: _o, scores: _s, ...trace } = v3Trace(id);
  return { ...trace, name, observations: [], scores: [] };
}

function v4Rows(id: string, name: string): Json[] {
  return v4Fixture.data.map((row) => ({
    ...row,
    id: `${id}-${String(row.id)}`,
    traceId: id,
    traceName: name,
    parentObservationId: row.parentObservationId ? `${id}-${String(row.parentObservationId)}` : null,
    startTime: STAMP,
  }));
}

function v4Root(id: string, name: string): Json {
  return v4Rows(id, name)[0]!;
}

const noise = Array.from({ length: NOISE }, (_, i) => `noise-${String(i).padStart(3, '0')}`);

/** The valid answer to a request, and which target it is. */
function answer(
  generation: Generation,
  req: RecordedRequest,
): { target: Target | null; traceId?: string; status: number; body: unknown } {
  const path = req.url.pathname;
  const q = req.url.searchParams;
  if (path === '/api/public/ingestion') {
    const batch = (req.body as { batch: Array<{ id: string }> }).batch;
    return {
      target: 'ingestion',
      status: 207,
      body: { successes: batch.map((e) => ({ id: e.id, status: 201 })), errors: [] },
    };
  }
  if (path === '/api/public/v2/scores' || path === '/api/public/v3/scores') {
    // The read-back after the run: every score asked for is there (not a target of this property).
    const ids = (q.get('scoreIds') ?? q.get('id') ?? '').split(',').filter(Boolean);
    const core = { projectId: 'p', name: 'ragas-faithfulness', value: 0.5, dataType: 'NUMERIC', source: 'API' };
    const times = { timestamp: STAMP, createdAt: STAMP, updatedAt: STAMP, environment: 'default' };
    const v3 = { authorUserId: null, comment: null, metadata: {}, configId: null, queueId: null, traceId: 't' };
    const data = ids.map((id) => ({ id, ...core, ...times, ...(generation === 'v3' ? v3 : {}) }));
    const meta = generation === 'v3' ? { page: 1, limit: 100, totalItems: ids.length, totalPages: 1 } : { limit: 100 };
    return { target: null, status: 200, body: { data, meta } };
  }
  if (generation === 'v3') {
    if (path === '/api/public/traces') {
      const page = Number(q.get('page'));
      const data = page === 1 ? noise.map((id) => v3Listed(id, 'noise')) : RAG_IDS.map((id) => v3Listed(id, 'rag'));
      return {
        target: page === 1 ? 'list-page-1' : 'list-page-2',
        status: 200,
        body: { data, meta: { page, limit: 100, totalItems: NOISE + RAG_IDS.length, totalPages: 2 } },
      };
    }
    const id = decodeURIComponent(path.split('/').at(-1)!);
    return { target: 'trace', traceId: id, status: 200, body: v3Trace(id) };
  }
  const traceId = q.get('traceId');
  if (traceId) return { target: 'trace', traceId, status: 200, body: { data: v4Rows(traceId, 'rag'), meta: {} } };
  const second = q.get('cursor') === 'page-2';
  const data = second ? RAG_IDS.map((id) => v4Root(id, 'rag')) : noise.map((id) => v4Root(id, 'noise'));
  return {
    target: second ? 'list-page-2' : 'list-page-1',
    status: 200,
    body: { data, meta: second ? { cursor: null } : { cursor: 'page-2' } },
  };
}

// ── mutations ────────────────────────────────────────────────────────────────

const nonObject = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.string(),
  fc.array(fc.integer(), { maxLength: 3 }),
);
const nonArray = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.string(),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);
const nonString = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);
const nonInteger = fc.oneof(
  fc.constant(null),
  fc.string(),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  fc.array(fc.integer(), { maxLength: 2 }),
);
const badDate = fc.oneof(
  nonString,
  fc.string().filter((s) => Number.isNaN(Date.parse(s))),
);
const anotherId = fc.string({ minLength: 1, maxLength: 12 }).map((s) => `other-${s}`);

type Mutate = (body: Json) => unknown;
const clone = (body: unknown): Json => structuredClone(body) as Json;
/** A mutation that prints what it does in a counterexample. */
const labelled = (label: string, fn: Mutate): Mutate => Object.assign(fn, { [fc.toStringMethod]: () => label });
const set = (path: (string | number)[], value: unknown): Mutate =>
  labelled(`set ${path.join('.')} = ${fc.stringify(value)}`, (body) => {
    const out = clone(body);
    let at: Json = out;
    for (const key of path.slice(0, -1)) at = at[key as string] as Json;
    at[path.at(-1) as string] = value;
    return out;
  });
const drop = (path: (string | number)[]): Mutate =>
  labelled(`drop ${path.join('.')}`, (body) => {
    const out = clone(body);
    let at: Json = out;
    for (const key of path.slice(0, -1)) at = at[key as string] as Json;
    delete at[path.at(-1) as string];
    return out;
  });
const whole = (value: unknown): Mutate => labelled(`answer ${fc.stringify(value)}`, () => value);

/** v4 observation fields are nullable where the v3 trace's are not: null only breaks the spec in v3. */
const nullableIn = (generation: Generation, values: fc.Arbitrary<unknown>) =>
  generation === 'v4' ? values.filter((v) => v !== null) : values;

/** Mutations that break the spec in a field ragwatch reads, for each kind of answer. */
function specBreaks(generation: Generation, target: Target): fc.Arbitrary<Mutate> {
  const row = fc.nat(2);
  if (target === 'ingestion') {
    return fc.oneof(
      nonObject.map(whole),
      fc.constantFrom('successes', 'errors').map((k) => drop([k])),
      fc.tuple(fc.constantFrom('successes', 'errors'), nonArray).map(([k, v]) => set([k], v)),
      nonObject.filter((v) => v !== null).map((v) => set(['successes', 0], v)),
      nonString.map((v) => set(['successes', 0, 'id'], v)),
      nonInteger.map((v) => set(['successes', 0, 'status'], v)),
    );
  }
  if (target === 'trace' && generation === 'v3') {
    return fc.oneof(
      nonObject.map(whole),
      fc.constantFrom('id', 'observations').map((k) => drop([k])),
      nonString.map((v) => set(['id'], v)),
      badDate.map((v) => set(['timestamp'], v)),
      nonArray.map((v) => set(['observations'], v)),
      fc
        .tuple(
          row,
          nonObject.filter((v) => v !== null),
        )
        .map(([i, v]) => set(['observations', i], v)),
      fc.tuple(row, nonString).map(([i, v]) => set(['observations', i, 'id'], v)),
      fc.tuple(row, badDate).map(([i, v]) => set(['observations', i, 'startTime'], v)),
      fc.tuple(row, nonString).map(([i, v]) => set(['observations', i, 'type'], v)),
      nonArray.map((v) => set(['tags'], v)),
      nonString.map((v) => set(['environment'], v)),
      nonString.filter((v) => v !== null).map((v) => set(['name'], v)),
    );
  }
  const timestamp = generation === 'v3' ? 'timestamp' : 'startTime';
  const pageBreaks = [
    nonObject.map(whole),
    fc.constantFrom('data', 'meta').map((k) => drop([k])),
    nonArray.map((v) => set(['data'], v)),
    nonObject.map((v) => set(['meta'], v)),
    fc
      .tuple(
        row,
        nonObject.filter((v) => v !== null),
      )
      .map(([i, v]) => set(['data', i], v)),
    fc.tuple(row, nonString).map(([i, v]) => set(['data', i, 'id'], v)),
    fc.tuple(row, badDate).map(([i, v]) => set(['data', i, timestamp], v)),
    fc
      .tuple(
        row,
        fc.oneof(
          nullableIn(generation, nonArray),
          fc.array(
            nonString.filter((v) => v !== null),
            { minLength: 1, maxLength: 2 },
          ),
        ),
      )
      .map(([i, v]) => set(['data', i, 'tags'], v)),
    fc.tuple(row, nullableIn(generation, nonString)).map(([i, v]) => set(['data', i, 'environment'], v)),
    fc
      .tuple(
        row,
        nonString.filter((v) => v !== null),
      )
      .map(([i, v]) => set(['data', i, 'name'], v)),
  ];
  if (generation === 'v3')
    pageBreaks.push(
      fc
        .tuple(fc.constantFrom('page', 'limit', 'totalItems', 'totalPages'), nonInteger)
        .map(([k, v]) => set(['meta', k], v)),
    );
  else {
    pageBreaks.push(fc.tuple(row, nonString).map(([i, v]) => set(['data', i, 'type'], v)));
    pageBreaks.push(
      fc.tuple(row, fc.oneof(fc.integer(), fc.string())).map(([i, v]) => set(['data', i, 'isRootObservation'], v)),
    );
    pageBreaks.push(
      fc
        .tuple(
          row,
          nonString.filter((v) => v !== null),
        )
        .map(([i, v]) => set(['data', i, 'traceName'], v)),
    );
  }
  if (generation === 'v4')
    pageBreaks.push(
      fc
        .oneof(
          fc.integer(),
          fc.boolean(),
          fc.array(fc.string(), { maxLength: 1 }),
          fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 1 }),
        )
        .map((v) => set(['meta', 'cursor'], v)),
    );
  return fc.oneof(...pageBreaks);
}

/** Answers that fit the spec but belong to another trace than the one asked for. */
function foreignAnswers(generation: Generation): fc.Arbitrary<Mutate> {
  if (generation === 'v3') {
    return fc.oneof(
      anotherId.map((id) => set(['id'], id)),
      fc.tuple(fc.nat(2), anotherId).map(([i, id]) => set(['observations', i, 'traceId'], id)),
    );
  }
  return fc.tuple(fc.nat(2), anotherId).map(([i, id]) => set(['data', i, 'traceId'], id));
}

interface Case {
  generation: Generation;
  target: Target;
  victim: string;
  mutate: Mutate;
  foreign: boolean;
}

const cases: fc.Arbitrary<Case> = fc
  .record({
    generation: fc.constantFrom<Generation>('v3', 'v4'),
    target: fc.constantFrom<Target>('list-page-1', 'list-page-2', 'trace', 'trace', 'ingestion'),
    victim: fc.constantFrom(...RAG_IDS),
    foreign: fc.boolean(),
  })
  .chain(({ generation, target, victim, foreign }) => {
    const byForeign = foreign && target === 'trace';
    return (byForeign ? foreignAnswers(generation) : specBreaks(generation, target)).map((mutate) => ({
      generation,
      target,
      victim,
      mutate,
      foreign: byForeign,
    }));
  });

function settings(): OnlineSettings {
  return testSettings({
    sampling: { rate: 0, salt: 'ragwatch-sampling-v1', rateByTraceName: { rag: 1 } },
    maxAttempts: 3,
    concurrency: 2,
  });
}

async function runCase(c: Case): Promise<void> {
  const specViolations: string[] = [];
  const { fetch } = scriptedFetch((req) => {
    const valid = answer(c.generation, req);
    const hit = valid.target === c.target && (c.target !== 'trace' || valid.traceId === c.victim);
    if (!hit) return { status: valid.status, body: valid.body };
    const text = JSON.stringify(c.mutate(valid.body as Json));
    // what goes over the wire is what must break the spec
    const wire = JSON.parse(text) as unknown;
    if (!c.foreign)
      specViolations.push(
        ...spec.validate({
          method: req.method,
          path: req.url.pathname,
          requestBody: req.body,
          status: valid.status,
          responseBody: wire,
        }),
      );
    return { status: valid.status, text };
  });
  const config = parseConfig({
    langfuse: {
      baseUrl: 'http://127.0.0.1:1',
      publicKey: 'pk',
      secretKey: 'sk',
      apiGeneration: c.generation,
      maxAttempts: 2,
    },
  });
  const langfuse = await connectLangfuse(config, { fetch, sleep: async () => {}, writeOptions: { maxRounds: 1 } });
  const state = openSqliteState({ path: ':memory:' });
  try {
    const deps: OnlineJobDeps = {
      langfuse,
      extract: (trace) => extractRagSample(trace, undefined),
      anonymizer: identityAnonymizer,
      score: fakeScorer(),
      metrics: ['faithfulness', 'answer_relevancy'],
      judgeModel: 'judge',
      scorePrefix: 'ragas-',
      configIds: new Map(),
      state,
      clock: { now: () => NOW },
      logger: silentLogger(),
      holder: { id: 'h:1:test', host: 'h', pid: 1 },
    };
    const report = await runOnlineTick(deps, settings());
    if (!c.foreign) expect(specViolations.length, 'the mutated answer breaks the spec').toBeGreaterThan(0);
    const final = ['done', 'skipped', 'dead'];
    if (c.target.startsWith('list')) {
      expect(report.outcome).not.toBe('success');
      expect(await state.getCursor(ONLINE_JOB)).toBe(Date.parse(report.window!.from));
      for (const id of RAG_IDS) expect(final).not.toContain((await state.getEntry(id))?.status);
      return;
    }
    const concerned = c.target === 'ingestion' ? RAG_IDS : [c.victim];
    for (const id of concerned) {
      const entry = await state.getEntry(id);
      expect(entry, id).not.toBeNull();
      expect(final, `${id} ${entry!.status} ${entry!.lastError}`).not.toContain(entry!.status);
    }
  } finally {
    await state.close();
  }
}

describe('the Langfuse read path under answers that break the spec', () => {
  it('takes valid answers to the end: every trace scored, the cursor moved', async () => {
    for (const generation of ['v3', 'v4'] as const) {
      const violations: string[] = [];
      const { fetch, requests } = scriptedFetch((req) => {
        const valid = answer(generation, req);
        violations.push(
          ...spec.validate({
            method: req.method,
            path: req.url.pathname,
            requestBody: req.body,
            status: valid.status,
            responseBody: valid.body,
          }),
        );
        return { status: valid.status, body: valid.body };
      });
      const config = parseConfig({
        langfuse: { baseUrl: 'http://127.0.0.1:1', publicKey: 'pk', secretKey: 'sk', apiGeneration: generation },
      });
      const langfuse = await connectLangfuse(config, { fetch });
      const state = openSqliteState({ path: ':memory:' });
      const report = await runOnlineTick(
        {
          langfuse,
          extract: (t) => extractRagSample(t, undefined),
          anonymizer: identityAnonymizer,
          score: fakeScorer(),
          metrics: ['faithfulness'],
          judgeModel: 'j',
          scorePrefix: 'ragas-',
          configIds: new Map(),
          state,
          clock: { now: () => NOW },
          logger: silentLogger(),
          holder: { id: 'h', host: 'h', pid: 1 },
        },
        settings(),
      );
      expect(report, generation).toMatchObject({
        outcome: 'success',
        listed: NOISE + RAG_IDS.length,
        evaluated: RAG_IDS.length,
      });
      expect(await state.getCursor(ONLINE_JOB)).toBe(NOW - 10 * 60_000);
      expect(requests.length).toBeGreaterThan(4);
      expect(violations, generation).toEqual([]);
      await state.close();
    }
  });

  it('never moves the cursor past an unlisted window and never makes a trace final', async () => {
    await fc.assert(fc.asyncProperty(cases, runCase), { numRuns: 300 });
  }, 120_000);
});
