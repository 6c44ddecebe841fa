import type { RagwatchConfig } from 'ragwatch/config/schema.js';
import { formatTickReport } from 'ragwatch/online/format.js';
import { runOnlineTick, type TickReport } from 'ragwatch/online/job.js';
import { createOnlineRuntime } from 'ragwatch/online/runtime.js';
import { RECOMMENDED_RATE } from 'ragwatch/online/sampler.js';
import { openState } from 'ragwatch/state/index.js';
import type { DemoEnvironment, DemoStep, DemoStepResult } from '../run-demo.js';
import { sampledTraceLines, sampledTraces, traceUrl, type SampledTrace } from './online-traces.js';

/** The counters of a tick without its per-trace list (that one is printed with the corpus' view of each trace). */
function summaryLines(report: TickReport): string[] {
  return formatTickReport({ ...report, traces: [] }, 'tick')
    .trimEnd()
    .split('\n');
}

function tickData(report: TickReport) {
  const { traces: _traces, ...counters } = report;
  return counters;
}

/**
 * One real online tick (`ragwatch sample --once`) against the seeded stand-in: list the window, sample,
 * extract, anonymize, judge, write the scores onto the original traces. Then a second tick right away,
 * which must find everything in the ledger and write nothing.
 */
export const onlineStep: DemoStep = {
  name: 'online',
  title: 'Online tick: sample, anonymize, judge, score the original traces (ragwatch sample --once)',
  async run(env: DemoEnvironment): Promise<DemoStepResult> {
    const config: RagwatchConfig = env.config;
    const state = await openState(config);
    try {
      const runtime = await createOnlineRuntime(config, {
        state,
        runtime: env.runtime,
      });
      const scoresBefore = env.langfuse.store.scores().length;
      const first = await runOnlineTick(runtime.deps, runtime.settings);
      const traces = sampledTraces(env, first);
      const scoresAfterFirst = env.langfuse.store.scores().length;
      const second = await runOnlineTick(runtime.deps, runtime.settings);
      const scoresAfterSecond = env.langfuse.store.scores().length;

      const rate = config.sampling.rate;
      const lines = [
        `sampling rate ${rate} (the demo's, so ${env.traces} traces give a visible sample; production uses ${RECOMMENDED_RATE.min}–${RECOMMENDED_RATE.max}), settle delay ${config.online.settleDelaySeconds} s, first look-back ${config.online.initialLookbackSeconds / 3600} h`,
        ...summaryLines(first),
      ];
      if (traces.length > 0) {
        lines.push(
          '',
          `sampled traces (shape from the corpus; scores read back from the Langfuse stand-in, on the original trace ids):`,
        );
        lines.push(...sampledTraceLines(traces));
        const example = traces.find((t) => Object.keys(t.scores).length > 0) ?? traces[0]!;
        lines.push(
          '',
          `look at one: curl -u ${env.langfuse.publicKey}:${env.langfuse.secretKey} '${traceUrl(env, example.traceId)}'`,
        );
        if (env.personality === 'v4')
          lines.push('  (the v4 stand-in serves no score reads; the scores above come from its store)');
      }
      const written = scoresAfterSecond - scoresAfterFirst;
      lines.push(
        '',
        `second tick right after: ${second.outcome}, listed ${second.listed} (the overlap re-lists the last ${config.online.overlapSeconds / 60} min), sampled ${second.sampled}, evaluated ${second.evaluated}, scores written ${second.scoresWritten}${second.scoresWritten === 0 && written === 0 ? ': the ledger remembers every trace, nothing is written twice' : ''}`,
      );

      const scoredOnTheirTraces = traces.every(
        (t) => t.status !== 'done' || t.scored.every((metric) => t.scores[metric] !== undefined),
      );
      const ok =
        first.outcome === 'success' &&
        first.failed === 0 &&
        first.dead === 0 &&
        scoresAfterFirst - scoresBefore === first.scoresWritten &&
        scoredOnTheirTraces &&
        second.outcome === 'success' &&
        second.scoresWritten === 0 &&
        second.evaluated === 0 &&
        written === 0;
      return {
        ok,
        lines,
        data: { rate, tick: tickData(first), traces, secondTick: tickData(second) } satisfies OnlineStepData,
      };
    } finally {
      await state.close();
    }
  },
};

export interface OnlineStepData {
  rate: number;
  tick: Omit<TickReport, 'traces'>;
  traces: SampledTrace[];
  secondTick: Omit<TickReport, 'traces'>;
}
