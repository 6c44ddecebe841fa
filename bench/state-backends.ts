/**
 * bench/state-backends: what the state store costs per evaluated trace, SQLite beside PostgreSQL, in one run.
 *
 *   npx tsx bench/state-backends.ts [--traces 2000] [--runs 3] [--url postgres://postgres@127.0.0.1:5432/test]
 *
 * The online tick runs in this process against an in-memory Langfuse and judge (the job tests' fakes: no
 * HTTP, no judge work), so what differs between the two columns is the state store alone. Each run is a fresh
 * state (an SQLite file in a temporary directory; a PostgreSQL schema of its own, dropped after) and one tick
 * over `--traces` traces, every one sampled and evaluated. Prints per evaluated trace, median over the runs:
 *  - statements sent to the store (SQLite: prepared statements run; PostgreSQL: round trips, BEGIN and
 *    COMMIT included), and how many of them each store method takes (from one more run that attributes
 *    each statement to its method with AsyncLocalStorage, kept out of the CPU figures);
 *  - ragwatch's CPU ms (this process: the tick, the fakes and the driver; PostgreSQL's server CPU is the
 *    server's, not counted) and the wall ms at `online.concurrency` 8.
 * Needs a PostgreSQL server (RAGWATCH_TEST_PG_URL or --url); without one it says so and exits 1.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import pg from 'pg';
import { runOnlineTick } from '../src/online/job.js';
import { openSqliteState, type StateStore } from '../src/state/index.js';
import { openPostgresState } from '../src/state/postgres/open.js';
import { FakeLangfuse, jobDeps, ManualClock, testSettings, type FakeTrace } from '../test/unit/online/fakes.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const TRACES = Number(arg('traces', '2000'));
const RUNS = Number(arg('runs', '3'));
const URL = arg('url', process.env.RAGWATCH_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const NOW = Date.parse('2026-03-02T12:00:00Z');
const MIN = 60_000;

interface Measured {
  evaluated: number;
  statements: number;
  cpuMs: number;
  wallMs: number;
  perMethod: Record<string, number>;
}

/** The store method a statement is sent for (set by `perMethod`), and the counts by method. */
const method = new AsyncLocalStorage<string>();
let byMethod: Record<string, number> = {};
const attribute = () => {
  const name = method.getStore();
  if (name) byMethod[name] = (byMethod[name] ?? 0) + 1;
};

/** Counts the statements an SQLite connection runs (every prepared statement's run, get, all, iterate). */
function countSqlite(counter: { n: number }) {
  return (db: Database) => {
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      const stmt = prepare(sql) as Statement;
      for (const m of ['run', 'get', 'all', 'iterate'] as const) {
        const original = (stmt[m] as (...a: unknown[]) => unknown).bind(stmt);
        (stmt as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
          counter.n += 1;
          attribute();
          return original(...a);
        };
      }
      return stmt;
    }) as Database['prepare'];
  };
}

/** Runs each store method under its name, so the statements it sends are counted against it. */
function perMethod(store: StateStore): StateStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) =>
        method.run(prop, () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

function traces(): FakeTrace[] {
  return Array.from({ length: TRACES }, (_, i) => ({
    id: `trace-${String(i).padStart(6, '0')}`,
    name: 'rag-query',
    timestamp: NOW - 70 * MIN + Math.floor((i * 55 * MIN) / TRACES),
    rag: true,
  }));
}

/** One tick; with `split`, each statement is counted against the store method that sent it. */
async function tick(state: StateStore, counter: () => number, split: boolean): Promise<Measured> {
  byMethod = {};
  const store = split ? perMethod(state) : state;
  const deps = jobDeps(new FakeLangfuse(traces()), new ManualClock(NOW), { state: store });
  const settings = testSettings({
    sampling: { rate: 1, salt: 's', rateByTraceName: {} },
    caps: { maxPerTick: 1e6, maxPerHour: 1e6 },
    concurrency: 8,
  });
  const before = counter();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const report = await runOnlineTick(deps, settings);
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  if (report.evaluated !== TRACES)
    throw new Error(`expected ${TRACES} evaluated, got ${report.evaluated} (${report.outcome})`);
  const statements = counter() - before;
  return {
    evaluated: report.evaluated,
    statements,
    cpuMs: (used.user + used.system) / 1000,
    wallMs,
    perMethod: byMethod,
  };
}

async function sqliteRun(split = false): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-bench-state-'));
  const counter = { n: 0 };
  const state = openSqliteState({ path: join(dir, 'state.db'), configure: countSqlite(counter) });
  try {
    return await tick(state, () => counter.n, split);
  } finally {
    await state.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresRun(run: number, split = false): Promise<Measured> {
  const schema = `rw_bench_${process.pid}_${run}`;
  const state = await openPostgresState({ url: URL, schema, poolSize: 8 });
  try {
    state.db.onRoundTrip = attribute;
    return await tick(state, () => state.db.roundTrips, split);
  } finally {
    await state.close();
    const admin = new pg.Client({ connectionString: URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const probe = new pg.Client({ connectionString: URL, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
    await probe.end();
  } catch (err) {
    console.error(
      `state-backends: no PostgreSQL at ${URL.replace(/:[^:@/]*@/, ':***@')} (${(err as Error).message}); ` +
        'set --url or RAGWATCH_TEST_PG_URL',
    );
    process.exit(1);
  }
  const results: Record<'sqlite' | 'postgres', Measured[]> = { sqlite: [], postgres: [] };
  // One run of each that splits the statements by method (and warms up), then the runs interleaved so drift
  // on a shared machine hits both columns alike.
  const split = { sqlite: await sqliteRun(true), postgres: await postgresRun(0, true) };
  for (let i = 1; i <= RUNS; i++) {
    results.sqlite.push(await sqliteRun());
    results.postgres.push(await postgresRun(i));
  }
  const row = (label: string, f: (m: Measured) => number, digits = 2) =>
    label.padEnd(44) +
    median(results.sqlite.map(f)).toFixed(digits).padStart(10) +
    median(results.postgres.map(f)).toFixed(digits).padStart(12);
  const per = (m: Measured, v: number) => v / m.evaluated;
  console.log(`state-backends: ${TRACES} traces per tick, all sampled and evaluated; median of ${RUNS} runs`);
  console.log(`${''.padEnd(44)}${'sqlite'.padStart(10)}${'postgres'.padStart(12)}`);
  console.log(row('statements (round trips) per evaluated trace', (m) => per(m, m.statements)));
  console.log(row('ragwatch CPU ms per evaluated trace', (m) => per(m, m.cpuMs), 3));
  console.log(row('wall ms per evaluated trace (concurrency 8)', (m) => per(m, m.wallMs), 3));
  console.log('per evaluated trace, by method (statements):');
  const methods = new Set([...Object.keys(split.sqlite.perMethod), ...Object.keys(split.postgres.perMethod)]);
  for (const method of [...methods].sort()) {
    const [a, b] = [split.sqlite, split.postgres].map((m) => per(m, m.perMethod[method] ?? 0));
    if (a! >= 0.01 || b! >= 0.01)
      console.log(`${`  ${method}`.padEnd(44)}${a!.toFixed(2).padStart(10)}${b!.toFixed(2).padStart(12)}`);
  }
  const tickLevel = (m: Measured) =>
    Object.entries(m.perMethod)
      .filter(([, n]) => n / m.evaluated < 0.01)
      .reduce((n, [, v]) => n + v, 0);
  const [a, b] = [split.sqlite, split.postgres].map((m) => String(tickLevel(m)));
  console.log(`${'  once per tick (lease, cursor, job run, ...)'.padEnd(44)}${a!.padStart(10)}${b!.padStart(12)}`);
  const ratio =
    median(results.postgres.map((m) => per(m, m.cpuMs))) / median(results.sqlite.map((m) => per(m, m.cpuMs)));
  console.log(`PostgreSQL / SQLite ragwatch CPU per trace: ${ratio.toFixed(2)}x`);
}

await main();
