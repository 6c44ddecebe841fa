import { afterEach, describe, expect, it } from 'vitest';
import { noRetry, startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const BASE = Date.parse('2025-03-10T00:00:00.000Z');
const at = (minutes: number) => BASE + minutes * 60_000;

/** 12 traces one minute apart, each with a root span and a generation child. */
function seed(h: Harness): void {
  for (let i = 0; i < 12; i++) {
    const environment = i < 10 ? 'production' : 'staging';
    h.server.store.upsertTrace({
      id: `t${String(i).padStart(2, '0')}`,
      timestamp: at(i),
      name: i % 3 === 0 ? 'chat' : 'qa',
      userId: `u${i % 2}`,
      tags: i % 2 ? ['rag', 'prod'] : ['rag'],
      environment,
      input: { question: `q${i}` },
      metadata: { long: 'x'.repeat(300) },
    });
    h.server.store.upsertObservation({
      id: `t${i}-root`,
      traceId: `t${String(i).padStart(2, '0')}`,
      startTime: at(i),
      endTime: at(i) + 1000,
      name: 'root',
      input: `q${i}`,
      environment,
    });
    h.server.store.upsertObservation({
      id: `t${i}-gen`,
      traceId: `t${String(i).padStart(2, '0')}`,
      parentObservationId: `t${i}-root`,
      type: 'GENERATION',
      startTime: at(i) + 10,
      name: 'llm',
      model: 'm',
      environment,
      metadata: { long: 'y'.repeat(300), short: 'ok' },
    });
  }
}

describe('devkit Langfuse: read APIs', () => {
  it('v3 trace list pages, filters (from inclusive, to exclusive, tags all-of, environment any-of) and orders', async () => {
    harness = await startHarness({ personality: 'v3' });
    seed(harness);
    const page1 = await harness.client.api.trace.list({ limit: 5, page: 1 });
    expect(page1.data.map((t) => t.id)).toEqual(['t11', 't10', 't09', 't08', 't07']);
    expect(page1.meta).toEqual({ page: 1, limit: 5, totalItems: 12, totalPages: 3 });
    const page3 = await harness.client.api.trace.list({ limit: 5, page: 3 });
    expect(page3.data.map((t) => t.id)).toEqual(['t01', 't00']);

    const window = await harness.client.api.trace.list({
      fromTimestamp: new Date(at(2)).toISOString(),
      toTimestamp: new Date(at(6)).toISOString(),
      orderBy: 'timestamp.asc',
    });
    expect(window.data.map((t) => t.id)).toEqual(['t02', 't03', 't04', 't05']);

    const tagged = await harness.client.api.trace.list({ tags: ['rag', 'prod'], environment: ['staging'] });
    expect(tagged.data.map((t) => t.id)).toEqual(['t11']);
    const named = await harness.client.api.trace.list({ name: 'chat', userId: 'u1' });
    expect(named.data.map((t) => t.id)).toEqual(['t09', 't03']);

    const core = await harness.client.api.trace.list({ limit: 1, fields: 'core' });
    expect(core.data[0]).toMatchObject({ observations: [], scores: [], latency: -1, totalCost: -1 });
    expect(core.data[0]).not.toHaveProperty('input');
    const full = await harness.client.api.trace.list({ limit: 1 });
    expect(full.data[0]?.observations).toHaveLength(2);
    expect(full.data[0]?.input).toEqual({ question: 'q11' });

    await expect(harness.client.api.trace.list({ limit: 101 }, noRetry)).rejects.toMatchObject({ statusCode: 400 });
    expect(harness.violations).toEqual([]);
  });

  it('v2 observations walks a cursor to the end without gaps or repeats', async () => {
    harness = await startHarness({ personality: 'v4' });
    seed(harness);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await harness.client.api.observations.getMany({ limit: 5, ...(cursor ? { cursor } : {}) });
      seen.push(...page.data.map((o) => o.id));
      cursor = page.meta.cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(24);
    expect(new Set(seen).size).toBe(24);
    expect(seen.slice(0, 2)).toEqual(['t11-gen', 't11-root']);
    expect(harness.violations).toEqual([]);
  });

  it('v2 observations filters and field groups', async () => {
    harness = await startHarness({ personality: 'v4' });
    seed(harness);
    const roots = await harness.client.api.observations.getMany({
      isRootObservation: true,
      fromStartTime: new Date(at(3)).toISOString(),
      toStartTime: new Date(at(5)).toISOString(),
      environment: ['production'],
    });
    expect(roots.data.map((o) => o.id)).toEqual(['t4-root', 't3-root']);
    expect(roots.data[0]).toHaveProperty('name', 'root');
    expect(roots.data[0]).not.toHaveProperty('input');

    const gens = await harness.client.api.observations.getMany({
      type: 'GENERATION',
      traceId: 't05',
      fields: 'core,metadata',
      expandMetadata: 'short',
    });
    expect(gens.data).toHaveLength(1);
    expect(gens.data[0]).not.toHaveProperty('name');
    const metadata = gens.data[0]?.metadata as Record<string, string>;
    expect(metadata.long).toHaveLength(200);
    expect(metadata.short).toBe('ok');

    const io = await harness.client.api.observations.getMany({ traceId: 't05', name: 'root', fields: 'io' });
    expect(io.data[0]?.input).toBe('q5');

    const structured = await harness.client.api.observations.getMany({
      filter: JSON.stringify([
        { type: 'string', column: 'type', operator: '=', value: 'GENERATION' },
        { type: 'arrayOptions', column: 'traceTags', operator: 'all of', value: ['prod'] },
        { type: 'stringOptions', column: 'environment', operator: 'any of', value: ['staging'] },
      ]),
    });
    expect(structured.data.map((o) => o.id)).toEqual(['t11-gen']);

    await expect(harness.client.api.observations.getMany({ limit: 1001 }, noRetry)).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(harness.client.api.observations.getMany({ parseIoAsJson: true }, noRetry)).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(harness.client.api.observations.getMany({ cursor: 'not-a-cursor' }, noRetry)).rejects.toMatchObject({
      statusCode: 400,
    });
    expect(harness.violations).toEqual([]);
  });
});
