import type { ObservationRecord, TraceRecord } from '../langfuse/types.js';
import { environmentOf } from '../langfuse/normalize.js';
import { chunksFrom, dedupeChunks } from './chunks.js';
import { embeddedContexts, questionAfterMarker } from './embedded.js';
import { resolveMapped } from './mapping.js';
import { classify, describe, retrievalChunks, type Classified } from './observations.js';
import { answerFrom, lastUserText, questionFrom } from './text-fields.js';
import type { ExtractMapping, ExtractResult } from './types.js';
import { asMessages, contentText, isObj, messageRole, messageText, parsed } from './values.js';

/** Keys under which integrations pass retrieved context along to the next step. */
const CONTEXT_KEYS = [
  'context', 'contexts', 'documents', 'docs', 'source_documents', 'sourceDocuments', 'source_nodes', 'sourceNodes',
  'retrieved_contexts', 'retrieved_documents', 'retrieved_docs', 'retrievedDocuments', 'retrieved_chunks', 'chunks', 'passages',
];

type Found<T> = { value: T; source: string; observationIds: string[] };

/**
 * Turns a fetched trace into a RAG sample (question, answer, retrieved contexts), or says why it cannot.
 * Auto-detects the shapes of the common integrations; an explicit `mapping` (config `online.extract`) wins
 * for each field it names.
 */
export function extractRagSample(trace: TraceRecord, mapping?: ExtractMapping): ExtractResult {
  const record = normaliseTrace(trace);
  if (!record) return { ok: false, reason: 'malformed_trace', detail: 'not a trace record (needs an id and a list of observations)' };
  const c = classify(record.observations);

  let contexts: Found<string[]> | null;
  if (mapping?.contexts) {
    const m = resolveMapped(record, mapping.contexts);
    contexts = m ? { value: dedupeChunks(m.values.flatMap((v) => chunksFrom(v))), source: m.source, observationIds: m.observationIds } : null;
    if (!contexts || contexts.value.length === 0) return { ok: false, reason: 'no_contexts', detail: `mapping ${describeMapping(mapping.contexts)} found no contexts` };
  } else {
    const auto = findContexts(record, c);
    if (auto.kind === 'none') return { ok: false, reason: 'not_rag', detail: 'no retrieval and no context in the prompt' };
    if (auto.kind === 'empty') return { ok: false, reason: 'no_contexts', detail: `retrieval returned nothing (${auto.source})` };
    contexts = auto.found;
  }

  let answer: Found<string> | null;
  if (mapping?.answer) {
    const m = resolveMapped(record, mapping.answer);
    const value = m ? lastNonNull(m.values.map((v) => answerFrom(v))) : null;
    answer = m && value ? { value, source: m.source, observationIds: m.observationIds } : null;
    if (!answer) return { ok: false, reason: 'no_answer', detail: `mapping ${describeMapping(mapping.answer)} found no answer` };
  } else {
    answer = findAnswer(record, c);
    if (!answer) return { ok: false, reason: 'no_answer' };
  }

  let question: Found<string> | null;
  if (mapping?.question) {
    const m = resolveMapped(record, mapping.question);
    const value = m ? firstNonNull(m.values.map((v) => questionFrom(v))) : null;
    question = m && value ? { value: cleanQuestion(value), source: m.source, observationIds: m.observationIds } : null;
    if (!question) return { ok: false, reason: 'no_question', detail: `mapping ${describeMapping(mapping.question)} found no question` };
  } else {
    question = findQuestion(record, c, answer);
    if (!question) return { ok: false, reason: 'no_question' };
  }

  const shape = `question=${question.source};answer=${answer.source};contexts=${contexts.source}`;
  return {
    ok: true,
    shape,
    sample: {
      traceId: record.id,
      question: question.value,
      answer: answer.value,
      contexts: contexts.value,
      meta: {
        extraction: shape,
        traceName: record.name,
        traceTimestamp: record.timestamp,
        environment: record.environment,
        observationIds: { question: question.observationIds, answer: answer.observationIds, contexts: contexts.observationIds },
      },
    },
  };
}

type ContextSearch = { kind: 'found'; found: Found<string[]> } | { kind: 'empty'; source: string } | { kind: 'none' };

function findContexts(trace: TraceRecord, c: Classified): ContextSearch {
  // 1. What the retrievers returned, in retrieval order.
  if (c.retrievals.length > 0) {
    const used = c.retrievals.map((o) => ({ o, chunks: retrievalChunks(o) }));
    const chunks = dedupeChunks(used.flatMap((u) => u.chunks));
    const contributing = used.filter((u) => u.chunks.length > 0).map((u) => u.o);
    const source = sourceOf(contributing.length > 0 ? contributing : c.retrievals);
    if (chunks.length > 0) return { kind: 'found', found: { value: chunks, source, observationIds: contributing.map((o) => o.id) } };
    const fallback = contextsPassedAlong(trace, c) ?? contextsInPrompt(c);
    return fallback ? { kind: 'found', found: fallback } : { kind: 'empty', source };
  }
  // 2. Contexts handed from step to step under a context key ({context: [...], question}).
  // 3. Contexts pasted into the prompt of the generation.
  const found = contextsPassedAlong(trace, c) ?? contextsInPrompt(c);
  return found ? { kind: 'found', found } : { kind: 'none' };
}

function contextsPassedAlong(trace: TraceRecord, c: Classified): Found<string[]> | null {
  const holders: Array<{ value: unknown; source: string; id?: string }> = [
    { value: trace.input, source: 'trace.input' },
    { value: trace.output, source: 'trace.output' },
  ];
  const generations = new Set(c.generations);
  for (const o of c.ordered) {
    if (o.type === 'EMBEDDING' || generations.has(o)) continue;
    holders.push({ value: o.input, source: `${describe(o)}.input`, id: o.id }, { value: o.output, source: `${describe(o)}.output`, id: o.id });
  }
  for (const h of holders) {
    const v = parsed(h.value);
    if (!isObj(v)) continue;
    for (const key of CONTEXT_KEYS) {
      if (v[key] === undefined) continue;
      const chunks = dedupeChunks(chunksFrom(v[key]));
      if (chunks.length > 0) return { value: chunks, source: `${h.source}.${key}`, observationIds: h.id ? [h.id] : [] };
    }
  }
  return null;
}

function contextsInPrompt(c: Classified): Found<string[]> | null {
  for (const g of [...c.generations].reverse()) {
    for (const text of promptTexts(g.input)) {
      const found = embeddedContexts(text);
      if (found && found.contexts.length > 0) return { value: dedupeChunks(found.contexts), source: `prompt:${g.name ?? g.id}`, observationIds: [g.id] };
    }
  }
  return null;
}

/** System and user texts of a prompt (messages or a plain completion prompt), system first. */
function promptTexts(input: unknown): string[] {
  const messages = asMessages(input);
  if (messages) {
    const system = messages.filter((m) => messageRole(m) === 'system');
    const user = messages.filter((m) => messageRole(m) === 'user');
    return [...system, ...user].map((m) => messageText(m)).filter((t): t is string => t !== null);
  }
  const v = parsed(input);
  if (typeof v === 'string') return [v];
  if (isObj(v)) {
    const prompt = contentText(v.prompt ?? v.input);
    if (prompt) return [prompt];
  }
  return [];
}

function findAnswer(trace: TraceRecord, c: Classified): Found<string> | null {
  const fromTrace = answerFrom(trace.output);
  if (fromTrace) return { value: fromTrace, source: 'trace.output', observationIds: [] };
  for (const g of [...c.generations].reverse()) {
    const a = answerFrom(g.output);
    if (a) return { value: a, source: describe(g), observationIds: [g.id] };
  }
  // Traces whose answer only sits on an inner span: the shallowest, latest span that reads as an answer.
  const spans = candidates(c).sort((a, b) => (c.depth.get(a.id) ?? 0) - (c.depth.get(b.id) ?? 0) || Date.parse(b.startTime) - Date.parse(a.startTime));
  for (const o of spans) {
    const a = answerFrom(o.output);
    if (a) return { value: a, source: describe(o), observationIds: [o.id] };
  }
  return null;
}

function findQuestion(trace: TraceRecord, c: Classified, answer: Found<string>): Found<string> | null {
  const fromTrace = questionFrom(trace.input);
  if (fromTrace) return { value: cleanQuestion(fromTrace), source: 'trace.input', observationIds: [] };
  const spans = candidates(c).sort((a, b) => (c.depth.get(a.id) ?? 0) - (c.depth.get(b.id) ?? 0) || Date.parse(a.startTime) - Date.parse(b.startTime));
  for (const o of spans) {
    const q = questionFrom(o.input);
    if (q) return { value: cleanQuestion(q), source: `${describe(o)}.input`, observationIds: [o.id] };
  }
  const answering = c.generations.find((g) => answer.observationIds.includes(g.id)) ?? c.generations[0];
  const generations = answering ? [answering, ...c.generations.filter((g) => g !== answering)] : c.generations;
  for (const g of generations) {
    const messages = asMessages(g.input);
    const q = messages ? lastUserText(messages) : questionFrom(g.input);
    if (q) return { value: cleanQuestion(q), source: `${describe(g)}.input`, observationIds: [g.id] };
  }
  for (const r of c.retrievals) {
    const q = questionFrom(r.input);
    if (q) return { value: cleanQuestion(q), source: `${describe(r)}.input`, observationIds: [r.id] };
  }
  return null;
}

/** Observations that may carry question or answer: not retrievals, generations, embeddings or events. */
function candidates(c: Classified): ObservationRecord[] {
  const excluded = new Set([...c.retrievals, ...c.generations]);
  return c.ordered.filter((o) => !excluded.has(o) && !['EMBEDDING', 'EVENT', 'EVALUATOR', 'GUARDRAIL'].includes(o.type));
}

/** A question that arrived as a whole prompt: keep what follows "Question:", or what is left without the context block. */
function cleanQuestion(text: string): string {
  const marked = questionAfterMarker(text);
  if (marked && marked.length < text.length) return marked;
  const embedded = embeddedContexts(text);
  if (embedded && embedded.rest.length > 0) return embedded.rest;
  return text;
}

function sourceOf(observations: ObservationRecord[]): string {
  const first = observations[0] as ObservationRecord;
  const name = first.type === 'RETRIEVER' ? `retriever:${first.name ?? first.id}` : `retrieval-${describe(first)}`;
  return observations.length > 1 ? `${name}(+${observations.length - 1})` : name;
}

function describeMapping(m: { observation?: string; type?: string; path: string }): string {
  return [m.observation && `observation=${m.observation}`, m.type && `type=${m.type}`, `path=${m.path}`].filter(Boolean).join(' ');
}

function firstNonNull<T>(values: Array<T | null>): T | null {
  return values.find((v): v is T => v !== null) ?? null;
}

function lastNonNull<T>(values: Array<T | null>): T | null {
  return [...values].reverse().find((v): v is T => v !== null) ?? null;
}

/** Accepts a `TraceRecord` or the v3 API's trace JSON as it arrives; `null` when it is not a trace. */
function normaliseTrace(raw: unknown): TraceRecord | null {
  if (!isObj(raw) || typeof raw.id !== 'string' || raw.id.length === 0) return null;
  if (raw.observations !== undefined && !Array.isArray(raw.observations)) return null;
  const observations: ObservationRecord[] = [];
  for (const o of (raw.observations as unknown[] | undefined) ?? []) {
    if (!isObj(o) || typeof o.id !== 'string') return null;
    observations.push({
      id: o.id,
      parentObservationId: typeof o.parentObservationId === 'string' ? o.parentObservationId : null,
      type: typeof o.type === 'string' ? o.type.toUpperCase() : 'SPAN',
      name: typeof o.name === 'string' ? o.name : null,
      startTime: typeof o.startTime === 'string' ? o.startTime : '',
      input: parsed(o.input),
      output: parsed(o.output),
      metadata: parsed(o.metadata),
    });
  }
  const order = observations.map((o, i) => ({ o, i, t: Date.parse(o.startTime) }));
  order.sort((a, b) => (Number.isNaN(a.t) || Number.isNaN(b.t) || a.t === b.t ? a.i - b.i : a.t - b.t));
  return {
    id: raw.id,
    name: typeof raw.name === 'string' ? raw.name : null,
    timestamp: typeof raw.timestamp === 'string' ? raw.timestamp : '',
    environment: environmentOf(raw.environment),
    input: parsed(raw.input),
    output: parsed(raw.output),
    metadata: parsed(raw.metadata),
    tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : [],
    observations: order.map((x) => x.o),
  };
}

