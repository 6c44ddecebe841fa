import { traceNameKey } from '../internal/index.js';
import { type ObservationRecord, type TraceRecord, environmentOf } from '../langfuse/index.js';
import { chunksFrom, dedupeChunks } from './chunks.js';
import { findContexts, type Found } from './contexts.js';
import { resolveMapped, type FieldMapping } from './mapping.js';
import { classify, describe, type Classified } from './observations.js';
import { cleanQuestion, findAnswer, findQuestion, type FoundText } from './question-answer.js';
import { answerFrom, questionFrom } from './text-fields.js';
import type { ExtractMapping, ExtractResult, SkipReason } from './types.js';
import { isObj, parsed } from './values.js';

/**
 * Turns a fetched trace into a RAG sample (question, answer, retrieved contexts), or says why it cannot.
 * Auto-detects the shapes of the common integrations; an explicit `mapping` (config `online.extract`) wins
 * for each field it names. The result names the rule that found each part; a skip lists what was looked at.
 */
export function extractRagSample(trace: TraceRecord, mapping?: ExtractMapping): ExtractResult {
  const record = normaliseTrace(trace);
  if (!record)
    return {
      ok: false,
      reason: 'malformed_trace',
      detail: 'not a trace record (needs an id and a list of observations)',
    };
  const c = classify(record.observations);
  const checked: string[] = [];
  const skip = (reason: SkipReason, detail: string): ExtractResult => ({ ok: false, reason, detail, checked });

  let contexts: Found;
  if (mapping?.contexts) {
    const m = resolveMapped(record, mapping.contexts);
    const value = m ? dedupeChunks(m.values.flatMap((v) => chunksFrom(v))) : [];
    if (!m || value.length === 0)
      return skip('no_contexts', `mapping ${describeMapping(mapping.contexts)} found no contexts`);
    contexts = { value, rule: 'mapping', from: 'mapping', source: m.source, observationIds: m.observationIds };
  } else {
    const auto = findContexts(record, c, checked);
    if (auto.kind === 'none') return skip('not_rag', 'no retrieval and no context in the prompt');
    if (auto.kind === 'empty') return skip('no_contexts', `retrieval returned nothing (${auto.source})`);
    contexts = auto.found;
  }

  let answer: FoundText | null;
  if (mapping?.answer) {
    answer = mapped(record, mapping.answer, (values) => lastNonNull(values.map((v) => answerFrom(v))));
    if (!answer) return skip('no_answer', `mapping ${describeMapping(mapping.answer)} found no answer`);
  } else {
    answer = findAnswer(record, c);
    const looked = `${c.generations.length} generation output(s) or the spans (${summary(c)})`;
    if (!answer) return skip('no_answer', `no answer in the trace output, ${looked}`);
  }

  let question: FoundText | null;
  if (mapping?.question) {
    question = mapped(record, mapping.question, (values) => firstNonNull(values.map((v) => questionFrom(v))));
    if (question) question.value = cleanQuestion(question.value);
    if (!question) return skip('no_question', `mapping ${describeMapping(mapping.question)} found no question`);
  } else {
    question = findQuestion(record, c, answer);
    if (!question)
      return skip('no_question', `no question in the trace input, the spans' inputs or the prompts (${summary(c)})`);
  }

  const { value: contextValues, ...contextPart } = contexts;
  const { value: answerValue, ...answerPart } = answer;
  const { value: questionValue, ...questionPart } = question;
  const shape = `question=${question.source};answer=${answer.source};contexts=${contexts.source}`;
  return {
    ok: true,
    shape,
    parts: { question: questionPart, answer: answerPart, contexts: contextPart },
    sample: {
      traceId: record.id,
      question: questionValue,
      answer: answerValue,
      contexts: contextValues,
      meta: {
        extraction: shape,
        contextsFrom: contexts.from,
        traceName: traceNameKey(record.name),
        traceTimestamp: record.timestamp,
        environment: record.environment,
        observationIds: {
          question: question.observationIds,
          answer: answer.observationIds,
          contexts: contexts.observationIds,
        },
      },
    },
  };
}

function mapped(
  trace: TraceRecord,
  mapping: FieldMapping,
  pick: (values: unknown[]) => string | null,
): FoundText | null {
  const m = resolveMapped(trace, mapping);
  const value = m ? pick(m.values) : null;
  return m && value ? { value, rule: 'mapping', source: m.source, observationIds: m.observationIds } : null;
}

function summary(c: Classified): string {
  const shown = c.ordered.slice(0, 8).map(describe).join(', ');
  return c.ordered.length > 8 ? `${shown}, … ${c.ordered.length} observations` : shown || 'no observations';
}

function describeMapping(m: { observation?: string; type?: string; path: string }): string {
  return [m.observation && `observation=${m.observation}`, m.type && `type=${m.type}`, `path=${m.path}`]
    .filter(Boolean)
    .join(' ');
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
