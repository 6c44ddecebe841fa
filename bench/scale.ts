/**
 * bench/scale: does the judge, not ragwatch, set the pace at production scale?
 *
 *   npx tsx --conditions=ragwatch-source bench/scale.ts [--mean-ms 40] [--sigma 0.8] [--slots 64]
 *     [--judge-concurrency <slots>] [--fraction 0.02] [--listed 1000000] [--golden 200] [--chunks 1000]
 *     [--settings bench,defaults] [--only drain,experiment,golden,tail,listing] [--no-postgres]
 *     [--tail-ms-per-prompt-token <mean-ms / 1000>]
 *
 * The judge stand-in runs a production-like profile time-scaled: 64 slots (vLLM max_num_seqs), log-normal
 * service times with the given mean (40 ms ≈ a 4 s judge call ÷ 100, same shape). Every figure is a ratio to the
 * judge-bound ideal, the service time the stand-in drew ÷ its slots, so it does not depend on the scale; beside
 * it, the share of the judge's slots in service over the whole scenario and over its steady part (until the
 * judge last had a full queue), and the tail's length. Each scenario runs with two settings: `bench` (the
 * per-job concurrencies and sampling caps set wide open) and `defaults` (ragwatch's defaults for everything but
 * judge.concurrency). Prints:
 *  - the catch-up after a 24 h outage at 1 M traces a day and 10 % sampling: the backlog (scaled by --fraction so
 *    the run takes minutes here) drained by 1 replica on SQLite and 1 and 3 on PostgreSQL: drain time ÷ ideal
 *    (target ≤ 1.1) and slots in service (target ≥ 95 %);
 *  - the weekly experiment on a --golden item set: wall time ÷ ideal (target ≤ 1.1);
 *  - `golden build` on a --chunks chunk corpus with the default golden settings: wall ÷ ideal (target ≤ 1.2);
 *  - the tail: the weekly experiment against a judge whose service time also grows with the prompt's tokens
 *    (as prefill does), with judge.queueOrder longest-first and arrival;
 *  - a --listed trace window listed: peak RSS and Langfuse requests per 1,000 traces.
 * The stand-ins run in a child process and each replica in its own (the real daemon), as in production.
 */
import { availableParallelism, loadavg } from 'node:os';
import { drain, postgresState, sqliteState, type DrainResult } from './scale/drain.js';
import { weeklyExperiment, type ExperimentResult } from './scale/experiment.js';
import { goldenBuild } from './scale/golden.js';
import { listWindow } from './scale/listing.js';
import type { Occupancy } from './scale/occupancy.js';
import { startStandIns } from './scale/procs.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 ? new Set(process.argv[i + 1]!.split(',')) : null;
})();
const wants = (part: string) => only === null || only.has(part);

const fmt = (n: number, d = 2) => n.toFixed(d);
const pct = (n: number) => `${(100 * n).toFixed(1)} %`;

const list = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return (i >= 0 ? process.argv[i + 1]! : fallback).split(',');
};
const slotsLine = (o: Occupancy) =>
  `slots in service ${pct(o.whole)} whole, ${pct(o.steady)} steady, tail ${fmt(o.tailSeconds, 1)} s`;
const experimentLine = (e: ExperimentResult) =>
  `wall ${fmt(e.seconds)} s, ideal ${fmt(e.idealSeconds)} s: wall ÷ ideal ${fmt(e.seconds / e.idealSeconds, 3)} (target ≤ 1.1); ` +
  `${slotsLine(e.occupancy)}; ${fmt(e.judgeRequests / e.items, 1)} judge requests/item; ragwatch CPU ${fmt(e.cpuMs / e.items, 1)} ms/item`;

async function main() {
  const meanMs = arg('--mean-ms', 40);
  const sigma = arg('--sigma', 0.8);
  const parallelism = arg('--slots', 64);
  const fraction = arg('--fraction', 0.02);
  const judgeConcurrency = arg('--judge-concurrency', parallelism);
  const settingsList = list('--settings', 'bench,defaults') as Array<'bench' | 'defaults'>;
  const standIns = await startStandIns({ meanMs, sigma, parallelism });
  const [load1] = loadavg();
  console.log(
    `bench/scale — judge stand-in: ${parallelism} slots, log-normal service times, mean ${meanMs} ms, σ ${sigma}; judge.concurrency ${judgeConcurrency}; ${availableParallelism()} cores here, load ${fmt(load1!, 2)} at the start`,
  );

  for (const settings of settingsList) {
    const described =
      settings === 'bench'
        ? 'bench settings: online.concurrency 2 × judge.concurrency, sampling caps off, experiment.target.concurrency = judge.concurrency'
        : 'defaults: every setting at its default but judge.concurrency';
    console.log(`\n== ${described}`);
    if (wants('drain')) {
      const traces = Math.round(1_000_000 * fraction);
      console.log(`catch-up after a 24 h outage: 1 M traces/day × ${fraction} = ${traces} traces listed, 10 % sampled`);
      const rows: Array<[string, DrainResult]> = [];
      const trace = process.argv.includes('--trace') ? { trace: console.log } : {};
      const common = { traces, rate: 0.1, judgeConcurrency, settings, ...trace };
      rows.push(['1 replica, SQLite', await drain(standIns, { ...common, replicas: 1, state: sqliteState() })]);
      if (!process.argv.includes('--no-postgres')) {
        for (const replicas of [1, 3]) {
          const r = await drain(standIns, { ...common, replicas, state: postgresState() });
          rows.push([`${replicas} replica${replicas > 1 ? 's' : ''}, PostgreSQL`, r]);
        }
      }
      for (const [label, r] of rows) {
        console.log(
          `  ${label.padEnd(22)} ${r.sampled} sampled in ${fmt(r.seconds)} s, ideal ${fmt(r.idealSeconds)} s: drain ÷ ideal ${fmt(r.seconds / r.idealSeconds, 3)} (target ≤ 1.1); ` +
            `${slotsLine(r.occupancy)} (target ≥ 95 % whole); ${fmt(r.judgeRequests / r.sampled, 2)} judge requests/trace; ` +
            `CPU ${r.replicaCpuMs.map((c) => fmt(c / r.sampled, 1)).join(' + ')} ms/trace ragwatch, ${fmt(r.standInCpuMs / r.sampled, 1)} stand-ins; ${fmt(r.langfusePer1000, 0)} Langfuse requests / 1000 listed`,
        );
      }
    }
    if (wants('experiment')) {
      const items = arg('--golden', 200);
      const e = await weeklyExperiment(standIns, { items, judgeConcurrency, settings });
      console.log(`weekly experiment: ${items} items, clean and noise passes`);
      console.log(`  ${experimentLine(e)}`);
    }
  }
  await standIns.close();

  if (wants('golden')) {
    // Its own stand-ins, with the judge's lexical rules on, so questions are generated, filtered and accepted as
    // on a real corpus (the schema-driven fallback would reject every seed at its first filter).
    const chunks = arg('--chunks', 1000);
    const goldenStandIns = await startStandIns({ meanMs, sigma, parallelism, builtinRules: true });
    const g = await goldenBuild(goldenStandIns, chunks, judgeConcurrency);
    await goldenStandIns.close();
    console.log(
      `\n== golden build: ${chunks} chunks, default golden settings and judge.concurrency ${judgeConcurrency}`,
    );
    console.log(`  ${g.summary}`);
    console.log(
      `  wall ${fmt(g.seconds)} s from the first judge request, ideal ${fmt(g.idealSeconds)} s: wall ÷ ideal ${fmt(g.seconds / g.idealSeconds, 3)} (target ≤ 1.2); ` +
        `${slotsLine(g.occupancy)}; ${g.judgeRequests} judge and embeddings requests; ragwatch CPU ${fmt(g.cpuMs / 1000, 1)} s`,
    );
    console.log(
      `  longest single judge call drawn ${fmt(g.longestCallSeconds)} s (${fmt(g.longestCallSeconds / g.idealSeconds, 2)} × ideal): ` +
        `no schedule ends sooner, and each seed is a chain of calls (generate, then check each candidate)`,
    );
  }

  if (wants('tail')) {
    // Prefill: a long prompt holds its slot longer, so the order of a queue decides what is left at its end.
    const msPerPromptToken = arg('--tail-ms-per-prompt-token', meanMs / 1000);
    const items = arg('--golden', 200);
    console.log(
      `\n== the tail: weekly experiment (${items} items, defaults) against a judge adding ${msPerPromptToken} ms per prompt token`,
    );
    for (const queueOrder of ['longest-first', 'arrival'] as const) {
      const tailStandIns = await startStandIns({ meanMs, sigma, parallelism, msPerPromptToken });
      const e = await weeklyExperiment(tailStandIns, { items, judgeConcurrency, settings: 'defaults', queueOrder });
      await tailStandIns.close();
      console.log(`  ${`queueOrder ${queueOrder}`.padEnd(26)} ${experimentLine(e)}`);
    }
  }

  if (wants('listing')) {
    // Fresh stand-ins: the listing's window holds only its own traces.
    const listed = arg('--listed', 1_000_000);
    const lister = await startStandIns({ meanMs, sigma, parallelism });
    const l = await listWindow(lister, listed);
    await lister.close();
    console.log(`\nlisting a ${l.listed}-trace window (v3, nothing sampled), in this process`);
    console.log(
      `  ${fmt(l.seconds, 1)} s; ${fmt((1000 * l.langfuseRequests) / l.listed, 2)} Langfuse requests / 1000 traces; ` +
        `peak RSS ${fmt(l.peakRssMb, 0)} MB (before ${fmt(l.rssBeforeMb, 0)} MB, +${fmt(l.peakRssMb - l.rssBeforeMb, 0)} MB)`,
    );
  }
}

await main();
