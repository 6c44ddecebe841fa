import type { Command } from 'commander';
import {
  runEnqueue,
  type EnqueueResult,
  calibrationGaugeValues,
  calibrationMarkdown,
  buildCalibration,
} from '../calibrate/index.js';
import type { RagwatchConfig } from '../config/index.js';
import { connectLangfuse, langfuseDepsOf, LangfuseApiError } from '../langfuse/index.js';
import { openStateOrExit, startupFailureExit, withStatePathFrom } from '../service/index.js';
import type { StateStore } from '../state/index.js';
import { registerAnchorsCommand } from './calibrate-anchors.js';
import { requireConfig, runtimeFor, type CommandContext } from './context.js';

/**
 * `ragwatch calibrate …`: people's labels in a Langfuse annotation queue (`enqueue`), agreement between the judge
 * and people (`report`), and the judge drift anchor set (`anchors build`). See docs/calibration.md.
 */

async function withLangfuse<T>(
  config: RagwatchConfig,
  ctx: CommandContext,
  work: (deps: { langfuse: Awaited<ReturnType<typeof connectLangfuse>>; state: StateStore; now: number }) => Promise<T>,
): Promise<T> {
  const state = await openStateOrExit(config);
  try {
    let langfuse;
    try {
      langfuse = await connectLangfuse(config, langfuseDepsOf(runtimeFor(config)));
    } catch (err) {
      throw startupFailureExit(err);
    }
    try {
      return await work({ langfuse, state, now: (ctx.now ?? Date.now)() });
    } catch (err) {
      // Refused keys are configuration (2); a Langfuse that stopped answering leaves the work to a rerun (3).
      if (err instanceof LangfuseApiError) throw startupFailureExit(err);
      throw err;
    }
  } finally {
    await state.close();
  }
}

function enqueueText(r: EnqueueResult): string {
  const lines = [
    `calibrate enqueue: queue "${r.queue.name}"${r.dryRun ? ' (dry run: nothing queued)' : ''}`,
    `week ${r.window.from.slice(0, 10)} → ${r.window.to.slice(0, 19)}Z: ${r.plan.eligible} scored traces, ` +
      `target ${r.plan.target} (rate and weekly cap), ${r.plan.queued} already queued or annotated, ` +
      `${r.dryRun ? 'would queue' : 'queued'} ${r.plan.picked.length}`,
  ];
  const strata = r.plan.strata.filter((s) => s.picked > 0 || s.queued > 0);
  const head = 'by stratum (language, trace name, score bucket: candidates / queued before / now):';
  if (strata.length > 0) lines.push(head);
  for (const s of strata) {
    lines.push(`  ${s.language}  ${s.traceName}  ${s.bucket}: ${s.candidates} / ${s.queued} / ${s.picked}`);
  }
  for (const s of r.plan.skipped) lines.push(`skipped ${s.count}: ${s.reason}`);
  return `${lines.join('\n')}\n`;
}

export function registerCalibrateCommand(program: Command, ctx: CommandContext): void {
  const calibrate = program
    .command('calibrate')
    .description('can the judge be trusted? people label a sample in Langfuse; agreement and judge drift');

  calibrate
    .command('enqueue')
    .description(
      "put a stratified sample of this week's scored traces in the Langfuse annotation queue (calibrate.queue); " +
        'running it again the same week adds only what the week still lacks',
    )
    .option('--dry-run', 'show the plan; create and queue nothing')
    .option('--json', 'print the result as JSON')
    .action(async (flags: { dryRun?: boolean; json?: boolean }, command: Command) => {
      const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
      const result = await withLangfuse(config, ctx, ({ langfuse, state, now }) =>
        runEnqueue({ langfuse, config, state, now }, { dryRun: flags.dryRun === true }),
      );
      ctx.stdout.write(flags.json ? `${JSON.stringify(enqueueJson(result), null, 2)}\n` : enqueueText(result));
    });

  calibrate
    .command('report')
    .description(
      "agreement between the judge and people's scores per metric, language and stratum, with intervals, n and " +
        'annotations to halve them; the worst disagreements',
    )
    .option('--json', 'print the figures as JSON')
    .action(async (flags: { json?: boolean }, command: Command) => {
      const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
      const summary = await withLangfuse(config, ctx, async ({ langfuse, state, now }) => {
        const built = await buildCalibration({ langfuse, config, state, now });
        await state.setGauges(calibrationGaugeValues(built, config.calibrate), now);
        return built;
      });
      const text = flags.json ? JSON.stringify(summary, null, 2) : calibrationMarkdown(summary, '#').join('\n');
      ctx.stdout.write(`${text}\n`);
    });

  registerAnchorsCommand(calibrate, ctx);
}

function enqueueJson(r: EnqueueResult) {
  return {
    queue: r.queue,
    window: r.window,
    dryRun: r.dryRun,
    eligible: r.plan.eligible,
    target: r.plan.target,
    alreadyQueued: r.plan.queued,
    enqueued: r.enqueued,
    picked: r.plan.picked.map((c) => c.traceId),
    strata: r.plan.strata,
    skipped: r.plan.skipped,
  };
}
