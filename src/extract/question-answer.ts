import type { ObservationRecord, TraceRecord } from '../langfuse/index.js';
import { embeddedContexts, questionAfterMarker } from './embedded.js';
import { describe, type Classified } from './observations.js';
import { answerFrom, lastUserText, questionFrom } from './text-fields.js';
import type { FoundPart } from './types.js';
import { asMessages } from './values.js';

/** The answer and the question of a trace: from the trace's own input and output first, then its steps. */

export type FoundText = { value: string } & FoundPart;

export function findAnswer(trace: TraceRecord, c: Classified): FoundText | null {
  const fromTrace = answerFrom(trace.output);
  if (fromTrace) return { value: fromTrace, rule: 'trace.output', source: 'trace.output', observationIds: [] };
  for (const g of [...c.generations].reverse()) {
    const a = answerFrom(g.output);
    if (a) return { value: a, rule: 'generation.output', source: describe(g), observationIds: [g.id] };
  }
  // Traces whose answer only sits on an inner span: the shallowest, latest span that reads as an answer.
  const spans = candidates(c).sort(
    (a, b) => shallowFirst(c, a, b) || Date.parse(b.startTime) - Date.parse(a.startTime),
  );
  for (const o of spans) {
    const a = answerFrom(o.output);
    if (a) return { value: a, rule: 'observation.output', source: describe(o), observationIds: [o.id] };
  }
  return null;
}

export function findQuestion(trace: TraceRecord, c: Classified, answer: FoundPart): FoundText | null {
  const fromTrace = questionFrom(trace.input);
  if (fromTrace)
    return { value: cleanQuestion(fromTrace), rule: 'trace.input', source: 'trace.input', observationIds: [] };
  const spans = candidates(c).sort(
    (a, b) => shallowFirst(c, a, b) || Date.parse(a.startTime) - Date.parse(b.startTime),
  );
  for (const o of spans) {
    const q = questionFrom(o.input);
    if (q)
      return {
        value: cleanQuestion(q),
        rule: 'observation.input',
        source: `${describe(o)}.input`,
        observationIds: [o.id],
      };
  }
  const answering = c.generations.find((g) => answer.observationIds.includes(g.id)) ?? c.generations[0];
  const generations = answering ? [answering, ...c.generations.filter((g) => g !== answering)] : c.generations;
  for (const g of generations) {
    const messages = asMessages(g.input);
    const q = messages ? lastUserText(messages) : questionFrom(g.input);
    if (q)
      return {
        value: cleanQuestion(q),
        rule: 'generation.prompt',
        source: `${describe(g)}.input`,
        observationIds: [g.id],
      };
  }
  for (const r of c.retrievals) {
    const q = questionFrom(r.input);
    if (q)
      return {
        value: cleanQuestion(q),
        rule: 'retrieval.input',
        source: `${describe(r)}.input`,
        observationIds: [r.id],
      };
  }
  return null;
}

function shallowFirst(c: Classified, a: ObservationRecord, b: ObservationRecord): number {
  return (c.depth.get(a.id) ?? 0) - (c.depth.get(b.id) ?? 0);
}

/** Observations that may carry question or answer: not retrievals, generations, embeddings or events. */
function candidates(c: Classified): ObservationRecord[] {
  const excluded = new Set([...c.retrievals, ...c.generations]);
  return c.ordered.filter(
    (o) => !excluded.has(o) && !['EMBEDDING', 'EVENT', 'EVALUATOR', 'GUARDRAIL'].includes(o.type),
  );
}

/** A question that arrived as a whole prompt: keep what follows "Question:", or what is left without the context block. */
export function cleanQuestion(text: string): string {
  const marked = questionAfterMarker(text);
  if (marked && marked.length < text.length) return marked;
  const embedded = embeddedContexts(text);
  if (embedded && embedded.rest.length > 0) return embedded.rest;
  return text;
}
