import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { RagwatchConfig } from '../config/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import {
  applyGoldenReview,
  publishedVersions,
  goldenNames,
  planGoldenBuild,
  runGoldenBuild,
  type BuildOptions,
  type BuildResult,
  readCorpusFolder,
  emptyCost,
  diffVersions,
  buildDeps,
  connectGolden,
  langfuseDatasets,
  personalDataCheck,
  type GoldenEdges,
  goldenItemView,
  chunksFromTraces,
  type Chunk,
} from '../golden/index.js';
import { JudgeCallError } from '../judge/index.js';
import { langfuseDepsOf, langfuseHttpFromConfig, LangfuseApiError } from '../langfuse/index.js';
import { isStateError, openGoldenStore } from '../state/index.js';
import { stateFailureExit, startupFailureExit, stopSignals, withStatePathFrom } from '../service/index.js';
import { requireConfig, runtimeFor, type CommandContext } from './context.js';
import {
  buildJson,
  chunksLine,
  formatBuild,
  formatDiff,
  formatPlan,
  formatReview,
  reviewJson,
} from './golden-format.js';
import { NO_PROGRESS_HELP, progressFor } from './progress-option.js';

interface BuildFlags {
  corpus?: string;
  fromTraces?: boolean;
  since?: string;
  dryRun?: boolean;
  json?: boolean;
  progress?: boolean;
}

const DURATION = /^(\d+)([hdw])$/;

/** `--since 30d` / `12h` / `2w`, or an ISO date. */
export function sinceDate(raw: string, now: number): Date | null {
  const m = DURATION.exec(raw.trim());
  if (m) return new Date(now - Number(m[1]) * { h: 3600_000, d: 86_400_000, w: 604_800_000 }[m[2] as 'h' | 'd' | 'w']);
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? null : new Date(ms);
}

async function openStore(config: RagwatchConfig): Promise<Awaited<ReturnType<typeof openGoldenStore>>> {
  try {
    return await openGoldenStore(config);
  } catch (err) {
    if (isStateError(err)) throw stateFailureExit(err);
    throw new CliExit(ExitCode.badInput, [
      `state: cannot open ${config.state.path}: ${err instanceof Error ? err.message : String(err)}`,
    ]);
  }
}

async function connect(config: RagwatchConfig): Promise<GoldenEdges> {
  try {
    return await connectGolden(config, { runtime: runtimeFor(config) });
  } catch (err) {
    throw startupFailureExit(err);
  }
}

/** A Langfuse failure mid-way: keys or URL refused → 2; unreachable → 3 (and a build resumes where it stopped). */
function dependencyExit(err: unknown, resumable: boolean): never {
  if (err instanceof LangfuseApiError || err instanceof JudgeCallError) {
    const exit =
      err instanceof LangfuseApiError
        ? startupFailureExit(err)
        : new CliExit(ExitCode.incomplete, [`judge: ${err.message}`]);
    throw new CliExit(exit.code, [
      ...exit.lines,
      ...(resumable ? ['nothing is lost: run the same command again to resume'] : []),
    ]);
  }
  throw err;
}

/** Every chunk left out: what was read and why, not the whole plan; nothing was created. */
function noSeedExit(result: BuildResult, settings: RagwatchConfig['golden'], source: string): CliExit {
  return new CliExit(ExitCode.badInput, [
    `source: ${source}`,
    chunksLine(result, settings),
    'golden build: no chunk can seed a question; nothing was generated or created',
  ]);
}

export function registerGoldenCommand(program: Command, ctx: CommandContext): void {
  const golden = program
    .command('golden')
    .description(
      'build the golden set from your corpus with the judge, have people review a sample in Langfuse, publish versions',
    );

  golden
    .command('build')
    .description('generate candidates from seed chunks (stratified), filter them, queue a sample for review; resumable')
    .option('--corpus <dir>', 'a folder of .md / .txt / .jsonl chunks (default: golden.corpus)')
    .option('--from-traces', 'use the retrieved contexts of production traces in Langfuse as the corpus')
    .option('--since <when>', 'with --from-traces: 30d, 12h, 2w or an ISO date (default: golden.traces.lookbackDays)')
    .option(
      '--dry-run',
      'show the plan (chunks, strata, seeds, questions, requests, what is already done); no judge, no writes',
    )
    .option('--json', 'print the result as JSON')
    .option('--no-progress', NO_PROGRESS_HELP)
    .action(async (flags: BuildFlags, command: Command) => {
      const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
      const corpus = flags.corpus ?? config.golden.corpus;
      const corpusFrom = flags.corpus !== undefined ? '--corpus' : 'golden.corpus';
      if (flags.corpus && flags.fromTraces)
        throw new CliExit(ExitCode.badInput, ['golden build: give --corpus or --from-traces, not both']);
      if (!corpus && !flags.fromTraces)
        throw new CliExit(ExitCode.badInput, [
          'golden build: no corpus: give --corpus DIR (or set golden.corpus), or --from-traces',
        ]);
      const now = ctx.now ?? Date.now;
      const since =
        flags.since === undefined
          ? new Date(now() - config.golden.traces.lookbackDays * 86_400_000)
          : sinceDate(flags.since, now());
      if (since === null)
        throw new CliExit(ExitCode.badInput, [
          `golden build: --since: must be like 30d, 12h, 2w or an ISO date (got "${flags.since}")`,
        ]);
      const names = goldenNames(config.golden);
      const progress = progressFor(ctx, flags, config);
      const store = await openStore(config);
      const cost = emptyCost();
      const controller = new AbortController();
      const disposeSignals = stopSignals(
        () => controller.abort(new Error('interrupted')),
        () => process.exit(130),
      );
      try {
        const fromTraces = !corpus;
        const edges = fromTraces || !flags.dryRun ? await connect(config) : null;
        let chunks: Chunk[];
        let source: string;
        if (corpus) {
          const dir = resolve(ctx.cwd, corpus);
          let read;
          try {
            read = await readCorpusFolder(dir, {
              maxFileBytes: config.golden.maxFileBytes,
              maxCorpusBytes: config.golden.maxCorpusBytes,
              signal: controller.signal,
            });
          } catch (err) {
            if (controller.signal.aborted)
              throw new CliExit(ExitCode.incomplete, [
                'golden build: interrupted while reading the corpus; nothing was written',
              ]);
            throw new CliExit(ExitCode.badInput, [
              `golden build: ${corpusFrom}: cannot read ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err))}`,
            ]);
          }
          for (const p of read.problems.slice(0, 10)) ctx.stderr.write(`corpus: ${p}\n`);
          for (const w of read.warnings.slice(0, 10)) ctx.stderr.write(`corpus: warning: ${w}\n`);
          if (read.warnings.length > 10)
            ctx.stderr.write(`corpus: … and ${read.warnings.length - 10} more front matter warnings\n`);
          if (read.problems.length > 10)
            ctx.stderr.write(`corpus: … and ${read.problems.length - 10} more lines that could not be read\n`);
          chunks = read.chunks;
          const notRead = Object.entries(read.skipped)
            .filter(([, n]) => n > 0)
            .map(([reason, n]) => `${n} ${reason}`);
          source = `${dir} (${read.files} files, ${read.chunks.length} chunks${read.problems.length > 0 ? `, ${read.problems.length} unreadable` : ''}${notRead.length > 0 ? `; files not read: ${notRead.join(', ')}` : ''})`;
        } else {
          const to = new Date(now());
          const got = await chunksFromTraces(edges!.traces, {
            from: since,
            to,
            maxTraces: config.golden.traces.maxTraces,
            progress,
          }).catch((err) => dependencyExit(err, false));
          chunks = got.chunks;
          const skipped = Object.entries(got.skipped)
            .map(([r, n]) => `${n} ${r}`)
            .join(', ');
          source = `retrieved contexts of ${got.traces} traces since ${since.toISOString()}${skipped ? ` (no RAG sample: ${skipped})` : ''}`;
        }
        if (chunks.length === 0)
          throw new CliExit(ExitCode.badInput, [`golden build: the corpus has no chunks (${source})`]);
        const options: BuildOptions = {
          chunks,
          settings: config.golden,
          names,
          budgetTokens: config.metrics.maxContextTokens,
          dryRun: flags.dryRun === true,
          signal: controller.signal,
        };
        let result: BuildResult;
        if (flags.dryRun) {
          const generatorModel = config.golden.generator.model ?? config.judge.model;
          result = (
            await planGoldenBuild(
              { store, personalData: edges?.personalData ?? personalDataCheck(config), cost, generatorModel },
              options,
            )
          ).result;
          if (result.plan.seeds.length === 0) throw noSeedExit(result, config.golden, source);
          // Connected only with --from-traces: a corpus's dry run reads no service.
          const conflict = edges
            ? await edges.queue.conflict(names.queueName).catch((err) => dependencyExit(err, false))
            : null;
          if (conflict) throw conflict;
        } else {
          const deps = buildDeps(config, edges!, { store, progress, clock: { now }, cost });
          result = await runGoldenBuild(deps, options).catch((err) => dependencyExit(err, true));
        }
        progress.end();
        if (result.plan.seeds.length === 0) throw noSeedExit(result, config.golden, source);
        if (flags.json) ctx.stdout.write(`${JSON.stringify(buildJson(result, source), null, 2)}\n`);
        else {
          const lines = flags.dryRun
            ? [
                'plan (dry run: nothing generated, nothing written)',
                ...formatPlan(result, config.golden, names, source),
              ]
            : formatBuild(result, names);
          ctx.stdout.write(`${lines.join('\n')}\n`);
        }
        if (!flags.dryRun && !result.complete) throw new CliExit(ExitCode.incomplete, []);
      } finally {
        disposeSignals();
        progress.end();
        await store.close();
      }
    });

  golden
    .command('review')
    .description(
      "read people's review decisions from the Langfuse annotation queue; with --apply, archive rejected candidates and publish the next version",
    )
    .option('--apply', 'archive the rejected candidates and publish <golden.dataset>-v<N>')
    .option(
      '--unreviewed',
      'with --apply: publish even though nobody has decided on any candidate yet (the version is marked so)',
    )
    .option('--json', 'print the result as JSON')
    .option('--no-progress', NO_PROGRESS_HELP)
    .action(
      async (
        flags: { apply?: boolean; unreviewed?: boolean; json?: boolean; progress?: boolean },
        command: Command,
      ) => {
        const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
        const names = goldenNames(config.golden);
        const progress = progressFor(ctx, flags, config);
        const store = await openStore(config);
        try {
          const edges = await connect(config);
          const result = await applyGoldenReview(
            { datasets: edges.datasets, queue: edges.queue, store, clock: { now: ctx.now ?? Date.now }, progress },
            { settings: config.golden, names, apply: flags.apply === true, unreviewed: flags.unreviewed === true },
          ).catch((err) => dependencyExit(err, false));
          progress.end();
          if (flags.json) ctx.stdout.write(`${JSON.stringify(reviewJson(result), null, 2)}\n`);
          else ctx.stdout.write(`${formatReview(result, names, flags.apply === true).join('\n')}\n`);
          if (result.refused) throw new CliExit(ExitCode.badInput, [`golden review --apply: ${result.refused}`]);
        } finally {
          progress.end();
          await store.close();
        }
      },
    );

  golden
    .command('diff')
    .description(
      'compare two published versions of the golden set: items added, removed and changed, split moves (default: the two latest)',
    )
    .option('--from <dataset>', 'the older version (default: the one before --to)')
    .option('--to <dataset>', 'the newer version (default: the latest)')
    .option('--json', 'print the diff as JSON')
    .action(async (flags: { from?: string; to?: string; json?: boolean }, command: Command) => {
      const config = requireConfig(command, ctx);
      const datasets = langfuseDatasets({ http: langfuseHttpFromConfig(config, langfuseDepsOf(runtimeFor(config))) });
      const versions = await publishedVersions({ datasets }, config.golden.dataset).catch((err) =>
        dependencyExit(err, false),
      );
      const load = async (name: string) => {
        const known = versions.find((v) => v.name === name);
        if (known) return known.items;
        if ((await datasets.metadata(name)) === null)
          throw new CliExit(ExitCode.badInput, [`golden diff: no dataset named ${name}`]);
        return (await datasets.items(name)).map(goldenItemView);
      };
      const toName = flags.to ?? versions.at(-1)?.name;
      const index = versions.findIndex((v) => v.name === toName);
      const fromName = flags.from ?? (index > 0 ? versions[index - 1]!.name : undefined);
      if (!toName || !fromName) {
        throw new CliExit(ExitCode.badInput, [
          `golden diff: need two versions of ${config.golden.dataset} (found ${versions.length}); name them with --from and --to`,
        ]);
      }
      const [from, to] = await Promise.all([load(fromName), load(toName)]).catch((err) => dependencyExit(err, false));
      const diff = diffVersions({ name: fromName, items: from }, { name: toName, items: to });
      ctx.stdout.write(flags.json ? `${JSON.stringify(diff, null, 2)}\n` : `${formatDiff(diff).join('\n')}\n`);
    });
}
