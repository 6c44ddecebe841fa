/**
 * bench/online: the online job's throughput and cost.
 *
 *   npx tsx bench/online.ts [--traces 2000] [--window 100000]
 *
 * The Langfuse and judge stand-ins run in a child process, so this process's CPU time is ragwatch's own
 * (judge and Langfuse work excluded). Prints, in one run:
 *  - evaluated traces per second against the ideal set by the judge's capacity (parallelism / service time,
 *    divided by the judge requests one trace needs), judge at 20 ms service time and parallelism 32;
 *  - ragwatch CPU time per evaluated trace and per listed trace;
 *  - Langfuse requests per 1000 listed traces (v3 traces API and v4 observations API);
 *  - peak RSS while a 100k-trace window is listed, next to a 10k window (memory flat in window size).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config/load.js';
import { goldenItems, chunkById } from '../src/devkit/corpus/index.js';
import { startJudgeServer } from '../src/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '../src/devkit/langfuse/index.js';
import { runOnlineTick } from '../src/online/job.js';
import { createOnlineRuntime } from '../src/online/runtime.js';
import { silentLogger } from '../src/service/logger.js';
import { openSqliteState } from '../src/state/index.js';

type Personality = 'v3' | 'v4';
const SERVICE_TIME_MS = 20;
const PARALLELISM = 32;
const MIN = 60_000;

type ToChild = { type: 'seed-rag'; count: number; end: number } | { type: 'seed-bulk'; count: number; end: number; windowMs: number } | { type: 'cpu' } | { type: 'close' };
type FromChild = { type: 'ready'; langfuse: { url: string; publicKey: string; secretKey: string }; judge: { url: string; model: string; embeddingModel: string } } | { type: 'done'; cpuMs: number };

// ---------------------------------------------------------------- stand-ins (child process)

async function standIns(personality: Personality): Promise<void> {
  const lf = await startLangfuseServer({ personality, host: '127.0.0.1', port: 0 });
  // The schema-driven fallback answers every judge request: the bench measures ragwatch, not lexical rules.
  const judge = await startJudgeServer({ host: '127.0.0.1', port: 0, serviceTimeMs: SERVICE_TIME_MS, parallelism: PARALLELISM, builtinRules: false, recordLimit: 100 });
  const send = (m: FromChild) => process.send!(m);
  process.on('message', async (m: ToChild) => {
    if (m.type === 'seed-rag') seedRag(lf, m.count, m.end);
    if (m.type === 'seed-bulk') seedBulk(lf, m.count, m.end, m.windowMs);
    if (m.type === 'close') {
      await Promise.all([lf.close(), judge.close()]);
      process.exit(0);
    }
    const cpu = process.cpuUsage();
    send({ type: 'done', cpuMs: (cpu.user + cpu.system) / 1000 });
  });
  send({ type: 'ready', langfuse: { url: lf.url, publicKey: lf.publicKey, secretKey: lf.secretKey }, judge: { url: judge.url, model: judge.model, embeddingModel: judge.embeddingModel } });
}

/** RAG traces built from the demo golden set: question, retrieved chunks, an answer drawn from them. */
function seedRag(lf: LangfuseServer, count: number, end: number): void {
  const items = goldenItems().filter((i) => i.sources.length > 0);
  for (let i = 0; i < count; i++) {
    const item = items[i % items.length]!;
    const id = `rag${String(i).padStart(29, '0')}`;
    const at = end - Math.floor(((i + 1) * 40 * MIN) / (count + 1));
    const contexts = item.sources.map((s) => chunkById(s).text);
    const question = `${item.question} (#${i})`;
    lf.store.upsertTrace({ id, timestamp: at, name: 'support-rag', input: question, output: item.reference, environment: 'production' });
    lf.store.upsertObservation({ id: `${id}-r`, traceId: id, type: 'SPAN', name: 'support-rag', startTime: at, endTime: at + 2000, input: question, output: item.reference });
    lf.store.upsertObservation({ id: `${id}-k`, traceId: id, type: 'RETRIEVER', name: 'kb', parentObservationId: `${id}-r`, startTime: at + 10, endTime: at + 200, input: question, output: contexts.map((pageContent) => ({ pageContent })) });
    lf.store.upsertObservation({ id: `${id}-g`, traceId: id, type: 'GENERATION', name: 'answer', parentObservationId: `${id}-r`, startTime: at + 300, endTime: at + 1900, input: [{ role: 'user', content: question }], output: { role: 'assistant', content: item.reference } });
  }
}

/** Bare traces for the listing measurement (a root span each, so both API generations list them). */
function seedBulk(lf: LangfuseServer, count: number, end: number, windowMs: number): void {
  for (let i = 0; i < count; i++) {
    const id = `bulk${String(i).padStart(28, '0')}`;
    const at = end - Math.floor(((i + 1) * windowMs) / (count + 1));
    lf.store.upsertTrace({ id, timestamp: at, name: 'support-rag', input: 'q', output: 'a', environment: 'production' });
    lf.store.upsertObservation({ id: `${id}-r`, traceId: id, type: 'SPAN', name: 'support-rag', startTime: at, endTime: at + 1000 });
  }
}

// ---------------------------------------------------------------- driver (this process)

interface Child {
  proc: ChildProcess;
  ready: Extract<FromChild, { type: 'ready' }>;
  /** Sends a command; resolves with the child's CPU time so far (ms). */
  ask(m: ToChild): Promise<number>;
  close(): Promise<void>;
}

async function startChild(personality: Personality): Promise<Child> {
  const proc = fork(fileURLToPath(import.meta.url), ['--stand-ins', personality], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<Extract<FromChild, { type: 'ready' }>>((resolve) => proc.once('message', (m: FromChild) => m.type === 'ready' && resolve(m)));
  return {
    proc,
    ready,
    ask: (m) =>
      new Promise<number>((resolve) => {
        proc.once('message', (r: FromChild) => resolve(r.type === 'done' ? r.cpuMs : 0));
        proc.send(m);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.send({ type: 'close' } satisfies ToChild);
      }),
  };
}

function configFor(child: Child, extra: Record<string, Record<string, unknown>>) {
  const base: Record<string, Record<string, unknown>> = {
    langfuse: { baseUrl: child.ready.langfuse.url, publicKey: child.ready.langfuse.publicKey, secretKey: child.ready.langfuse.secretKey },
    judge: { baseUrl: child.ready.judge.url, model: child.ready.judge.model, concurrency: PARALLELISM },
    embeddings: { model: child.ready.judge.embeddingModel },
    log: { level: 'silent' },
  };
  for (const [k, v] of Object.entries(extra)) base[k] = { ...(base[k] ?? {}), ...v };
  return parseConfig(base);
}

async function throughput(traces: number) {
  const child = await startChild('v3');
  const now = Date.now();
  await child.ask({ type: 'seed-rag', count: traces, end: now - 11 * MIN });
  let judgeRequests = 0;
  const config = configFor(child, {
    sampling: { rate: 1, maxPerTick: traces, maxPerHour: traces },
    online: { concurrency: PARALLELISM * 2 },
  });
  const state = openSqliteState({ path: ':memory:' });
  const runtime = await createOnlineRuntime(config, { logger: silentLogger(), state, onJudgeRequest: () => void (judgeRequests += 1) });
  const childCpu0 = await child.ask({ type: 'cpu' });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const report = await runOnlineTick(runtime.deps, runtime.settings);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const standInCpuMs = (await child.ask({ type: 'cpu' })) - childCpu0;
  await state.close();
  await child.close();
  const perTrace = judgeRequests / Math.max(1, report.evaluated);
  const idealPerSecond = PARALLELISM / (SERVICE_TIME_MS / 1000) / perTrace;
  return { report, seconds, cpuMs: (cpu.user + cpu.system) / 1000, standInCpuMs, judgeRequests, perTrace, idealPerSecond };
}

async function listing(personality: Personality, windowTraces: number) {
  const child = await startChild(personality);
  const now = Date.now();
  await child.ask({ type: 'seed-bulk', count: windowTraces, end: now - 11 * MIN, windowMs: 50 * MIN });
  let langfuseRequests = 0;
  const config = configFor(child, { sampling: { rate: 0 } });
  const state = openSqliteState({ path: ':memory:' });
  const runtime = await createOnlineRuntime(config, { logger: silentLogger(), state, onLangfuseRequest: () => void (langfuseRequests += 1) });
  langfuseRequests = 0;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const cpu0 = process.cpuUsage();
  const report = await runOnlineTick(runtime.deps, runtime.settings);
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await state.close();
  await child.close();
  return { listed: report.listed, cpuMs: (cpu.user + cpu.system) / 1000, langfuseRequests, rssBeforeMb: rssBefore / 2 ** 20, peakMb: peak / 2 ** 20 };
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main() {
  const traces = arg('--traces', 2000);
  const windowTraces = arg('--window', 100_000);
  const fmt = (n: number, d = 2) => n.toFixed(d);
  console.log(`bench/online — judge stand-in: ${SERVICE_TIME_MS} ms service time, parallelism ${PARALLELISM}; ragwatch judge.concurrency ${PARALLELISM}, online.concurrency ${PARALLELISM * 2}`);

  const t = await throughput(traces);
  const rate = t.report.evaluated / t.seconds;
  console.log('\nthroughput (v3, every listed trace sampled)');
  console.log(`  evaluated traces        ${t.report.evaluated} of ${traces} in ${fmt(t.seconds)} s (outcome ${t.report.outcome})`);
  console.log(`  judge requests / trace  ${fmt(t.perTrace)}`);
  console.log(`  evaluated traces / s    ${fmt(rate, 1)}   ideal ${fmt(t.idealPerSecond, 1)} (judge capacity ${PARALLELISM / (SERVICE_TIME_MS / 1000)} req/s)   → ${fmt((100 * rate) / t.idealPerSecond, 1)} % of capacity (target ≥ 90 %)`);
  console.log(`  ragwatch CPU / evaluated trace  ${fmt(t.cpuMs / Math.max(1, t.report.evaluated))} ms (target < 5 ms; judge and Langfuse work excluded)`);
  console.log(`  stand-ins' CPU / evaluated trace  ${fmt(t.standInCpuMs / Math.max(1, t.report.evaluated))} ms (the other process: Langfuse and judge stand-ins)`);

  console.log('\nlisting (nothing sampled)');
  for (const personality of ['v3', 'v4'] as const) {
    for (const size of [windowTraces / 10, windowTraces]) {
      const l = await listing(personality, size);
      console.log(
        `  ${personality} window ${String(l.listed).padStart(6)} traces: CPU ${fmt((1000 * l.cpuMs) / Math.max(1, l.listed), 1)} µs / listed trace, ` +
          `${fmt((1000 * l.langfuseRequests) / Math.max(1, l.listed), 1)} Langfuse requests / 1000 listed, peak RSS ${fmt(l.peakMb, 0)} MB (before ${fmt(l.rssBeforeMb, 0)} MB, +${fmt(l.peakMb - l.rssBeforeMb, 0)} MB)`,
      );
    }
  }
}

if (process.argv[2] === '--stand-ins') await standIns((process.argv[3] ?? 'v3') as Personality);
else await main();
