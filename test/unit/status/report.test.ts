import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatStatus, jobCatalogue } from '../../../src/commands/status.js';
import { SCHEMA_VERSION } from '../../../src/state/migrations.js';
import { recordLangfuseApi } from '../../../src/state/queries/langfuse-api.js';
import { openStateReadOnly, type ReadOnlyState } from '../../../src/state/queries/read-only.js';
import {
  buildStatusReport,
  jobState,
  type StatusOptions,
  type StatusReport,
} from '../../../src/state/queries/status-report.js';
import type { StateStore } from '../../../src/state/types.js';
import { HOUR, MIN, seedTrace, tempState } from './helpers.js';
import { parseConfig } from '../../helpers/config.js';

const NOW = Date.parse('2025-06-07T15:32:10Z');
const HOLDER = { id: 'worker-1:4242:abcd1234', host: 'worker-1', pid: 4242 };

let tmp: ReturnType<typeof tempState>;
let store: StateStore;
let ro: ReadOnlyState | null = null;

beforeEach(() => {
  tmp = tempState();
  store = tmp.open();
});
afterEach(async () => {
  ro?.close();
  ro = null;
  await store.close();
  tmp.cleanup();
});

function options(config = parseConfig({}), overrides: Partial<StatusOptions> = {}): StatusOptions {
  return {
    path: tmp.path,
    now: NOW,
    days: 7,
    basis: 'sampled',
    timezone: config.timezone,
    jobs: jobCatalogue(config),
    langfuseSetting: config.langfuse.apiGeneration,
    ...overrides,
  };
}

function report(config = parseConfig({}), overrides: Partial<StatusOptions> = {}): StatusReport {
  ro?.close();
  ro = openStateReadOnly(tmp.path);
  return buildStatusReport(ro, options(config, overrides));
}

const job = (r: StatusReport, name: string) => r.jobs.find((j) => j.name === name);

describe('job state', () => {
  const run = (start: number | null, finish: number | null, success: number | null = finish) => ({
    job: 'online',
    lastStartAt: start,
    lastFinishAt: finish,
    lastSuccessAt: success,
    lastOutcome: finish ? 'success' : null,
  });
  const lease = (expiresAt: number) => ({
    name: 'online-tick',
    holder: HOLDER.id,
    host: HOLDER.host,
    pid: HOLDER.pid,
    acquiredAt: NOW - MIN,
    expiresAt,
  });

  it('tells never run, idle, running, stuck and interrupted apart', () => {
    expect(jobState(null, null, true, HOUR, NOW)).toEqual({ state: 'never_run', runningSeconds: null });
    expect(jobState(run(NOW - 5 * MIN, NOW - 4 * MIN), null, true, HOUR, NOW)).toEqual({
      state: 'idle',
      runningSeconds: null,
    });
    // a run that finished in the same millisecond it started is over
    expect(jobState(run(NOW - MIN, NOW - MIN), null, true, HOUR, NOW).state).toBe('idle');
    expect(jobState(run(NOW - 2 * MIN, NOW - 10 * MIN), lease(NOW + 3 * MIN), true, HOUR, NOW)).toEqual({
      state: 'running',
      runningSeconds: 120,
    });
    expect(jobState(run(NOW - 2 * HOUR, null), lease(NOW + 3 * MIN), true, HOUR, NOW)).toEqual({
      state: 'stuck',
      runningSeconds: 7200,
    });
    expect(jobState(run(NOW - 20 * MIN, NOW - 30 * MIN), lease(NOW - 15 * MIN), true, HOUR, NOW)).toEqual({
      state: 'interrupted',
      runningSeconds: 1200,
    });
    expect(jobState(run(NOW - 20 * MIN, null), null, true, HOUR, NOW).state).toBe('interrupted');
    // jobs without a lease cannot be told dead from alive: running until the stuck limit
    expect(jobState(run(NOW - 20 * MIN, null), null, false, HOUR, NOW).state).toBe('running');
    expect(jobState(run(NOW - 2 * HOUR, null), null, false, HOUR, NOW).state).toBe('stuck');
  });
});

describe('the status report', () => {
  it('shows next runs from the schedules in the configured time zone, even before anything ran', async () => {
    const config = parseConfig({
      timezone: 'Europe/Madrid',
      online: { schedule: '*/10 * * * *' },
      experiment: { enabled: true, schedule: '0 3 * * 1', target: { url: 'http://rag:8080/ask' } },
      http: { reportsPublic: true },
    });
    const r = report(config);
    expect(job(r, 'online')).toMatchObject({
      enabled: true,
      schedule: '*/10 * * * *',
      nextRunAt: '2025-06-07T15:40:00.000Z',
      intervalSeconds: 600,
      state: 'never_run',
      stale: false,
      lastStartAt: null,
    });
    // Monday 2025-06-09 03:00 in Madrid (CEST)
    expect(job(r, 'experiment')).toMatchObject({
      enabled: true,
      nextRunAt: '2025-06-09T01:00:00.000Z',
      intervalSeconds: 7 * 24 * 3600,
    });
    expect(r.jobs.map((j) => j.name)).toEqual(['online', 'experiment']);
    expect(r.timezone).toBe('Europe/Madrid');
  });

  it('has no next run for a disabled job, and names a schedule node-cron would refuse', () => {
    // The schema refuses such a schedule (exit 2); a configuration built in code can still carry one.
    const base = parseConfig({ online: { enabled: false } });
    const r = report({ ...base, online: { ...base.online, schedule: 'every 5 minutes' } });
    expect(job(r, 'online')).toMatchObject({
      enabled: false,
      nextRunAt: null,
      scheduleError: expect.stringMatching(/invalid cron expression/),
    });
    expect(job(r, 'experiment')).toMatchObject({ enabled: false, nextRunAt: null, intervalSeconds: 7 * 24 * 3600 });
  });

  it('reports a tick in progress with its lease, and a stale job after three intervals without success', async () => {
    await store.recordJobStart('online', NOW - 20 * MIN);
    await store.recordJobFinish('online', 'incomplete', false, NOW - 19 * MIN);
    await store.recordJobStart('online', NOW - 90 * 1000);
    await store.acquireLease('online-tick', HOLDER, 300_000, NOW - 90 * 1000);
    const r = report();
    expect(job(r, 'online')).toMatchObject({
      state: 'running',
      runningSeconds: 90,
      lastOutcome: 'incomplete',
      lastSuccessAt: null,
      stale: true,
      lease: {
        holder: HOLDER.id,
        host: 'worker-1',
        pid: 4242,
        expiresAt: new Date(NOW - 90_000 + 300_000).toISOString(),
      },
    });
    await store.recordJobFinish('online', 'success', true, NOW - 60 * 1000);
    expect(job(report(), 'online')).toMatchObject({
      state: 'idle',
      stale: false,
      lastOutcome: 'success',
      lastSuccessAt: new Date(NOW - 60_000).toISOString(),
    });
    expect(job(report(parseConfig({}), { now: NOW + 16 * MIN }), 'online')).toMatchObject({ stale: true });
  });

  it('lists hand-run jobs such as backfills once they have run', async () => {
    expect(report().jobs.map((j) => j.name)).toEqual(['online', 'experiment']);
    await store.recordJobStart('backfill', NOW - HOUR);
    await store.recordJobFinish('backfill', 'success', true, NOW - HOUR + MIN);
    await store.recordJobStart('custom-job', NOW - MIN);
    const r = report();
    expect(r.jobs.map((j) => j.name)).toEqual(['online', 'experiment', 'backfill', 'custom-job']);
    expect(job(r, 'backfill')).toMatchObject({ schedule: null, nextRunAt: null, state: 'idle', stale: false });
    expect(job(r, 'custom-job')).toMatchObject({ state: 'running' });
  });

  it('carries the ledger, the dead traces, cursors, gauges and the recorded API generation in a stable JSON shape', async () => {
    await seedTrace(store, 'a', { status: 'done' }, { sampledAt: NOW - HOUR });
    await seedTrace(store, 'b', { status: 'skipped', reason: 'not_rag_no_contexts' }, { sampledAt: NOW - 25 * HOUR });
    await seedTrace(
      store,
      'c',
      { status: 'dead', error: 'metric:faithfulness:http_500', attempts: 5 },
      { sampledAt: NOW - 2 * HOUR, settledAt: NOW - HOUR },
    );
    await store.setCursor('online', NOW - 20 * MIN, NOW - 5 * MIN);
    await store.setGauges({ rag_faithfulness_score: 0.8, rag_answer_relevancy_score: 0.65 }, NOW);
    await recordLangfuseApi(store, 'v3', 'auto', NOW - 2 * HOUR);
    const r = report(parseConfig({}), { days: 2 });
    expect(Object.keys(r)).toEqual([
      'version',
      'generatedAt',
      'state',
      'days',
      'totals',
      'skipsByTraceName',
      'dead',
      'failing',
      'daemon',
      'jobs',
      'timezone',
      'cursors',
      'langfuse',
      'gauges',
    ]);
    expect(r.version).toBe(1);
    // No daemon has recorded itself in this state: the schedules are the configuration's.
    expect(r.daemon).toBeNull();
    expect(r.generatedAt).toBe('2025-06-07T15:32:10.000Z');
    expect(r.state).toEqual({ path: tmp.path, exists: true, schemaVersion: SCHEMA_VERSION });
    expect(r.days).toEqual({
      basis: 'sampled',
      from: '2025-06-06',
      to: '2025-06-07',
      rows: [
        {
          day: '2025-06-06',
          sampled: 1,
          pending: 0,
          done: 0,
          skipped: 1,
          failed: 0,
          dead: 0,
          skippedByReason: { not_rag_no_contexts: 1 },
        },
        { day: '2025-06-07', sampled: 2, pending: 0, done: 1, skipped: 0, failed: 0, dead: 1, skippedByReason: {} },
      ],
    });
    expect(r.totals).toMatchObject({
      entries: 3,
      done: 1,
      skipped: 1,
      dead: 1,
      deadByError: { 'metric:faithfulness:http_500': 1 },
    });
    expect(r.skipsByTraceName).toEqual({
      basis: 'sampled',
      rows: [{ traceName: 'rag-answer', sampled: 3, skipped: 1, skippedByReason: { not_rag_no_contexts: 1 } }],
      others: null,
    });
    expect(r.dead).toEqual({
      count: 1,
      shown: [
        {
          traceId: 'c',
          attempts: 5,
          lastError: 'metric:faithfulness:http_500',
          diedAt: '2025-06-07T14:32:10.000Z',
          traceTimestamp: '2025-06-07T13:22:10.000Z',
        },
      ],
    });
    expect(r.cursors).toEqual([
      { job: 'online', position: '2025-06-07T15:12:10.000Z', updatedAt: '2025-06-07T15:27:10.000Z', lagSeconds: 1200 },
    ]);
    expect(r.langfuse).toEqual({
      configured: 'auto',
      apiGeneration: 'v3',
      source: 'detected',
      recordedAt: '2025-06-07T13:32:10.000Z',
    });
    expect(r.gauges).toEqual({ rag_answer_relevancy_score: 0.65, rag_faithfulness_score: 0.8 });
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it('has the same shape, zeros and nulls, without a state file', () => {
    const r = buildStatusReport(null, options(parseConfig({}), { path: '/nowhere/state.db', days: 3 }));
    expect(r.state).toEqual({ path: '/nowhere/state.db', exists: false, schemaVersion: null });
    expect(r.days.rows.map((d) => d.sampled)).toEqual([0, 0, 0]);
    expect(r.totals.entries).toBe(0);
    expect(r.dead).toEqual({ count: 0, shown: [] });
    expect(r.langfuse).toEqual({ configured: 'auto', apiGeneration: null, source: null, recordedAt: null });
    expect(job(r, 'online')?.nextRunAt).toBe('2025-06-07T15:35:00.000Z');
  });
});

describe('the human rendering', () => {
  /** Column start offsets of a table's header line, for alignment checks. */
  function columnStarts(line: string): number[] {
    return [...line.matchAll(/(?:^|\s{2,})(\S)/g)].map((m) => m.index! + m[0].length - 1);
  }

  it('prints aligned tables: ledger by day, skip reasons, totals, dead traces, jobs', async () => {
    await seedTrace(store, 'trace-aaaa', { status: 'done' }, { sampledAt: NOW - HOUR });
    await seedTrace(store, 'trace-bbbb', { status: 'skipped', reason: 'pii_residual' }, { sampledAt: NOW - HOUR });
    await seedTrace(
      store,
      'trace-cccc',
      { status: 'dead', error: 'judge:timeout', attempts: 5 },
      { sampledAt: NOW - 30 * HOUR, settledAt: NOW - 3 * HOUR },
    );
    await store.recordJobStart('online', NOW - 3 * MIN);
    await store.recordJobFinish('online', 'success', true, NOW - 2 * MIN);
    await recordLangfuseApi(store, 'v4', 'auto', NOW - HOUR);
    const text = formatStatus(report(parseConfig({}), { days: 3 }), NOW);
    const lines = text.split('\n');
    expect(text).toContain(`state: ${tmp.path} (schema ${SCHEMA_VERSION})`);
    expect(text).toContain('langfuse api: v4, detected 2025-06-07 14:32:10Z (1h ago) (langfuse.apiGeneration: auto)');

    const header = lines.findIndex((l) => l.startsWith('day ') && l.includes('sampled'));
    expect(lines[header]).toMatch(/^day\s+sampled\s+pending\s+done\s+skipped\s+failed\s+dead$/);
    const dayRows = lines.slice(header + 1, header + 5);
    expect(dayRows.map((l) => l.split(/\s+/))).toEqual([
      ['2025-06-05', '0', '0', '0', '0', '0', '0'],
      ['2025-06-06', '1', '0', '0', '0', '0', '1'],
      ['2025-06-07', '2', '0', '1', '1', '0', '0'],
      ['3', 'days', '3', '0', '1', '1', '0', '1'],
    ]);
    // numbers right-aligned under their headers
    for (const row of dayRows) expect(row.length).toBe(lines[header]!.length);

    expect(text).toMatch(/\nskipped by reason\nday\s+reason\s+skipped\n2025-06-07\s+pii_residual\s+1\n/);
    expect(text).toMatch(/ledger now, all days: 3 entries/);
    expect(text).toMatch(/\ndead\s+1\s+judge:timeout 1\n/);
    expect(text).toMatch(
      /dead traces, most recent first \(1 of 1\); ragwatch retry-dead re-queues them\ntrace id\s+attempts\s+last error\s+dead since\ntrace-cccc\s+5\s+judge:timeout\s+2025-06-07 12:32:10Z \(3h ago\)/,
    );

    const jobsHeader = lines.findIndex((l) => l.startsWith('job '));
    const starts = columnStarts(lines[jobsHeader]!);
    const online = lines[jobsHeader + 1]!;
    expect(online.startsWith('online')).toBe(true);
    for (const [i, start] of starts.entries()) if (i > 0) expect(online[start - 1], `column ${i}`).toBe(' ');
    expect(online).toContain('*/5 * * * *');
    expect(online).toContain('idle');
    expect(online).toContain('2025-06-07 15:30:10Z (2m ago)');
    expect(online).toContain('2025-06-07 15:35:00Z (in 2m)');
    expect(lines[jobsHeader + 2]).toMatch(/^experiment\s+0 3 \* \* 1\s+disabled/);
    expect(text).not.toMatch(/undefined|NaN|null/);
  });

  it('says there are no runs yet when the state file does not exist, and still shows the schedule', () => {
    const text = formatStatus(
      buildStatusReport(null, options(parseConfig({}), { path: '/srv/ragwatch/state.db' })),
      NOW,
    );
    expect(text.split('\n')[0]).toBe(
      'no runs yet: /srv/ragwatch/state.db does not exist (ragwatch run or ragwatch sample creates it)',
    );
    expect(text).toMatch(/online\s+\*\/5 \* \* \* \*\s+never run/);
    expect(text).not.toContain('ledger now');
  });

  it('flags a stuck tick and a stale job loudly', async () => {
    await store.recordJobStart('online', NOW - 3 * HOUR);
    await store.acquireLease('online-tick', HOLDER, 24 * 3_600_000, NOW - 3 * HOUR);
    const text = formatStatus(report(), NOW);
    expect(text).toContain('STUCK: running 3h (pid 4242 on worker-1)');
  });
});
