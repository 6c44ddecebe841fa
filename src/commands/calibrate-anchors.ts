import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  buildAnchorSet,
  samplesFromGolden,
  samplesFromInput,
  writeAnchorFile,
  probeJudgeIdentity,
} from '../calibrate/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import {
  loadGoldenItems,
  type SplitFilter,
  createHttpTarget,
  createReplayTarget,
  targetConfigProblems,
} from '../experiment/index.js';
import { judgeClientsFromConfig, judgeDepsOf } from '../judge/index.js';
import { connectLangfuse, langfuseDepsOf, LangfuseApiError } from '../langfuse/index.js';
import { parseInputLines } from '../metrics/index.js';
import { anonymizerFromConfig } from '../anonymize/index.js';
import { startupFailureExit, withStatePathFrom } from '../service/index.js';
import { requireConfig, runtimeFor, type CommandContext } from './context.js';

interface AnchorFlags {
  input?: string;
  dataset?: string;
  split?: string;
  limit?: string;
  output?: string;
  force?: boolean;
  json?: boolean;
}

async function readSamples(path: string, ctx: CommandContext) {
  let text: string;
  try {
    text = await readFile(resolve(ctx.cwd, path), 'utf8');
  } catch (err) {
    throw new CliExit(ExitCode.badInput, [
      `--input: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
    ]);
  }
  const lines = parseInputLines(text);
  const bad = lines.filter((l) => 'error' in l).map((l) => `--input: line ${l.line}: ${'error' in l ? l.error : ''}`);
  if (bad.length > 0) throw new CliExit(ExitCode.badInput, bad.slice(0, 20));
  return samplesFromInput(lines.flatMap((l) => ('sample' in l ? [l.sample] : [])));
}

export function registerAnchorsCommand(calibrate: Command, ctx: CommandContext): void {
  const anchors = calibrate.command('anchors').description('the judge drift anchor set (calibrate.anchors.path)');
  anchors
    .command('build')
    .description(
      'score a fixed set of samples with the current judge and store them (the weekly experiment re-scores them ' +
        'first and says "the judge changed" when the scores moved). From --input samples.jsonl (as for evaluate), ' +
        'or from the golden set asked once of the RAG service',
    )
    .option('--input <file>', 'JSONL samples {id, question, answer, contexts, language?}, one a line')
    .option('--dataset <name>', 'the golden dataset (default: experiment.dataset)')
    .option('--split <split>', 'with --dataset: dev, test or all (default all)', 'all')
    .option('--limit <n>', 'with --dataset: at most this many items (default 200)', '200')
    .option('--output <file>', 'where to write the set (default: calibrate.anchors.path)')
    .option('--force', 'replace an existing anchor set (a new version: later weeks compare with it)')
    .option('--json', 'print the result as JSON')
    .action(async (flags: AnchorFlags, command: Command) => {
      const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
      const output = flags.output ? resolve(ctx.cwd, flags.output) : config.calibrate.anchors.path;
      const problems: string[] = [];
      if (!output) problems.push('calibrate anchors build: give --output FILE or set calibrate.anchors.path');
      if (flags.input && flags.dataset) problems.push('calibrate anchors build: give --input or --dataset, not both');
      if (!['dev', 'test', 'all'].includes(flags.split ?? 'all'))
        problems.push(`--split: must be dev, test or all (got "${flags.split}")`);
      const limit = Number(flags.limit);
      if (!(Number.isInteger(limit) && limit >= 2 && limit <= 100_000))
        problems.push(`--limit: must be a whole number from 2 to 100000 (got "${flags.limit}")`);
      if (output && existsSync(output) && !flags.force) {
        problems.push(`${output} exists: an anchor set is fixed; --force replaces it with a new version`);
      }
      if (!flags.input) problems.push(...targetConfigProblems(config.experiment.target, ctx.env));
      if (problems.length > 0) throw new CliExit(ExitCode.badInput, problems);

      const now = (ctx.now ?? Date.now)();
      const runtime = runtimeFor(config);
      const { judge, embeddings } = judgeClientsFromConfig(config, judgeDepsOf(runtime));
      let samples;
      let source: string;
      let notAnswered = 0;
      if (flags.input) {
        samples = await readSamples(flags.input, ctx);
        source = `file ${flags.input}`;
      } else {
        const dataset = flags.dataset ?? config.experiment.dataset;
        let langfuse;
        try {
          langfuse = await connectLangfuse(config, langfuseDepsOf(runtime));
        } catch (err) {
          throw startupFailureExit(err);
        }
        const target =
          config.experiment.target.mode === 'replay'
            ? createReplayTarget(config.experiment.target.replay, new Map())
            : createHttpTarget(config.experiment.target, { env: ctx.env });
        try {
          const loadItems = (name: string, split: SplitFilter, signal?: AbortSignal) =>
            loadGoldenItems(langfuse.http, name, config.experiment, split, signal);
          const got = await samplesFromGolden({ loadItems, config, target }, dataset, flags.split as 'all', limit);
          samples = got.samples;
          notAnswered = got.failed;
        } catch (err) {
          if (err instanceof LangfuseApiError) throw startupFailureExit(err);
          throw err;
        }
        source = `golden dataset ${dataset} (${flags.split}), answered by ${target.description}`;
      }
      if (samples.length < 2)
        throw new CliExit(ExitCode.badInput, ['calibrate anchors build: fewer than 2 samples to anchor on']);
      const identity = await probeJudgeIdentity({
        baseUrl: config.judge.baseUrl,
        model: config.judge.model,
        apiKey: config.judge.apiKey,
      });
      const built = await buildAnchorSet(samples, source, {
        config,
        judge,
        embeddings,
        anonymizer: anonymizerFromConfig(config),
        identity,
        now,
      });
      const failedCalls = Object.values(built.failed).reduce((a, b) => a + b, 0);
      if (built.file.anchors.length < 2) {
        throw new CliExit(ExitCode.incomplete, [
          `calibrate anchors build: the judge scored too few samples (${failedCalls} calls failed)`,
        ]);
      }
      await writeAnchorFile(output!, built.file);
      const summary = {
        path: output,
        version: built.file.version,
        anchors: built.file.anchors.length,
        metrics: built.file.metrics,
        judge: built.file.judge,
        leftOut: { personalData: built.personalData, failedJudgeCalls: built.failed, notAnswered },
      };
      ctx.stdout.write(
        flags.json
          ? `${JSON.stringify(summary, null, 2)}\n`
          : `anchor set ${summary.version}: ${summary.anchors} anchors (${summary.metrics.join(', ')}) written to ${output}\n` +
              `judge ${identity.model}${identity.modelRoot ? ` (${identity.modelRoot})` : ''}, vLLM ${identity.vllmVersion ?? 'not reported'}\n` +
              `left out: ${built.personalData} with personal data, ${failedCalls} failed judge calls, ${notAnswered} not answered\n`,
      );
    });
}
