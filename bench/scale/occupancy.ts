/**
 * The judge's slots in service over a scenario, from the stand-in's snapshots taken while it ran: over the whole
 * run, and over its steady part, which ends when the judge last had at least as many requests in flight (queued
 * or in service) as it has slots. What follows is the tail, where slots empty because no work is left to give
 * them.
 */
import type { StandIns } from './procs.js';
import type { Snapshot } from './stand-ins.js';

export interface Occupancy {
  /** Share of slot time in service from the first snapshot to the last. */
  whole: number;
  /** The same up to the end of the steady part (equal to `whole` when the run never had a full queue). */
  steady: number;
  /** Seconds from the end of the steady part to the last snapshot. */
  tailSeconds: number;
}

export function occupancyOf(samples: readonly Snapshot[]): Occupancy {
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const share = (a: Snapshot, b: Snapshot) =>
    b.atMs > a.atMs ? (b.inServiceMs - a.inServiceMs) / (b.atMs - a.atMs) / b.parallelism : 0;
  let steadyEnd = 0;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    const inFlight = b.atMs > a.atMs ? (b.inFlightMs - a.inFlightMs) / (b.atMs - a.atMs) : 0;
    if (inFlight >= b.parallelism) steadyEnd = i;
  }
  const steadyTo = steadyEnd > 0 ? samples[steadyEnd]! : last;
  return {
    whole: share(first, last),
    steady: share(first, steadyTo),
    tailSeconds: (last.atMs - steadyTo.atMs) / 1000,
  };
}

/** Snapshots of the judge every `everyMs` until `stop()`, which resolves with them (the last one taken at the stop). */
export function sampleJudge(standIns: StandIns, everyMs = 250): { stop(): Promise<Snapshot[]> } {
  const samples: Snapshot[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      samples.push(await standIns.ask({ type: 'snapshot' }));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      samples.push(await standIns.ask({ type: 'snapshot' }));
      return samples;
    },
  };
}
