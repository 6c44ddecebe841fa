/**
 * `ragwatch evaluate --input samples.jsonl [--metrics a,b] [--output results.jsonl] [--no-anonymize]`:
 * scores a JSONL file of RAG samples with the configured judge — how operators try their own vLLM model on
 * their own data. Exit 0 when every sample was scored or not scorable, 3 when some metric failed, 2 when a
 * line is malformed (each named by number; every other line is still scored and written).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { createAnonymizer } from '../anonymize/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { judgeClientsFromConfig, judgeDepsOf } from '../judge/index.js';
import {
  parseInputLines,
  recordToJson,
  scoreBatch,
  PII_RESIDUAL,
  renderSummary,
  summarise,
  allMetricNames,
  parseMetricList,
  type MetricName,
} from '../metrics/index.js';
import type { RagSample } from '../sample.js';
import { countingJudge } from '../progress/index.js';
import { isCredentialsKind } from '../errors.js';
import { credentialsLine } from '../service/index.js';
import { requireConfig, runtimeFor, type CommandContext } from './context.js';
import { NO_PROGRESS_HELP, progressFor } from './progress-option.js';

/** The four RAGAS metrics of the seeds; noise sensitivity on request. */
const DEFAULT_METRICS: MetricName[] = ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall'];

interface EvaluateOptions {
  input: string;
  metrics?: string;
  output?: string;
  anonymize: boolean;
  progress?: boolean;
}

async function readInput(path: string, ctx: CommandContext): Promise<string> {
  if (path === '-') {
    let text = '';
    for await (const chunk of ctx.stdin)
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    return text;
  }
  try {
    return await readFile(resolve(ctx.cwd, path), 'utf8');
  } catch (err) {
    throw new CliExit(ExitCode.badInput, [
      `evaluate: --input: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    ]);
  }
}

const OPEN_PROBLEMS: Record<string, string> = {
  ENOENT: 'the directory does not exist',
  ENOTDIR: 'a parent is not a directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
};

/** Opens `--output` for writing before anything is scored, so a path that cannot be written costs no judge call. */
async function openOutput(path: string, ctx: CommandContext): Promise<NodeJS.WritableStream> {
  const stream = createWriteStream(resolve(ctx.cwd, path), { encoding: 'utf8' });
  try {
    await once(stream, 'open');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new CliExit(ExitCode.badInput, [`evaluate: cannot write --output ${path}: ${OPEN_PROBLEMS[code] ?? code}`]);
  }
  return stream;
}

export function registerEvaluateCommand(program: Command, ctx: CommandContext): void {
  program
    .command('evaluate')
    .description(
      'score a JSONL file of RAG samples ({id?, question, answer, contexts, reference?, language?} per line) with the configured judge',
    )
    .requiredOption('-i, --input <file>', 'JSONL input ("-" for stdin)')
    .option('-m, --metrics <list>', `comma-separated metrics (default ${DEFAULT_METRICS.join(',')})`)
    .option(
      '-o, --output <file>',
      'write one JSON result line per sample here (default: stdout, with the summary on stderr)',
    )
    .option('--no-anonymize', 'send the texts to the judge as they are (anonymization is on by default)')
    .option('--no-progress', NO_PROGRESS_HELP)
    .action(async (options: EvaluateOptions, command: Command) => {
      const config = requireConfig(command, ctx);
      let metrics = DEFAULT_METRICS;
      if (options.metrics !== undefined) {
        const parsed = parseMetricList(options.metrics);
        if (parsed.unknown.length > 0 || parsed.metrics.length === 0) {
          throw new CliExit(ExitCode.badInput, [
            `evaluate: unknown metric ${parsed.unknown.join(', ') || '(none given)'}; known: ${allMetricNames().join(', ')}`,
          ]);
        }
        metrics = parsed.metrics;
      }
      const lines = parseInputLines(await readInput(options.input, ctx));
      const malformed = lines.flatMap((l) =>
        'error' in l ? [`evaluate: ${options.input} line ${l.line}: ${l.error}`] : [],
      );
      for (const m of malformed) ctx.stderr.write(`${m}\n`);
      const samples = lines.flatMap((l): RagSample[] => ('sample' in l ? [l.sample] : []));

      const runtime = runtimeFor(config);
      const { logger } = runtime;
      const progress = progressFor(ctx, options, config);
      const clients = judgeClientsFromConfig(config, judgeDepsOf(runtime));
      const judge = countingJudge(clients.judge, progress);
      const { embeddings } = clients;
      const anonymize = options.anonymize && config.anonymize.enabled;
      const anonymizer = anonymize ? createAnonymizer(config.anonymize) : undefined;
      const toFile = options.output !== undefined;
      const out = toFile ? await openOutput(options.output as string, ctx) : ctx.stdout;
      const report = toFile ? ctx.stdout : ctx.stderr;

      progress.stage('evaluate', { total: samples.length, unit: 'samples' });
      let records;
      try {
        records = await scoreBatch(
          samples,
          metrics,
          {
            judge,
            embeddings,
            options: config.metrics,
            logger,
            concurrency: config.judge.concurrency,
            ...(anonymizer ? { anonymizer } : {}),
          },
          (record) => {
            out.write(`${JSON.stringify(recordToJson(record))}\n`);
            progress.advance();
          },
        );
      } finally {
        progress.end();
      }
      if (toFile)
        await new Promise<void>((done, fail) =>
          (out as NodeJS.WritableStream).end((err?: Error | null) => (err ? fail(err) : done())),
        );

      const rows = summarise(
        metrics,
        records.map((r) => r.results),
      );
      const piiBlocked = records.filter((r) =>
        r.results.some((x) => x.status === 'not_scorable' && x.reason === PII_RESIDUAL),
      ).length;
      report.write(
        `${anonymize ? '' : 'anonymization off: texts were sent to the judge as they are\n'}${renderSummary(rows, { samples: samples.length, malformed: malformed.length, piiBlocked })}`,
      );

      if (malformed.length > 0)
        throw new CliExit(ExitCode.badInput, [
          `evaluate: ${malformed.length} malformed line${malformed.length === 1 ? '' : 's'} (${lines
            .filter((l) => 'error' in l)
            .map((l) => l.line)
            .join(', ')}); every other line was scored`,
        ]);
      const refused = records
        .flatMap((r) => r.results)
        .find((x) => x.status === 'failed' && x.dependency === 'judge' && isCredentialsKind(x.kind));
      if (refused?.status === 'failed') throw new CliExit(ExitCode.badInput, [credentialsLine('judge', refused.kind)]);
      const failed = rows.reduce((n, r) => n + r.failed, 0);
      if (failed > 0)
        throw new CliExit(ExitCode.incomplete, [
          `evaluate: ${failed} metric result${failed === 1 ? '' : 's'} failed (judge unreachable or unusable answers); see the result lines`,
        ]);
    });
}
