import type { Command } from 'commander';
import { createAnonymizer, type Anonymizer } from '../anonymize/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { requireConfig, type CommandContext } from './context.js';

/**
 * `ragwatch anonymize [--format text|jsonl]`: shows operators what the judge will see. Reads stdin, writes stdout.
 * text: the whole input is one text with one mapping. jsonl: one mapping per line; lines are `{id, text}` or
 * `{id, question, answer, contexts, reference?}` and come back with the same keys plus `entities`
 * (and `residual` when something would still block the line from the judge).
 */
export function registerAnonymizeCommand(program: Command, ctx: CommandContext): void {
  program
    .command('anonymize')
    .description('redact personal data from stdin the way ragwatch does before calling the judge')
    .option('--format <format>', 'text (the whole input) or jsonl (one JSON object per line)', 'text')
    .action(async (options: { format: string }, command: Command) => {
      if (options.format !== 'text' && options.format !== 'jsonl') {
        throw new CliExit(ExitCode.badInput, [`anonymize: --format must be text or jsonl (got ${JSON.stringify(options.format)})`]);
      }
      const config = requireConfig(command, ctx);
      const anonymizer = createAnonymizer(config.anonymize);
      const input = await readAll(ctx.stdin);
      if (options.format === 'text') {
        ctx.stdout.write(anonymizer.anonymizeText(input).text);
        return;
      }
      const problems: string[] = [];
      input.split(/\r?\n/).forEach((line, index) => {
        if (line.trim() === '') return;
        const result = anonymizeLine(anonymizer, line);
        if (typeof result === 'string') problems.push(`anonymize: line ${index + 1}: ${result}`);
        else ctx.stdout.write(`${JSON.stringify(result)}\n`);
      });
      if (problems.length > 0) throw new CliExit(ExitCode.badInput, problems);
    });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The anonymized line, or a problem description that never quotes the input (it may hold personal data). */
export function anonymizeLine(anonymizer: Anonymizer, line: string): Record<string, unknown> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return 'not valid JSON';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'expected a JSON object';
  const obj = parsed as Record<string, unknown>;
  if (typeof obj.text === 'string') {
    const { text, entities } = anonymizer.anonymizeText(obj.text);
    return { ...obj, text, entities: entities.map(({ type, field, start, end, score }) => ({ type, field, start, end, score })) };
  }
  if (typeof obj.question !== 'string' || typeof obj.answer !== 'string') return 'expected "text", or "question" and "answer" strings';
  const contexts = obj.contexts ?? [];
  if (!Array.isArray(contexts) || contexts.some((c) => typeof c !== 'string')) return '"contexts" must be an array of strings';
  if (obj.reference !== undefined && typeof obj.reference !== 'string') return '"reference" must be a string';
  const { sample, entities, residual } = anonymizer.anonymizeSample({
    traceId: typeof obj.id === 'string' ? obj.id : String(obj.id ?? ''),
    question: obj.question,
    answer: obj.answer,
    contexts: contexts as string[],
    reference: obj.reference as string | undefined,
    meta: {},
  });
  const out: Record<string, unknown> = { ...obj, question: sample.question, answer: sample.answer, contexts: sample.contexts };
  if (sample.reference !== undefined) out.reference = sample.reference;
  out.entities = entities;
  if (residual.length > 0) out.residual = residual;
  return out;
}
