import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LangfuseClient } from '@langfuse/client';
import { stringify } from 'yaml';
import { GOLDEN_ITEMS, seedGoldenDataset } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { startToyRag, type ToyRag } from '@ragwatch/devkit/rag/index.js';
import {
  evaluateQualityRule,
  exportersPerRound,
  qualityRules,
  startScraper,
  type Round,
} from '../../helpers/alert-series.js';
import { adminQuery, dropSchema, requirePostgres, testSchema } from '../../helpers/postgres.js';
import { REPO_ROOT, runCli, spawnCli } from '../../helpers/run-cli.js';
import { startTcpProxy, throughProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { postgresUrl } from '../../tiers.js';

/** The test server (RAGWATCH_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/test). */
const TEST_PG_URL = postgresUrl();

/**
 * Chaos end to end: three real `ragwatch run` processes share one PostgreSQL schema (through a TCP proxy), the
 * Langfuse and judge stand-ins serve 2,000 traces at sample rate 1.0; one replica is SIGKILLed mid-tick and
 * started again, then every PostgreSQL connection is cut for 30 s. Each replica logs pino JSON to a file in the
 * test's directory (kept when the test fails, for diagnosing a stall). Meanwhile every replica's /metrics is
 * scraped once a second and the quality alerts of deploy/prometheus/alerts.yaml are evaluated over the scrapes,
 * as Prometheus would (their series must hold from the first scored trace to the end, or `for:` restarts), and a
 * weekly run (`experiment run`, a process of its own on the same schema) writes a report every replica must serve.
 */

const TRACES = 2000;
const CUT_MS = 30_000;
const MARK = /\(case Q(\d{4})\)/;
const traceId = (n: number) => `chaos${String(n).padStart(27, '0')}`;
const TOKEN = 'chaos-reports-token-0123456789';
const SECRET = 'chaos-reports-secret-0123456789abcdef0123456789';
const PUBLIC_URL = 'https://ragwatch.example';
const RUN = 'chaos-weekly';
const QUALITY_ALERTS = ['RAGFaithfulnessLow', 'RAGAnswerRelevancyLow'] as const;

interface Replica {
  name: string;
  port: number;
  child: ChildProcess;
  log: string;
  exited: Promise<void>;
}

let dir: string;
let schema: string;
let lf: LangfuseServer;
let judge: JudgeServer;
let proxy: TcpProxy;
let rag: ToyRag;
const replicas: Replica[] = [];
let failed = true;

beforeAll(async () => {
  await requirePostgres();
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-chaos-'));
  schema = testSchema('rw_chaos');
  lf = await startLangfuseServer({ personality: 'v4', host: '127.0.0.1', port: 0 });
  // 60 ms a request, 24 slots: the judge sets the pace (about 2,000 traces in a minute and a half, cut included).
  judge = await startJudgeServer({
    host: '127.0.0.1',
    port: 0,
    serviceTimeMs: 60,
    parallelism: 24,
    recordLimit: 100_000,
  });
  const pg = new URL(TEST_PG_URL);
  proxy = await startTcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
  plantTraces(lf, Date.now());
  // A small golden set for the weekly run, and the toy RAG it asks (no traces of its own: the item traces
  // ragwatch writes are in sdk-experiment, which the replicas leave out).
  await seedGoldenDataset(new LangfuseClient({ baseUrl: lf.url, publicKey: lf.publicKey, secretKey: lf.secretKey }), {
    items: [
      ...GOLDEN_ITEMS.filter((i) => i.type === 'single-hop').slice(0, 3),
      ...GOLDEN_ITEMS.filter((i) => i.type === 'adversarial').slice(0, 1),
    ],
  });
  rag = await startToyRag();
});

afterAll(async () => {
  for (const r of replicas) r.child.kill('SIGKILL');
  await Promise.all(replicas.map((r) => r.exited));
  await proxy?.close();
  await Promise.all([lf?.close(), judge?.close(), rag?.close()]);
  await dropSchema(schema);
  if (failed) console.log(`chaos test logs kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** RAG traces with a case number in the question, which the judge's request log carries back to the trace. */
function plantTraces(server: LangfuseServer, now: number): void {
  for (let n = 0; n < TRACES; n++) {
    const id = traceId(n);
    const at = now - 50 * 60_000 + n * 1000;
    const question = `How do I rotate the API key of workspace ${n}? (case Q${String(n).padStart(4, '0')})`;
    const answer = `Open Settings, then API keys, and press Rotate for workspace ${n}; the old key stops working after one hour.`;
    const contexts = [
      'API keys are rotated from Settings, API keys, with the Rotate button. The previous key keeps working for one hour.',
      'Each workspace has its own API keys; rotating one does not affect the other workspaces.',
    ];
    server.store.upsertTrace({
      id,
      timestamp: at,
      name: 'support-rag',
      input: question,
      output: answer,
      environment: 'production',
    });
    server.store.upsertObservation({
      id: `${id}-root`,
      traceId: id,
      type: 'SPAN',
      name: 'support-rag',
      startTime: at,
      endTime: at + 3000,
      input: question,
      output: answer,
      environment: 'production',
    });
    server.store.upsertObservation({
      id: `${id}-ret`,
      traceId: id,
      type: 'RETRIEVER',
      name: 'knowledge-base',
      parentObservationId: `${id}-root`,
      startTime: at + 100,
      endTime: at + 400,
      input: question,
      output: contexts.map((pageContent) => ({ pageContent, metadata: { source: 'kb' } })),
      environment: 'production',
    });
    server.store.upsertObservation({
      id: `${id}-gen`,
      traceId: id,
      type: 'GENERATION',
      name: 'answer',
      parentObservationId: `${id}-root`,
      startTime: at + 500,
      endTime: at + 2500,
      model: 'gpt-4o-mini',
      input: [{ role: 'user', content: question }],
      output: { role: 'assistant', content: answer },
      environment: 'production',
    });
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startReplica(name: string): Promise<Replica> {
  const port = await freePort();
  const config = join(dir, `${name}.yaml`);
  writeFileSync(
    config,
    stringify({
      langfuse: { baseUrl: lf.url, publicKey: lf.publicKey, secretKey: lf.secretKey },
      judge: { baseUrl: judge.url, model: judge.model, concurrency: 8 },
      embeddings: { model: judge.embeddingModel },
      // Runs of 50 traces at most: each ends and publishes the means and the ledger gauge the alerts read, as
      // the ticks of a fleet in its steady state do (one run over the whole backlog would publish them only at its end).
      sampling: { rate: 1.0, maxPerTick: 50, maxPerHour: 1_000_000 },
      // A tick every 2 s; claims and the lease last 60 s (renewed every 20 s), longer than the 30 s cut.
      online: {
        schedule: '*/2 * * * * *',
        settleDelaySeconds: 1,
        retryBackoffSeconds: 1,
        initialLookbackSeconds: 3600,
        concurrency: 8,
        leaseSeconds: 60,
      },
      state: { schema, statementTimeoutMs: 5000, connectTimeoutMs: 5000 },
      // Serving reports: the weekly job is on (its schedule far off), /reports/ behind the token and signed links.
      experiment: {
        enabled: true,
        schedule: '0 3 1 1 *',
        publicUrl: PUBLIC_URL,
        target: { url: rag.askUrl, response: { answer: 'answer', contexts: 'contexts' } },
      },
      http: { host: '127.0.0.1', port, reportsToken: TOKEN, reportsSigningSecret: SECRET },
      log: { level: 'info' },
    }),
  );
  const log = join(dir, `${name}-${replicas.length}.log`);
  const out = createWriteStream(log);
  const child = spawnCli(['run', '--config', config], {
    env: { RAGWATCH_STATE_URL: throughProxy(TEST_PG_URL, proxy) },
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const replica = { name, port, child, log, exited };
  replicas.push(replica);
  return replica;
}

async function readyz(r: Replica): Promise<number> {
  try {
    return (await fetch(`http://127.0.0.1:${r.port}/readyz`, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return 0;
  }
}

async function evaluatedBy(r: Replica): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${r.port}/metrics`)).text();
  return Number(/^ragwatch_traces_evaluated_total (\d+)/m.exec(text)?.[1] ?? 0);
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (logs in ${dir}): ${await diagnosis()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Where the shared state stands, for a timeout's message: ledger, live claims, leases, judge requests. */
async function diagnosis(): Promise<string> {
  try {
    const q = async (sql: string) => JSON.stringify((await adminQuery(sql.replaceAll('S.', `"${schema}".`))).rows);
    return [
      `ledger ${await q('SELECT status, COUNT(*)::int AS n, MIN(next_attempt_at) AS next FROM S.ledger GROUP BY status')}`,
      `claims ${await q('SELECT claimed_by, COUNT(*)::int AS n, MAX(claim_expires_at) AS until FROM S.ledger WHERE claimed_by IS NOT NULL GROUP BY claimed_by')}`,
      `errors ${await q('SELECT last_error, COUNT(*)::int AS n FROM S.ledger WHERE last_error IS NOT NULL GROUP BY last_error')}`,
      `leases ${await q('SELECT * FROM S.leases')}`,
      `sessions ${await q("SELECT pid, state, wait_event_type, wait_event, left(query, 60) AS query, (extract(epoch FROM now() - query_start))::int AS s FROM pg_stat_activity WHERE application_name = 'ragwatch' AND state <> 'idle'")}`,
      `now ${Date.now()}, judge ${JSON.stringify(judge.stats())}`,
      ...(await Promise.all(
        replicas
          .filter((r) => r.child.exitCode === null && r.child.signalCode === null)
          .map(async (r) => {
            try {
              const text = await (
                await fetch(`http://127.0.0.1:${r.port}/metrics`, { signal: AbortSignal.timeout(2000) })
              ).text();
              return `${r.name}(${r.child.pid}): ${text
                .split('\n')
                .filter((l) =>
                  /^ragwatch_(judge_requests_total|langfuse_requests_total|traces_(evaluated|failed)_total|job_running)/.test(
                    l,
                  ),
                )
                .join(' | ')}`;
            } catch (err) {
              return `${r.name}: no metrics (${String(err)})`;
            }
          }),
      )),
    ].join('; ');
  } catch (err) {
    return `no diagnosis: ${String(err)}`;
  }
}

/** The weekly run as a team starts it by hand: `experiment run` on the same schema (straight, not through the proxy). */
function weeklyRun() {
  const config = join(dir, 'weekly.yaml');
  writeFileSync(
    config,
    stringify({
      langfuse: { baseUrl: lf.url, publicKey: lf.publicKey, secretKey: lf.secretKey },
      judge: { baseUrl: judge.url, model: judge.model, timeoutMs: 60_000 },
      embeddings: { model: judge.embeddingModel },
      state: { schema },
      experiment: {
        reportsDir: join(dir, 'reports'),
        publicUrl: PUBLIC_URL,
        bootstrapSamples: 200,
        target: { url: rag.askUrl, response: { answer: 'answer', contexts: 'contexts' } },
      },
      log: { level: 'silent' },
    }),
  );
  return runCli(['--config', config, 'experiment', 'run', '--run-name', RUN], {
    env: { RAGWATCH_STATE_URL: TEST_PG_URL, RAGWATCH_REPORTS_TOKEN: TOKEN, RAGWATCH_REPORTS_SIGNING_SECRET: SECRET },
    timeoutMs: 240_000,
  });
}

/** The quality alerts over the scrape rounds: the rounds, from the first where a series exists, where it does not. */
function alertSeriesGaps(rounds: readonly Round[]) {
  const rules = qualityRules(readFileSync(join(REPO_ROOT, 'deploy/prometheus/alerts.yaml'), 'utf8'), QUALITY_ALERTS);
  return rules.map((rule) => {
    const values = rounds.map((r) => evaluateQualityRule(rounds, rule, r.at));
    const after = (first: number, holds: (i: number) => boolean) =>
      first < 0 ? [] : values.flatMap((_, i) => (i > first && !holds(i) ? [i] : []));
    const first = values.findIndex((v) => v.series);
    const firstFiring = values.findIndex((v) => v.firing);
    return {
      alert: rule.alert,
      first,
      gaps: after(first, (i) => values[i]!.series),
      firstFiring,
      firingGaps: after(firstFiring, (i) => values[i]!.firing),
      mean: values.at(-1)?.mean,
    };
  });
}

async function countsByStatus(): Promise<Record<string, number>> {
  try {
    const r = await adminQuery(`SELECT status, COUNT(*)::int AS n FROM "${schema}".ledger GROUP BY status`);
    return Object.fromEntries(r.rows.map((row: { status: string; n: number }) => [row.status, row.n]));
  } catch {
    return {};
  }
}

/** Faithfulness requests per trace: one per evaluation (the stand-in answers every request well). */
function evaluationsPerTrace(): Map<string, number> {
  const out = new Map<string, number>();
  for (const req of judge.requests) {
    if (req.path !== '/v1/chat/completions') continue;
    const body = JSON.stringify(req.body);
    if (!body.includes('ragwatch_faithfulness')) continue;
    const n = MARK.exec(body)?.[1];
    if (n === undefined) continue;
    const id = traceId(Number(n));
    out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}

describe('three replicas on PostgreSQL through a SIGKILL and a 30 s cut', () => {
  it('score every trace exactly once per metric, evaluate only the killed replica’s traces twice, and recover by themselves', async () => {
    const started = Date.now();
    const [a, b] = [await startReplica('a'), await startReplica('b')];
    let c = await startReplica('c');
    await until(
      'three ready replicas',
      async () => ((await Promise.all([a, b, c].map(readyz))).every((s) => s === 200) ? true : undefined),
      60_000,
    );
    // Prometheus: every replica scraped once a second, whichever replicas are up (c is replaced after its kill).
    const live = () => [a, b, c].map((r) => ({ name: `${r.name}#${r.child.pid}`, url: `http://127.0.0.1:${r.port}` }));
    const scraper = startScraper(live);
    const weekly = weeklyRun();

    // SIGKILL c while it has traces in flight, mid-tick; the traces it held are read from the ledger at once.
    const killed = await until(
      'c evaluating',
      async () => {
        const done = (await countsByStatus()).done ?? 0;
        if (done < 150) return undefined;
        const held = await adminQuery(
          `SELECT trace_id FROM "${schema}".ledger WHERE claimed_by LIKE $1 AND status IN ('pending', 'failed') AND last_attempt_at IS NOT NULL`,
          [`%:${c.child.pid}:%`],
        );
        if (held.rowCount === 0) return undefined;
        c.child.kill('SIGKILL');
        return c.child.pid!;
      },
      60_000,
    );
    await c.exited;
    const heldAtKill = new Set(
      (
        await adminQuery(
          `SELECT trace_id FROM "${schema}".ledger WHERE claimed_by LIKE $1 AND status IN ('pending', 'failed')`,
          [`%:${killed}:%`],
        )
      ).rows.map((row: { trace_id: string }) => row.trace_id),
    );
    expect(heldAtKill.size).toBeGreaterThan(0);
    c = await startReplica('c');

    // Cut every PostgreSQL connection for 30 s while the work goes on: every replica turns not ready. The cut comes
    // once the window is recorded: a listing it interrupted is listed again whole, which on a loaded 2-core machine
    // takes longer than this test may (one round trip per trace).
    await until('the restarted replica ready', async () => ((await readyz(c)) === 200 ? true : undefined), 60_000);
    await until(
      'every trace recorded',
      async () => (Object.values(await countsByStatus()).reduce((a, b) => a + b, 0) === TRACES ? true : undefined),
      60_000,
    );
    const doneAtCut = (await countsByStatus()).done ?? 0;
    expect(doneAtCut).toBeLessThan(TRACES);
    proxy.cut();
    const cutAt = Date.now();
    const cutRound = scraper.rounds.length;
    const notReady = new Set<string>();
    while (Date.now() - cutAt < CUT_MS) {
      for (const r of [a, b, c]) if ((await readyz(r)) === 503) notReady.add(r.name);
      await new Promise((r) => setTimeout(r, 250));
    }
    proxy.restore();
    expect([...notReady].sort()).toEqual(['a', 'b', 'c']);
    await until(
      'every replica ready again, by itself',
      async () => ((await Promise.all([a, b, c].map(readyz))).every((s) => s === 200) ? true : undefined),
      60_000,
    );

    const final = await until(
      'every trace settled',
      async () => {
        const counts = await countsByStatus();
        return (counts.done ?? 0) + (counts.skipped ?? 0) + (counts.dead ?? 0) === TRACES ? counts : undefined;
      },
      150_000,
    );
    expect(final).toEqual({ done: TRACES });

    // Exactly one score per metric on every trace (the weekly run's scores are on its own traces).
    const perTrace = new Map<string, string[]>();
    for (const s of lf.store.scores().filter((x) => String(x.traceId).startsWith('chaos')))
      perTrace.set(String(s.traceId), [...(perTrace.get(String(s.traceId)) ?? []), String(s.name)]);
    expect(perTrace.size).toBe(TRACES);
    for (const [id, names] of perTrace)
      expect(names.sort(), id).toEqual(['ragas-answer-relevancy', 'ragas-faithfulness', 'ragwatch-answer-leak']);

    // From the judge's request log: nothing evaluated more than twice, and only traces the killed replica held twice.
    const evaluations = evaluationsPerTrace();
    expect(evaluations.size).toBe(TRACES);
    const twice = [...evaluations].filter(([, n]) => n > 1);
    expect(
      twice.every(([, n]) => n === 2),
      JSON.stringify(twice.filter(([, n]) => n > 2)),
    ).toBe(true);
    for (const [id] of twice) expect(heldAtKill.has(id), `${id} evaluated twice but not held at the kill`).toBe(true);

    // Each replica that stayed up evaluated at least 20 % of the traces.
    for (const r of [a, b]) expect(await evaluatedBy(r), r.name).toBeGreaterThanOrEqual(0.2 * TRACES);
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(
      `chaos: ${TRACES} traces in ${seconds} s; evaluated by a, b, c (restarted): ${await evaluatedBy(a)}, ${await evaluatedBy(b)}, ${await evaluatedBy(c)}; ` +
        `held by c at the kill ${heldAtKill.size}, evaluated twice ${twice.length}; done at the cut ${doneAtCut}`,
    );
    for (const r of replicas) expect(readFileSync(r.log, 'utf8')).not.toContain(lf.secretKey);

    // The alert series: from the first scored trace on, each quality alert's series (comparison left out) exists in
    // every round, through the kill, the restart and the cut; the ledger gauge has one exporter most of the time.
    await scraper.stop();
    const rounds = scraper.rounds;
    const alerts = alertSeriesGaps(rounds);
    for (const { alert, first, gaps, firingGaps } of alerts) {
      expect(first, `${alert}: no series in ${rounds.length} rounds`).toBeGreaterThanOrEqual(0);
      // The series was there before the cut, so the cut is inside the stretch checked.
      expect(first, `${alert}: first series after the cut (round ${cutRound})`).toBeLessThan(cutRound);
      expect(gaps, `${alert}: the series vanished in these rounds`).toEqual([]);
      // An alert whose condition holds keeps holding: its `for:` would not restart at each tick.
      expect(firingGaps, `${alert}: the condition stopped holding in these rounds`).toEqual([]);
    }
    // The stand-in judge's faithfulness is high and its lexical answer relevancy tops out near 0.6: one alert stays
    // quiet, the other holds from the first runs on, through the kill, the restart and the cut.
    expect(alerts.map((x) => x.firstFiring >= 0)).toEqual([false, true]);
    const exporters = exportersPerRound(rounds, 'ragwatch_ledger_entries{status="done"}');
    const histogram = [0, 1, 2, 3].map((n) => exporters.filter((e) => e === n).length);
    const firstLedger = exporters.findIndex((n) => n > 0);
    // A replica that exported the fleet's means (read from the state, at most every 5 s) keeps exporting them on
    // every scrape it answers, through the cut (the last values it read), until it dies.
    const firstMean = rounds.findIndex((r) => [...r.byReplica.values()].some((e) => e?.has('rag_faithfulness_score')));
    expect(firstMean).toBeGreaterThanOrEqual(0);
    const exported = new Set<string>();
    const withoutMean: string[] = [];
    rounds.forEach((r, i) => {
      for (const [name, e] of r.byReplica) {
        if (e?.has('rag_faithfulness_score')) exported.add(name);
        else if (e && exported.has(name)) withoutMean.push(`${i}:${name}`);
      }
    });
    expect(exported.size).toBeGreaterThanOrEqual(3);
    expect(withoutMean).toEqual([]);

    // The weekly run's report: served by every replica (the restarted one and after the cut included) through the
    // signed link recorded in Langfuse, every file of it with the token, and nothing without either.
    const cli = await weekly;
    expect([0, 1, 4], cli.stderr).toContain(cli.code);
    const run = lf.store.datasetRuns('rag-golden').find((r) => r.name === RUN);
    const link = new URL((run?.metadata as { reportUrl: string }).reportUrl);
    expect(link.origin).toBe(PUBLIC_URL);
    const html = readFileSync(join(dir, 'reports', RUN, 'report.html'), 'utf8');
    const files = (
      await adminQuery(`SELECT run_dir, file FROM "${schema}".report_files ORDER BY run_dir, file`)
    ).rows.map((row: { run_dir: string; file: string }) => `${row.run_dir}/${row.file}`);
    expect(files).toContain(`${RUN}/report.html`);
    for (const r of [a, b, c]) {
      const base = `http://127.0.0.1:${r.port}`;
      const signed = await fetch(`${base}${link.pathname}${link.search}`);
      expect(signed.status, r.name).toBe(200);
      expect(await signed.text(), r.name).toBe(html);
      expect((await fetch(`${base}${link.pathname}`)).status, r.name).toBe(401);
      for (const file of files) {
        const res = await fetch(`${base}/reports/${file}`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(res.status, `${r.name} ${file}`).toBe(200);
      }
    }
    console.log(
      `chaos alerts: ${rounds.length} scrape rounds, the cut from round ${cutRound}; quality series from round ${alerts.map((x) => `${x.alert} ${x.first} (mean ${x.mean?.toFixed(3)}, firing from ${x.firstFiring})`).join(', ')}, ` +
        `no gap; first means in round ${firstMean}, first ledger gauge in round ${firstLedger}; ledger gauge exporters per round 0/1/2/3: ${histogram.join('/')}; ` +
        `report files served by a, b, c: ${files.length}`,
    );
    failed = false;
  }, 300_000);
});
