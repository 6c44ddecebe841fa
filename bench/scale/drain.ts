/**
 * The catch-up drain of bench/scale: a backlog of traces behind a 24 h outage, drained by N replicas of the real
 * daemon. Measured at the judge stand-in between its first grant and the moment the ledger holds every sampled
 * trace settled: the share of its slots in service, the drain time and the judge-bound ideal (the service time it
 * drew ÷ its slots).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decide } from '../../src/online/sampler.js';
import { openSqliteState } from '../../src/state/index.js';
import { openPostgresState } from '../../src/state/postgres/open.js';
import type { StateStore } from '../../src/state/types.js';
import { occupancyOf, type Occupancy } from './occupancy.js';
import { startReplica, type StandIns } from './procs.js';
import type { Snapshot } from './stand-ins.js';

const HOUR_MS = 3_600_000;
const SETTLE_S = 600;

export interface DrainSpec {
  replicas: number;
  /** Traces in the 24 h before the settle delay (1 M a day, scaled down by the bench's `--fraction`). */
  traces: number;
  rate: number;
  /** judge.concurrency of each replica. */
  judgeConcurrency: number;
  /**
   * `bench`: online.concurrency 2 × judge.concurrency and the sampling caps off; `defaults`: ragwatch's defaults
   * for everything but judge.concurrency.
   */
  settings: 'bench' | 'defaults';
  /** Opens the state the replicas share, fresh; `config` is its `state` section. */
  /** Prints the judge's occupancy and the ledger every second while the drain goes. */
  trace?: (line: string) => void;
  state: { label: string; config: Record<string, unknown>; open(): Promise<StateStore>; dispose(): Promise<void> };
}

export interface DrainResult {
  sampled: number;
  seconds: number;
  idealSeconds: number;
  /** Time-weighted share of the judge's slots in service, over the whole drain and its steady part. */
  occupancy: Occupancy;
  judgeRequests: number;
  replicaCpuMs: number[];
  standInCpuMs: number;
  langfusePer1000: number;
}

export function sqliteState(): DrainSpec['state'] {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-bench-scale-'));
  const path = join(dir, 'ragwatch.db');
  return {
    label: 'SQLite',
    config: { path },
    open: async () => openSqliteState({ path }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh schema on the PostgreSQL server at RAGWATCH_BENCH_PG_URL (default: the test server), dropped after. */
export function postgresState(): DrainSpec['state'] {
  const url = process.env.RAGWATCH_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `rw_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  return {
    label: 'PostgreSQL',
    config: { url, schema },
    open: () => openPostgresState({ url, schema }),
    dispose: async () => {
      const admin = await openPostgresState({ url, schema });
      await admin.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.close();
    },
  };
}

const TRACE_ID = (i: number) => `rag${String(i).padStart(29, '0')}`;

export async function drain(standIns: StandIns, spec: DrainSpec): Promise<DrainResult> {
  const now = Date.now();
  const to = now - SETTLE_S * 1000 - 60_000;
  await standIns.ask({ type: 'seed-backlog', count: spec.traces, from: to - 24 * HOUR_MS, to });
  const policy = { rate: spec.rate, salt: 'ragwatch-sampling-v1', rateByTraceName: {} };
  let sampled = 0;
  for (let i = 0; i < spec.traces; i++) if (decide(policy, TRACE_ID(i), 'support-rag').sampled) sampled += 1;
  const { langfuse, judge } = standIns.ready;
  const bench = spec.settings === 'bench';
  const config = {
    langfuse: { baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey },
    judge: { baseUrl: judge.url, model: judge.model, concurrency: spec.judgeConcurrency },
    embeddings: { model: judge.embeddingModel },
    // The caps are an operator's budget, not a pace: off in the bench settings, so the drain shows what ragwatch
    // itself allows; the defaults (5,000 an hour) hold this backlog whole.
    sampling: bench ? { rate: spec.rate, maxPerTick: 1_000_000, maxPerHour: 10_000_000 } : { rate: spec.rate },
    online: {
      schedule: '*/2 * * * * *',
      settleDelaySeconds: SETTLE_S,
      initialLookbackSeconds: 25 * 3600,
      ...(bench ? { concurrency: 2 * spec.judgeConcurrency } : {}),
    },
    experiment: { enabled: false },
    state: spec.state.config,
    http: { host: '127.0.0.1', port: 0 },
    log: { level: 'silent' },
  };
  const state = await spec.state.open();
  const before = await standIns.ask({ type: 'snapshot' });
  const replicas = await Promise.all(Array.from({ length: spec.replicas }, () => startReplica(config)));
  let start: Snapshot = before;
  while (start.granted === before.granted) {
    await sleep(50);
    start = await standIns.ask({ type: 'snapshot' });
  }
  let last = start;
  const samples: Snapshot[] = [start];
  for (;;) {
    const counts = await state.countByStatus();
    if (counts.done + counts.skipped + counts.dead >= sampled) break;
    await sleep(50);
    const now = await standIns.ask({ type: 'snapshot' });
    if (now.atMs - samples[samples.length - 1]!.atMs >= 250) samples.push(now);
    if (spec.trace) {
      if (now.atMs - last.atMs >= 1000) {
        const span = now.atMs - last.atMs;
        spec.trace(
          `  t+${((now.atMs - start.atMs) / 1000).toFixed(1)} s: ${(((now.inServiceMs - last.inServiceMs) / span / now.parallelism) * 100).toFixed(0)} % in service, ${((now.inFlightMs - last.inFlightMs) / span).toFixed(1)} in flight, ${now.granted - last.granted} granted; ledger ${JSON.stringify(counts)}`,
        );
        last = now;
      }
    }
  }
  const end = await standIns.ask({ type: 'snapshot' });
  samples.push(end);
  const stopped = await Promise.all(replicas.map((r) => r.stop()));
  await state.close();
  await spec.state.dispose();
  const spanMs = end.atMs - start.atMs;
  const slots = end.parallelism;
  return {
    sampled,
    seconds: spanMs / 1000,
    idealSeconds: (end.serviceDrawnMs - start.serviceDrawnMs) / slots / 1000,
    occupancy: occupancyOf(samples),
    judgeRequests: end.granted - before.granted,
    replicaCpuMs: stopped.map((s) => s.cpuMs),
    standInCpuMs: end.cpuMs - before.cpuMs,
    langfusePer1000: (1000 * (end.langfuseRequests - before.langfuseRequests)) / spec.traces,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
