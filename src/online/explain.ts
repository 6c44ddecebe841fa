/**
 * `sample --trace ID`: why a trace got its scores. What the judge was given (anonymized and cut to the token
 * budgets, cuts marked), each metric's result, and each judge call with its parsed answer: claims and
 * verdicts, generated questions and noncommittal flags. The prompt is printed once (`--show-prompts`: all).
 */
import type { JudgeCallRecord } from '../judge-calls/index.js';
import { CUT_MARKER, type PreparedSample, type MetricResult } from '../metrics/index.js';
import type { OneTraceResult } from './one-trace.js';
import { readCutNote } from '../scores/index.js';

export interface ExplainOptions {
  dryRun: boolean;
  /** Every call's prompt in full, not only the first one. */
  showPrompts: boolean;
}

const fixed = (n: number) => n.toFixed(3);
const count = (n: number) => n.toLocaleString('en-US');

/** Which budget each field is cut to, named as the configuration names it. */
const BUDGET_KEYS: Record<keyof PreparedSample['truncated'], string> = {
  question: 'metrics.maxQuestionTokens',
  answer: 'metrics.maxAnswerTokens',
  contexts: 'metrics.maxContextTokens',
  reference: 'metrics.maxReferenceTokens',
};

export function formatOneTrace(result: OneTraceResult, given: PreparedSample | null, options: ExplainOptions): string {
  if (!result.found) return `trace ${result.traceId}: not found in Langfuse (or not readable yet)\n`;
  const lines: string[] = [];
  lines.push(
    `trace ${result.traceId}  name=${result.trace?.name ?? '(none)'}  timestamp=${result.trace?.timestamp}  environment=${result.trace?.environment}`,
  );
  const readCut = result.trace?.readCut;
  if (readCut) {
    const limits = `langfuse.maxTraceBytes ${count(readCut.maxTraceBytes)}, maxFieldBytes ${count(readCut.maxFieldBytes)}`;
    lines.push(`read: ${readCutNote(readCut).slice(1, -1)} (${limits})`);
  }
  if (result.view && given) {
    lines.push(`extracted (${result.view.shape}); ${result.view.entities} personal-data entities replaced`);
    lines.push(...givenLines(given));
  }
  const outcome = result.outcome;
  if (outcome?.kind === 'skipped') lines.push(`skipped: ${outcome.reason}`);
  if (outcome?.kind === 'failed') lines.push(`failed: ${outcome.failure.code}`);
  if (result.results && result.results.length > 0) lines.push('', 'scores:', ...result.results.map(resultLine));
  if (outcome?.kind === 'done') {
    lines.push(
      options.dryRun
        ? 'dry run: no score written'
        : `written: ${outcome.scoreIds.length} score(s) (${outcome.scoreIds.join(', ')})`,
    );
  }
  const calls = result.calls ?? [];
  if (calls.length > 0)
    lines.push('', `judge calls (${calls.length}):`, ...callLines(calls, result.results ?? [], options.showPrompts));
  if (result.ledger)
    lines.push(
      '',
      `ledger: ${result.ledger.status}${result.ledger.reason ? ` (${result.ledger.reason})` : ''}, attempts ${result.ledger.attempts}`,
    );
  return `${lines.join('\n')}\n`;
}

/** The JSON of `sample --trace --json`: what was given to the judge, never the raw trace texts. */
export function oneTraceJson(result: OneTraceResult, given: PreparedSample | null): Record<string, unknown> {
  const { view, calls, ...rest } = result;
  return {
    ...rest,
    ...(view ? { view: { shape: view.shape, entities: view.entities, given } } : {}),
    judgeCalls: calls ?? [],
  };
}

function givenLines(s: PreparedSample): string[] {
  const cut = (field: keyof PreparedSample['truncated']) => {
    const t = s.truncated[field];
    return t ? `  (cut: ${count(t.originalTokens)} → ${count(t.keptTokens)} tokens, ${BUDGET_KEYS[field]})` : '';
  };
  const lines = [
    `what the judge was given (anonymized, cut to the token budgets; a cut ends with "${CUT_MARKER.trim()}"), prompts in ${s.language}:`,
    `  question: ${s.question}${cut('question')}`,
    `  answer:   ${s.answer}${cut('answer')}`,
  ];
  lines.push(...contextLines(s.contexts, s.truncated.contexts?.droppedChunks ?? 0));
  if (s.truncated.contexts) lines.push(`  contexts${cut('contexts')}`);
  if (s.reference !== undefined) lines.push(`  reference: ${s.reference}${cut('reference')}`);
  return lines;
}

/**
 * One line per chunk sent (a run of empty chunks is one line), then the chunks the context budget left out: it
 * sends whole leading chunks and never empties one (metrics/budget.ts).
 */
function contextLines(contexts: readonly string[], dropped: number): string[] {
  const lines: string[] = [];
  const empty = (c: string) => c.trim() === '';
  for (let i = 0; i < contexts.length;) {
    let j = i;
    while (j < contexts.length && empty(contexts[j]!)) j += 1;
    if (j - i >= 2) {
      lines.push(`  context[${i + 1}..${j}]: ${count(j - i)} empty chunks`);
      i = j;
      continue;
    }
    lines.push(`  context[${i + 1}]: ${contexts[i]}`);
    i += 1;
  }
  if (dropped > 0) {
    const from = contexts.length + 1;
    const to = contexts.length + dropped;
    lines.push(
      `  context[${from}${to > from ? `..${to}` : ''}]: ${count(dropped)} chunk${dropped === 1 ? '' : 's'} left out by the budget`,
    );
  }
  if (contexts.length === 0 && dropped === 0) lines.push('  contexts: (none)');
  return lines;
}

function resultLine(r: MetricResult): string {
  if (r.status === 'scored') return `  ${r.metric} = ${fixed(r.value)}  ${r.reason}`;
  if (r.status === 'not_scorable') return `  ${r.metric}: not scorable (${r.reason}); no score written`;
  return `  ${r.metric}: failed (${r.error})`;
}

function callLines(
  calls: readonly JudgeCallRecord[],
  results: readonly MetricResult[],
  showPrompts: boolean,
): string[] {
  const lines: string[] = [];
  const cosines = questionCosines(results);
  const printed = new Map<string, string>();
  calls.forEach((call, i) => {
    lines.push(`--- ${call.name}${usageText(call)}`);
    if (call.error) lines.push(`  no usable answer: ${call.error.kind}: ${call.error.message}`);
    else lines.push(...answerLines(call.value, cosines));
    const full = showPrompts || i === 0;
    for (const m of call.messages) {
      const seen = printed.get(m.content);
      if (full && (showPrompts || seen === undefined)) {
        lines.push(`  [${m.role}] ${m.content}`);
        printed.set(m.content, call.name);
      } else if (seen !== undefined) lines.push(`  [${m.role}] (the same as in ${seen} above)`);
      else lines.push(`  [${m.role}] (${count(m.content.length)} characters; --show-prompts prints every prompt)`);
    }
  });
  return lines;
}

function usageText(call: JudgeCallRecord): string {
  const u = call.usage;
  const ms = u?.latencyMs ?? (call.endedAt !== undefined ? call.endedAt - call.startedAt : undefined);
  const parts: string[] = [];
  if (u)
    parts.push(
      `${u.calls} attempt${u.calls === 1 ? '' : 's'}`,
      `${count(u.promptTokens)} prompt + ${count(u.completionTokens)} completion tokens`,
    );
  if (ms !== undefined) parts.push(`${Math.round(ms)} ms`);
  return parts.length > 0 ? `  (${parts.join(', ')})` : '';
}

type Row = Record<string, unknown>;
const isRows = (v: unknown, key: string): v is Row[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && key in x);
const chunkRefs = (chunks: unknown) =>
  Array.isArray(chunks) && chunks.length > 0 ? `  (chunk${chunks.length === 1 ? '' : 's'} ${chunks.join(', ')})` : '';

/** The parsed answer, read: claims and verdicts, generated questions, per-chunk or per-claim verdicts. */
function answerLines(answer: unknown, cosines: ReadonlyMap<string, number>): string[] {
  // Claims and statements come as { items, resolved } (what the parser dropped); the rows are what to show.
  const value = isResolvedRows(answer) ? answer.items : answer;
  const resolved = isResolvedRows(answer) ? resolvedLine(answer.resolved) : [];
  return [...rowLines(value, cosines), ...resolved];
}

const isResolvedRows = (v: unknown): v is { items: unknown[]; resolved: { blank?: unknown; repeated?: unknown } } =>
  typeof v === 'object' &&
  v !== null &&
  Array.isArray((v as { items?: unknown }).items) &&
  typeof (v as { resolved?: unknown }).resolved === 'object';

function resolvedLine(r: { blank?: unknown; repeated?: unknown }): string[] {
  const blank = typeof r.blank === 'number' ? r.blank : 0;
  const repeated = typeof r.repeated === 'number' ? r.repeated : 0;
  return blank + repeated > 0 ? [`  dropped by the parser: ${blank} blank, ${repeated} repeated`] : [];
}

function rowLines(value: unknown, cosines: ReadonlyMap<string, number>): string[] {
  if (isRows(value, 'claim')) {
    return [
      `  claims (${value.length}):`,
      ...value.map(
        (c) => `    ${c.supported ? 'supported  ' : 'UNSUPPORTED'}  ${String(c.claim)}${chunkRefs(c.chunks)}`,
      ),
    ];
  }
  if (isRows(value, 'question')) {
    return [
      `  generated questions (${value.length}):`,
      ...value.map((q) => {
        const cosine = cosines.get(String(q.question));
        const flags = [
          q.noncommittal ? 'noncommittal' : 'committal',
          ...(cosine !== undefined ? [`cosine ${cosine.toFixed(2)}`] : []),
        ];
        return `    ${String(q.question)}  [${flags.join(', ')}]`;
      }),
    ];
  }
  if (isRows(value, 'statement')) {
    return [
      `  statements (${value.length}):`,
      ...value.map(
        (s) => `    ${s.attributed ? 'attributed  ' : 'UNATTRIBUTED'}  ${String(s.statement)}${chunkRefs(s.chunks)}`,
      ),
    ];
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'boolean')) {
    return [`  verdicts: ${value.map((v, i) => `[${i + 1}] ${v ? 'yes' : 'no'}`).join('  ')}`];
  }
  return [`  answer: ${JSON.stringify(value)}`];
}

/** Answer relevancy's cosine per generated question, from its result's details. */
function questionCosines(results: readonly MetricResult[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of results) {
    if (r.status !== 'scored') continue;
    const questions = r.details.questions;
    if (!isRows(questions, 'question')) continue;
    for (const q of questions) if (typeof q.cosine === 'number') out.set(String(q.question), q.cosine);
  }
  return out;
}
