import type { Command } from 'commander';
import {
  createAnonymizer,
  type Anonymizer,
  type DetectedEntity,
  type FieldText,
  jsonLeaves,
  setOwn,
} from '../anonymize/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { requireConfig, type CommandContext } from './context.js';

/**
 * `ragwatch anonymize [--format text|jsonl]`: shows operators what the judge will see. Reads stdin, writes stdout.
 * text: the whole input is one text with one mapping. jsonl: one mapping per line; lines are `{id, text}` or
 * `{id, question, answer, contexts, reference?}` and come back with the same keys plus `entities`
 * (and `residual` when something would still block the line from the judge). Every string under any other key
 * is anonymized too, with the line's mapping: personal data does not hide in a field ragwatch does not know.
 */
export function registerAnonymizeCommand(program: Command, ctx: CommandContext): void {
  program
    .command('anonymize')
    .description('redact personal data from stdin the way ragwatch does before calling the judge')
    .option(
      '--format <format>',
      'text (the whole input) or jsonl (one JSON object per line: {id, text} or ' +
        '{id, question, answer, contexts, reference?}; every string under any other key is anonymized too, ' +
        'with the same mapping; id is kept as it is)',
      'text',
    )
    .action(async (options: { format: string }, command: Command) => {
      if (options.format !== 'text' && options.format !== 'jsonl') {
        throw new CliExit(ExitCode.badInput, [
          `anonymize: --format must be text or jsonl (got ${JSON.stringify(options.format)})`,
        ]);
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

/** Keys a line's shape documents; every other key's strings are anonymized as `extra` fields. */
const TEXT_KEYS = new Set(['id', 'text', 'entities', 'residual']);
const SAMPLE_KEYS = new Set(['id', 'question', 'answer', 'contexts', 'reference', 'entities', 'residual']);

function extraOf(obj: Record<string, unknown>, documented: ReadonlySet<string>): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (!documented.has(k)) setOwn(extra, k, v);
  return extra;
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
    const extra = jsonLeaves(extraOf(obj, TEXT_KEYS));
    const result = anonymizer.anonymizeFields([{ field: 'text', text: obj.text }, ...extra.fields]);
    const [text, ...rest] = result.texts;
    return withFindings({ ...obj, ...(extra.rebuild(rest) as object), text }, result.entities, result.residual);
  }
  if (typeof obj.question !== 'string' || typeof obj.answer !== 'string')
    return 'expected "text", or "question" and "answer" strings';
  const contexts = obj.contexts ?? [];
  if (!Array.isArray(contexts) || contexts.some((c) => typeof c !== 'string'))
    return '"contexts" must be an array of strings';
  if (obj.reference !== undefined && typeof obj.reference !== 'string') return '"reference" must be a string';
  const reference = obj.reference as string | undefined;
  // The fields and their order are anonymizeSample's, so documented fields get the placeholders they always got.
  const documented: FieldText[] = [
    { field: 'question', text: obj.question },
    { field: 'answer', text: obj.answer },
    ...(contexts as string[]).map((text, i) => ({ field: `contexts[${i}]`, text })),
    ...(reference === undefined ? [] : [{ field: 'reference', text: reference }]),
  ];
  const extra = jsonLeaves(extraOf(obj, SAMPLE_KEYS));
  const result = anonymizer.anonymizeFields([...documented, ...extra.fields]);
  const texts = result.texts;
  const out: Record<string, unknown> = { ...obj, ...(extra.rebuild(texts.slice(documented.length)) as object) };
  out.question = texts[0];
  out.answer = texts[1];
  out.contexts = texts.slice(2, 2 + contexts.length);
  if (reference !== undefined) out.reference = texts[2 + contexts.length];
  return withFindings(out, result.entities, result.residual);
}

function withFindings(
  out: Record<string, unknown>,
  entities: DetectedEntity[],
  residual: DetectedEntity[],
): Record<string, unknown> {
  out.entities = entities.map(({ type, field, start, end, score }) => ({ type, field, start, end, score }));
  if (residual.length > 0) out.residual = residual;
  else delete out.residual;
  return out;
}
