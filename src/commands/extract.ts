import type { Command } from 'commander';
import { createAnonymizer } from '../anonymize/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { extractRagSample, mappingProblems, extractReport, formatExtractReport } from '../extract/index.js';
import { connectLangfuse, langfuseDepsOf } from '../langfuse/index.js';
import { startupFailureExit } from '../service/index.js';
import { requireConfig, runtimeFor, type CommandContext } from './context.js';

interface ExtractOptions {
  trace?: string;
  ignoreMapping?: boolean;
  json?: boolean;
}

/**
 * `ragwatch extract --trace ID`: reads one trace from Langfuse and shows what extraction makes of it, the
 * rule behind each part or why the trace is skipped, and the trace's observations as a map for an
 * `online.extract` mapping. Nothing is scored or written; texts are shown anonymized.
 */
export function registerExtractCommand(program: Command, ctx: CommandContext): void {
  program
    .command('extract')
    .description('show how one trace is read: the rule behind question, answer and contexts, or why it is skipped')
    .requiredOption('--trace <id>', 'the Langfuse trace id')
    .option('--ignore-mapping', 'auto-detect every part even when online.extract is configured')
    .option('--json', 'print JSON')
    .action(async (options: ExtractOptions, command: Command) => {
      const traceId = options.trace?.trim() ?? '';
      if (!traceId) throw new CliExit(ExitCode.badInput, ['extract: --trace needs a trace id']);
      const config = requireConfig(command, ctx);
      const configured = config.online.extract;
      const hasMapping = Boolean(configured && (configured.question || configured.answer || configured.contexts));
      const mapping = options.ignoreMapping ? undefined : configured;
      if (mapping) {
        const problems = mappingProblems(mapping);
        if (problems.length > 0) throw new CliExit(ExitCode.badInput, problems);
      }
      let langfuse;
      try {
        langfuse = await connectLangfuse(config, langfuseDepsOf(runtimeFor(config)));
      } catch (err) {
        throw startupFailureExit(err);
      }
      let trace;
      try {
        trace = await langfuse.getTrace(traceId);
      } catch (err) {
        throw startupFailureExit(err);
      }
      if (!trace) throw new CliExit(ExitCode.badInput, [`extract: trace ${traceId} not found`]);
      const outcome = extractRagSample(trace, mapping);
      const report = extractReport(trace, outcome);
      const anonymized = outcome.ok
        ? createAnonymizer(config.anonymize).anonymizeSample(outcome.sample).sample
        : undefined;
      const mappingState = !hasMapping ? 'none' : options.ignoreMapping ? 'ignored (--ignore-mapping)' : 'configured';
      const view = { apiGeneration: langfuse.generation, mapping: mappingState, ...(anonymized ? { anonymized } : {}) };
      if (options.json) {
        // The sample appears only anonymized: the outcome keeps its rules and sources, not the texts.
        const { outcome: o, ...rest } = report;
        const outcomeJson = o.ok ? { ok: true, shape: o.shape, parts: o.parts } : o;
        const result = o.ok ? 'extracted' : 'skipped';
        ctx.stdout.write(`${JSON.stringify({ ...rest, ...view, result, outcome: outcomeJson }, null, 2)}\n`);
      } else {
        ctx.stdout.write(formatExtractReport(report, view));
      }
    });
}
