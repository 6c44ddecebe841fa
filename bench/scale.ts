/**
 * bench/scale: does the judge, not ragwatch, set the pace at production scale?
 *
 *   npx tsx --conditions=ragwatch-source bench/scale.ts [--mean-ms 40] [--sigma 0.8] [--fraction 0.02]
 *     [--listed 1000000] [--golden 200] [--only drain,experiment,listing]
 *
 * The judge stand-in runs a production-like profile time-scaled: 64 slots (vLLM max_num_seqs), log-normal
 * service times with the given mean (40 ms ≈ a 4 s judge call ÷ 100, same shape). Every figure is a ratio to the
 * judge-bound ideal, the service time the stand-in drew ÷ its slots, so it does not depend on the scale. Prints:
 *  - the catch-up after a 24 h outage at 1 M traces a day and 10 % sampling: the backlog (scaled by --fraction so
 *    the run takes minutes here) drained by 1 replica on SQLite: the share of the judge's slots in service during
 *    the drain (target ≥ 95 %) and drain time ÷ ideal (target ≤ 1.1);
 *  - the weekly experiment on a --golden item set: wall time ÷ ideal (target ≤ 1.1);
 *  - a --listed trace window listed: peak RSS and Langfuse requests per 1,000 traces.
 * The stand-ins run in a child process and each replica in its own (the real daemon), as in production.
 */
import { availableParallelism } from 'node:os';
import { drain, postgresState, sqliteState, type DrainResult } from './scale/drain.js';
import { weeklyExperiment } from './scale/experiment.js';
import { listWindow } from './scale/listing.js';
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

async function main() {
  const meanMs = arg('--mean-ms', 40);
  const sigma = arg('--sigma', 0.8);
  const parallelism = arg('--slots', 64);
  const fraction = arg('--fraction', 0.02);
  const standIns = await startStandIns({ meanMs, sigma, parallelism });
  console.log(
    `bench/scale — judge stand-in: ${parallelism} slots, log-normal service times, mean ${meanMs} ms, σ ${sigma}; ${availableParallelism()} cores here`,
  );

  if (wants('drain')) {
    const traces = Math.round(1_000_000 * fraction);
    const judgeConcurrency = arg('--judge-concurrency', parallelism);
    const onlineConcurrency = arg('--online-concurrency', 2 * parallelism);
    console.log(
      `\ncatch-up after a 24 h outage: 1 M traces/day × ${fraction} = ${traces} traces listed, 10 % sampled; judge.concurrency ${judgeConcurrency}, online.concurrency ${onlineConcurrency}`,
    );
    const rows: Array<[string, DrainResult]> = [];
    const trace = process.argv.includes('--trace') ? { trace: console.log } : {};
    const sqlite = await drain(standIns, {
      replicas: 1,
      traces,
      rate: 0.1,
      judgeConcurrency,
      onlineConcurrency,
      state: sqliteState(),
      ...trace,
    });
    rows.push(['1 replica, SQLite', sqlite]);
    if (!process.argv.includes('--no-postgres')) {
      for (const replicas of [1, 3]) {
        const r = await drain(standIns, {
          replicas,
          traces,
          rate: 0.1,
          judgeConcurrency,
          onlineConcurrency,
          state: postgresState(),
          ...trace,
        });
        rows.push([`${replicas} replica${replicas > 1 ? 's' : ''}, PostgreSQL`, r]);
      }
    }
    for (const [label, r] of rows) {
      console.log(
        `  ${label.padEnd(22)} ${r.sampled} sampled in ${fmt(r.seconds)} s, ideal ${fmt(r.idealSeconds)} s: drain ÷ ideal ${fmt(r.seconds / r.idealSeconds, 3)} (target ≤ 1.1); ` +
          `slots in service ${pct(r.occupancy)} (target ≥ 95 %); ${fmt(r.judgeRequests / r.sampled, 2)} judge requests/trace; ` +
          `CPU ${r.replicaCpuMs.map((c) => fmt(c / r.sampled, 1)).join(' + ')} ms/trace ragwatch, ${fmt(r.standInCpuMs / r.sampled, 1)} stand-ins; ${fmt(r.langfusePer1000, 0)} Langfuse requests / 1000 listed`,
      );
    }
  }
  if (wants('experiment')) {
    const items = arg('--golden', 200);
    const e = await weeklyExperiment(standIns, items, arg('--judge-concurrency', parallelism));
    console.log(
      `\nweekly experiment: ${items} items, clean and noise passes, judge.concurrency ${arg('--judge-concurrency', parallelism)}`,
    );
    console.log(
      `  wall ${fmt(e.seconds)} s, ideal ${fmt(e.idealSeconds)} s: wall ÷ ideal ${fmt(e.seconds / e.idealSeconds, 3)} (target ≤ 1.1); ` +
        `slots in service ${pct(e.occupancy)}; ${fmt(e.judgeRequests / items, 1)} judge requests/item; ragwatch CPU ${fmt(e.cpuMs / items, 1)} ms/item`,
    );
  }
  await standIns.close();

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
