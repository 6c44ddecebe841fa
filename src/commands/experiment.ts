import { LangfuseApiError } from '../langfuse/index.js';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliExit, ExitCode } from '../exit-codes.js';
import {
  connectExperiment,
  ExperimentIncompleteError,
  ExperimentInputError,
  goldenGaugeValues,
  formatRunSummary,
  junitIncomplete,
  junitReport,
  runExperiment,
  type ExperimentResult,
  type GateOutcome,
} from '../experiment/index.js';
import { runJudgeStage, type JudgeSection } from '../calibrate/index.js';
import { isCredentialsKind } from '../errors.js';
import { credentialsLine, openStateOrExit, startupFailureExit, withStatePathFrom } from '../service/index.js';
import { countingJudge } from '../progress/index.js';
import { requireConfig, runtimeFor, type CommandContext } from './context.js';
import { NO_PROGRESS_HELP, progressFor } from './progress-option.js';

interface RunOptions {
  dataset?: string;
  split?: string;
  runName?: string;
  compareWith?: string;
  junit?: string;
  json?: boolean;
  progress?: boolean;
}

export function registerExperimentCommand(program: Command, ctx: CommandContext): void {
  const experiment = program
    .command('experiment')
    .description(
      'the golden-set experiment: run the Langfuse dataset through the RAG service, score, record a dataset run, write a report',
    );
  experiment
    .command('run')
    .description(
      'run the golden set once: the items through the RAG service, scores, a dataset run, the report and the gate verdict',
    )
    .option('--dataset <name>', 'Langfuse dataset (default: experiment.dataset)')
    .option('--split <split>', 'items to run: dev, test or all (default: experiment.split)')
    .option('--run-name <name>', 'dataset run name (default: <prefix>-<ISO week>, unique per execution)')
    .option(
      '--compare-with <run>',
      'the run to compare with: previous, last-passed or a run name (default: experiment.compareWith)',
    )
    .option('--junit <file>', 'also write the verdict as a JUnit XML report (one case per gated figure and stratum)')
    .option('--json', 'print the summary as JSON')
    .option('--no-progress', NO_PROGRESS_HELP)
    .action(async (options: RunOptions, command: Command) => {
      const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
      if (options.split !== undefined && !['dev', 'test', 'all'].includes(options.split)) {
        throw new CliExit(ExitCode.badInput, [
          `experiment run: --split: must be dev, test or all (got "${options.split}")`,
        ]);
      }
      if (options.runName !== undefined && options.runName.trim() === '')
        throw new CliExit(ExitCode.badInput, ['--run-name: must not be empty']);
      const runtime = runtimeFor(config);
      const state = await openStateOrExit(config);
      const progress = progressFor(ctx, options, config);
      try {
        let deps;
        try {
          // PostgreSQL state: the report is kept there too, for /reports/ on every replica of the daemon.
          const reports = state.shared ? state : null;
          deps = await connectExperiment(config, { runtime, state, env: ctx.env, judgeStage: runJudgeStage, reports });
        } catch (err) {
          throw startupFailureExit(err);
        }
        deps = { ...deps, judge: countingJudge(deps.judge, progress) };
        let result;
        try {
          result = await runExperiment(deps, {
            reportsDir: resolve(ctx.cwd, config.experiment.reportsDir),
            progress,
            ...(options.dataset ? { dataset: options.dataset } : {}),
            ...(options.split ? { split: options.split as 'dev' | 'test' | 'all' } : {}),
            ...(options.runName ? { runName: options.runName.trim() } : {}),
            ...(options.compareWith ? { compareWith: options.compareWith.trim() } : {}),
          });
        } catch (err) {
          if (err instanceof ExperimentInputError) throw new CliExit(ExitCode.badInput, err.lines);
          if (err instanceof ExperimentIncompleteError) {
            // Refused keys do not come back by themselves: configuration (2), not an outage (3).
            const kind = err.kind ?? 'error';
            if (err.dependency && isCredentialsKind(kind)) {
              throw new CliExit(ExitCode.badInput, [
                err.dependency === 'rag'
                  ? `experiment.target.headers: the RAG service rejected ragwatch's credentials (${kind})`
                  : credentialsLine(err.dependency, kind),
              ]);
            }
            const report = err.report
              ? [
                  `report (incomplete): ${err.report.html}`,
                  `                     ${err.report.markdown}`,
                  `                     ${err.report.json}`,
                ]
              : [];
            const why = err.dependency ? 'an outage is not a regression' : 'too many items failed to judge the run';
            if (options.junit)
              writeJunit(
                resolve(ctx.cwd, options.junit),
                junitIncomplete(options.runName ?? '', err.message, new Date().toISOString()),
              );
            throw new CliExit(ExitCode.incomplete, [
              `experiment incomplete: ${err.message}`,
              `no gate verdict: ${why}`,
              ...report,
            ]);
          }
          if (err instanceof LangfuseApiError) throw startupFailureExit(err);
          throw err;
        } finally {
          progress.end();
        }
        const gauges = { ...goldenGaugeValues(result.report), ...result.judgeGauges };
        await state.setGauges(gauges, Date.parse(result.report.finishedAt));
        ctx.stdout.write(options.json ? `${JSON.stringify(summaryJson(result), null, 2)}\n` : formatRunSummary(result));
        if (options.junit) writeJunit(resolve(ctx.cwd, options.junit), junitReport(result.report));
        const code = gateExitCode(result.outcome, config.experiment.gate.onInconclusive);
        if (code !== ExitCode.ok) throw new CliExit(code, []);
      } finally {
        progress.end();
        await state.close();
      }
    });
}

/** The JUnit file, or exit 2 naming the option when it cannot be written. */
function writeJunit(path: string, xml: string): void {
  try {
    writeFileSync(path, xml);
  } catch (err) {
    throw new CliExit(ExitCode.badInput, [
      `experiment run: --junit: cannot write ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    ]);
  }
}

/** passed 0, failed 1, not enough evidence 4 — or what `experiment.gate.onInconclusive` maps it to. */
export function gateExitCode(outcome: GateOutcome, onInconclusive: 'not-enough-evidence' | 'fail' | 'pass'): number {
  if (outcome === 'passed') return ExitCode.ok;
  if (outcome === 'failed') return ExitCode.gateFailed;
  return onInconclusive === 'fail'
    ? ExitCode.gateFailed
    : onInconclusive === 'pass'
      ? ExitCode.ok
      : ExitCode.notEnoughEvidence;
}

function summaryJson(result: ExperimentResult<JudgeSection>) {
  const r = result.report;
  return {
    runName: result.runName,
    datasetRunId: result.datasetRunId,
    dataset: r.datasetName,
    split: r.split,
    items: r.items,
    outcome: result.outcome,
    gate: r.gate,
    judgeChanged: r.gate?.judgeChanged ?? false,
    judge: r.judge ? { ...r.judge.identity, warning: r.judge.warning, drift: r.judge.drift?.metrics ?? null } : null,
    diagnosis: r.diagnosis,
    regressions: r.comparison?.regressions ?? [],
    previousRun: r.comparison?.previousRun ?? null,
    comparedWith: r.comparison ? { run: r.comparison.previousRun, basis: r.comparison.basis ?? 'previous' } : null,
    abstention: r.abstention,
    noise: r.noise,
    report: {
      html: result.files.html,
      markdown: result.files.markdown,
      json: result.files.json,
      url: result.reportUrl,
    },
    scoresWritten: result.scoresWritten,
  };
}
