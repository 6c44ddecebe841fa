/**
 * Finds the parts of an evaluation prompt — question, answer, contexts, reference, statements — in the
 * last user message, whether it is labelled text (`question: …`), tagged (`<answer>…</answer>`), headed
 * (`## Context`) or a JSON object. Rules and the schema-driven fallback read requests through this.
 */
import { detectLanguage, sections, splitSentences } from './lexical.js';
import type { JudgeRequest } from './types.js';

export interface PromptParts {
  question?: string;
  answer?: string;
  /** Retrieved contexts, one string per chunk when the prompt separates them. */
  contexts: string[];
  reference?: string;
  /** Statements handed to the judge (a JSON array or one per line), when the prompt carries them. */
  statements?: string[];
  /** Free text to work on when the prompt has no recognised labels (`text:` or the whole message). */
  text: string;
  language: 'es' | 'en';
}

const LABELS = {
  question: ['question', 'pregunta', 'user_input', 'input', 'query', 'consulta'],
  answer: ['answer', 'respuesta', 'response', 'output', 'generated_answer', 'respuesta_generada'],
  context: [
    'contexts',
    'context',
    'contexto',
    'contextos',
    'retrieved_contexts',
    'documents',
    'documentos',
    'chunks',
    'fragmentos',
    'passages',
  ],
  reference: [
    'reference',
    'referencia',
    'ground_truth',
    'expected',
    'expected_output',
    'reference_answer',
    'respuesta_de_referencia',
    'ideal',
  ],
  statements: ['statements', 'claims', 'afirmaciones', 'declaraciones', 'sentences'],
  text: ['text', 'texto'],
} as const;

const ALL_LABELS = new Set<string>(Object.values(LABELS).flat());

/** Whether a message carries recognisable task parts (labelled sections or a JSON object). */
export function hasTaskParts(text: string): boolean {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      JSON.parse(t);
      return true;
    } catch {
      // not JSON: look for labels
    }
  }
  for (const key of sections(text).keys()) if (ALL_LABELS.has(key)) return true;
  return false;
}

/**
 * The user message that carries the task. A trailing follow-up turn — an assistant answer, then a user
 * message without task parts of its own (a client's repair request after an unusable answer) — is skipped,
 * so a retry is judged on the same task as the first attempt.
 */
export function taskMessage(messages: ReadonlyArray<{ role: string; content: string }>): string {
  let end = messages.length - 1;
  while (end >= 2) {
    const last = messages[end]!;
    const previous = messages[end - 1]!;
    const task = messages[end - 2]!;
    if (last.role !== 'user' || previous.role !== 'assistant' || task.role !== 'user') break;
    if (hasTaskParts(last.content) || !hasTaskParts(task.content)) break;
    end -= 2;
  }
  for (let i = end; i >= 0; i--) if (messages[i]!.role === 'user') return messages[i]!.content;
  return '';
}

export function promptParts(request: JudgeRequest): PromptParts {
  const raw = request.lastUser;
  const fromJson = partsFromJson(raw);
  if (fromJson) return fromJson;
  const found = sections(raw);
  const pick = (labels: readonly string[]) => {
    for (const l of labels) {
      const v = found.get(l);
      if (v !== undefined && v !== '') return v;
    }
    return undefined;
  };
  const contextText = pick(LABELS.context);
  const statementsText = pick(LABELS.statements);
  const answer = pick(LABELS.answer);
  const text = pick(LABELS.text) ?? answer ?? raw;
  return {
    question: pick(LABELS.question),
    answer,
    contexts: contextText === undefined ? [] : splitContexts(contextText),
    reference: pick(LABELS.reference),
    statements: statementsText === undefined ? undefined : parseStatements(statementsText),
    text,
    language: detectLanguage(`${answer ?? ''} ${pick(LABELS.question) ?? ''} ${answer === undefined ? raw : ''}`),
  };
}

function partsFromJson(raw: string): PromptParts | undefined {
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const obj = value as Record<string, unknown>;
  const get = (labels: readonly string[]): unknown => {
    for (const l of labels) if (obj[l] !== undefined) return obj[l];
    return undefined;
  };
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const list = (v: unknown): string[] | undefined =>
    Array.isArray(v)
      ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)))
      : typeof v === 'string'
        ? [v]
        : undefined;
  const answer = str(get(LABELS.answer));
  const question = str(get(LABELS.question));
  return {
    question,
    answer,
    contexts: list(get(LABELS.context)) ?? [],
    reference: str(get(LABELS.reference)),
    statements: list(get(LABELS.statements)),
    text: str(get(LABELS.text)) ?? answer ?? trimmed,
    language: detectLanguage(`${answer ?? ''} ${question ?? ''}`),
  };
}

/** Splits numbered or bracketed chunks (`[1] …`, `Context 2: …`, `<chunk>`), else blank-line paragraphs, else one chunk. */
export function splitContexts(text: string): string[] {
  const asJson = tryJsonArray(text);
  if (asJson) return asJson;
  const marked = text.split(
    /\n?\s*(?:\[\s*(?:C|c|chunk\s*|context\s*|contexto\s*)?\d+\s*\]|(?:Context|Contexto|Chunk|Fragmento|Document|Documento)\s*#?\d+\s*:)\s*/,
  );
  const pieces = marked.map((s) => s.trim()).filter((s) => s !== '');
  if (pieces.length > 1) return pieces;
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return paragraphs.length > 0 ? paragraphs : [text.trim()];
}

function parseStatements(text: string): string[] {
  const asJson = tryJsonArray(text);
  if (asJson) return asJson;
  const lines = text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)]|\[\d+\])\s*/, '').trim())
    .filter((l) => l !== '');
  return lines.length > 1 ? lines : splitSentences(text);
}

function tryJsonArray(text: string): string[] | undefined {
  const t = text.trim();
  if (!t.startsWith('[')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    if (!Array.isArray(v)) return undefined;
    return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  } catch {
    return undefined;
  }
}
