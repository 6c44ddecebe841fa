import { LangfuseApiError } from '../langfuse/index.js';
import type { Command } from 'commander';
import type { RagwatchConfig } from '../config/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import {
  formatOneTrace,
  oneTraceJson,
  formatPlan,
  formatTickReport,
  outcomeReason,
  runBackfill,
  runOnlineTick,
  type RunProgress,
  type TickReport,
  scoreOneTrace,
  planOnlineTick,
  planCountsHelp,
  createOnlineRuntime,
  type OnlineRuntime,
  rateWarnings,
  samplingPolicyFrom,
} from '../online/index.js';
import { prepareSample } from '../metrics/index.js';
import type { Runtime } from '../runtime/index.js';
import {
  credentialsExit,
  openStateOrExit,
  startupFailureExit,
  stopSignals,
  withStatePathFrom,
} from '../service/index.js';
import { recordLangfuseApi, type StateStore } from '../state/index.js';
import { countingJudge, noProgress, type Progress } from '../progress/index.js';
import { requireConfig, runtimeFor, type CommandContext } from './context.js';
import { NO_PROGRESS_HELP, progressFor } from './progress-option.js';

interface SampleOptions {
  once?: boolean;
  dryRun?: boolean;
  trace?: string;
  from?: string;
  to?: string;
  json?: boolean;
  progress?: boolean;
  showPrompts?: boolean;
}

type Mode = { kind: 'once' } | { kind: 'trace'; traceId: string } | { kind: 'backfill'; from: Date; to: Date };

export function registerSampleCommand(program: Command, ctx: CommandContext): void {
  program
    .command('sample')
    .description('run the online job by hand: one tick (--once), one trace (--trace ID) or a past window (--from/--to)')
    .option('--once', 'run one online tick now (the default)')
    .option(
      '--dry-run',
      "evaluate and write nothing: with --once, the tick's plan (the whole backlog, what it would take, evaluate or skip, and why)",
    )
    .option(
      '--trace <id>',
      'score one trace now and explain it: what the judge was given (anonymized, cut to the budgets), its answers, the scores',
    )
    .option('--show-prompts', 'with --trace: print every judge prompt in full (by default the first one)')
    .option('--from <time>', 'backfill: start of the window (ISO 8601)')
    .option('--to <time>', 'backfill: end of the window (ISO 8601)')
    .option('--json', 'print JSON')
    .option('--no-progress', NO_PROGRESS_HELP)
    .addHelpText('after', planCountsHelp())
    .action(async (options: SampleOptions, command: Command) => {
      const mode = parseMode(options);
      const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
      const edges = runtimeFor(config);
      for (const warning of rateWarnings(samplingPolicyFrom(config))) edges.logger.warn(warning);
      const state = await openStateOrExit(config);
      try {
        await runMode(mode, options, config, state, edges, ctx);
      } finally {
        await state.close();
      }
    });
}

function parseMode(options: SampleOptions): Mode {
  const chosen = [
    options.once,
    options.trace !== undefined,
    options.from !== undefined || options.to !== undefined,
  ].filter(Boolean).length;
  if (chosen > 1) throw new CliExit(ExitCode.badInput, ['sample: choose one of --once, --trace ID, --from/--to']);
  if (options.showPrompts && options.trace === undefined)
    throw new CliExit(ExitCode.badInput, ['sample: --show-prompts works with --trace ID']);
  if (options.trace !== undefined) {
    if (options.trace.trim() === '') throw new CliExit(ExitCode.badInput, ['sample: --trace needs a trace id']);
    return { kind: 'trace', traceId: options.trace.trim() };
  }
  if (options.from !== undefined || options.to !== undefined) {
    if (options.from === undefined || options.to === undefined)
      throw new CliExit(ExitCode.badInput, ['sample: a backfill needs both --from and --to']);
    const from = parseTime(options.from, '--from');
    const to = parseTime(options.to, '--to');
    if (from.getTime() >= to.getTime()) throw new CliExit(ExitCode.badInput, ['sample: --from must be before --to']);
    return { kind: 'backfill', from, to };
  }
  return { kind: 'once' };
}

function parseTime(text: string, flag: string): Date {
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(text.trim()))
    throw new CliExit(ExitCode.badInput, [
      `sample: ${flag} must be an ISO 8601 time such as 2025-01-31T00:00:00Z (got ${JSON.stringify(text)})`,
    ]);
  return new Date(ms);
}

async function runMode(
  mode: Mode,
  options: SampleOptions,
  config: RagwatchConfig,
  state: StateStore,
  edges: Runtime,
  ctx: CommandContext,
): Promise<void> {
  const dryRun = options.dryRun === true;
  const soft = new AbortController();
  const hard = new AbortController();
  const dispose = stopSignals(
    () => soft.abort(new Error('interrupted')),
    () => hard.abort(new Error('interrupted')),
  );
  // A tick or a backfill can take minutes: show it go. `--trace` and dry runs are quick.
  const progress = mode.kind !== 'trace' && !dryRun ? progressFor(ctx, options, config) : noProgress;
  try {
    let runtime: OnlineRuntime;
    try {
      runtime = await createOnlineRuntime(config, {
        runtime: edges,
        state,
        signal: hard.signal,
        skipScoreConfigs: dryRun,
        wrapJudge: (judge) => countingJudge(judge, progress),
      });
    } catch (err) {
      throw startupFailureExit(err);
    }
    if (!dryRun)
      await recordLangfuseApi(state, runtime.edges.langfuse.generation, config.langfuse.apiGeneration, Date.now());
    const out = (text: string) => ctx.stdout.write(text);

    if (mode.kind === 'once' && dryRun) {
      const plan = await guard(() => planOnlineTick(runtime.deps, runtime.settings, hard.signal));
      out(options.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
      return;
    }
    if (mode.kind === 'trace') {
      const result = await guard(() =>
        scoreOneTrace(runtime.deps, runtime.settings, mode.traceId, { dryRun, signal: hard.signal }),
      );
      // What the judge was given: the anonymized sample after the token budgets, as the metrics cut it.
      const given = result.view ? prepareSample(result.view.sample, config.metrics) : null;
      out(
        options.json
          ? `${JSON.stringify(oneTraceJson(result, given), null, 2)}\n`
          : formatOneTrace(result, given, { dryRun, showPrompts: options.showPrompts === true }),
      );
      if (!result.found) throw new CliExit(ExitCode.badInput, [`sample: trace ${mode.traceId} not found`]);
      if (result.outcome?.kind === 'failed') {
        throw (
          credentialsExit(result.outcome.failure.code) ??
          new CliExit(ExitCode.incomplete, [`sample: trace ${mode.traceId} failed: ${result.outcome.failure.code}`])
        );
      }
      return;
    }
    if (dryRun) throw new CliExit(ExitCode.badInput, ['sample: --dry-run works with --once and --trace']);
    progress.stage(mode.kind === 'once' ? 'online tick' : 'backfill', { unit: 'traces' });
    const tickOptions = { stop: soft.signal, signal: hard.signal, progress: runProgress(progress) };
    let report: TickReport;
    try {
      report =
        mode.kind === 'once'
          ? await runOnlineTick(runtime.deps, runtime.settings, tickOptions)
          : await runBackfill(runtime.deps, runtime.settings, { from: mode.from, to: mode.to }, tickOptions);
    } finally {
      progress.end();
    }
    out(
      options.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : formatTickReport(report, mode.kind === 'once' ? 'tick' : 'backfill'),
    );
    if (report.outcome === 'lease_held')
      throw new CliExit(ExitCode.incomplete, [
        'sample: another ragwatch holds the lease (a tick is running); nothing done',
      ]);
    if (report.outcome !== 'success') {
      const refused = credentialsExit(report.error);
      if (refused) throw refused;
      const why = outcomeReason(report);
      throw new CliExit(ExitCode.incomplete, [`sample: ${report.outcome}${why ? `: ${why}` : ''}`]);
    }
  } finally {
    progress.end();
    dispose();
  }
}

/** Traces taken grow the total while the listing goes on; each settled trace is one done. */
function runProgress(progress: Progress): RunProgress {
  return {
    listed: (count) => progress.note(`listed ${count}`),
    taken: () => progress.grow(),
    settled: () => progress.advance(),
    listingDone: () => progress.totalKnown(),
  };
}

/** Langfuse errors outside a tick (the trace fetch of --trace, dry-run listing) end as exit 2 or 3. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof LangfuseApiError) throw startupFailureExit(err);
    throw err;
  }
}
