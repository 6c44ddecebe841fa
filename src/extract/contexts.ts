import type { ObservationRecord, TraceRecord } from '../langfuse/index.js';
import { chunksFrom, dedupeChunks, looksLikeDocuments } from './chunks.js';
import { embeddedContexts } from './embedded.js';
import { describe, shownName, type Classified } from './observations.js';
import { retrievalChunks } from './retrieval.js';
import type { FoundContexts } from './types.js';
import { asMessages, contentText, isObj, messageRole, messageText, parsed, type Obj } from './values.js';

/**
 * Where a trace's contexts are, best first: what the retrieval steps returned; a document list or a
 * `context` key handed from step to step; the documents laid into a generation's prompt. The prompt is read
 * only when nothing retrieved recorded its documents, since a prompt holds them reformatted.
 */

/** Keys under which integrations pass retrieved context along to the next step. */
const CONTEXT_KEYS = [
  'context',
  'contexts',
  'documents',
  'docs',
  'source_documents',
  'sourceDocuments',
  'source_nodes',
  'sourceNodes',
  'retrieved_contexts',
  'retrieved_documents',
  'retrieved_docs',
  'retrievedDocuments',
  'retrieved_chunks',
  'chunks',
  'passages',
];

export type Found = { value: string[] } & FoundContexts;
export type ContextSearch = { kind: 'found'; found: Found } | { kind: 'empty'; source: string } | { kind: 'none' };

export function findContexts(trace: TraceRecord, c: Classified, checked: string[]): ContextSearch {
  if (c.retrievals.length > 0) {
    const used = c.retrievals.map((o) => ({ o, ...retrievalChunks(o) }));
    const chunks = dedupeChunks(used.flatMap((u) => u.chunks));
    const contributing = used.filter((u) => u.chunks.length > 0);
    const source = sourceOf(contributing.length > 0 ? contributing.map((u) => u.o) : c.retrievals);
    if (chunks.length > 0) {
      const rule = contributing[0]!.rule;
      return {
        kind: 'found',
        found: { value: chunks, rule, from: 'retrieval', source, observationIds: contributing.map((u) => u.o.id) },
      };
    }
    checked.push(`retrieval steps ${c.retrievals.map(describe).join(', ')} returned no documents`);
    const passed = contextsPassedAlong(trace, c);
    if (passed) return { kind: 'found', found: passed };
    const prompted = contextsInPrompt(c);
    return prompted && 'value' in prompted ? { kind: 'found', found: prompted } : { kind: 'empty', source };
  }
  checked.push(`no retrieval step among ${c.ordered.length} observation(s)${toolSummary(c)}`);
  const passed = contextsPassedAlong(trace, c);
  if (passed) return { kind: 'found', found: passed };
  checked.push('no document list or context key passed between steps');
  const prompted = contextsInPrompt(c);
  if (prompted && 'value' in prompted) return { kind: 'found', found: prompted };
  if (prompted) {
    checked.push(`the context block in the prompt of ${prompted.empty} is empty`);
    return { kind: 'empty', source: `prompt:${prompted.empty}` };
  }
  checked.push(
    c.generations.length > 0
      ? `no context block in the prompt of ${c.generations.map(describe).join(', ')}`
      : 'no generation with a prompt to read contexts from',
  );
  return { kind: 'none' };
}

function toolSummary(c: Classified): string {
  const tools = c.ordered.filter((o) => o.type === 'TOOL');
  return tools.length > 0 ? ` (tools ${tools.map(shownName).join(', ')} returned no documents)` : '';
}

interface Holder {
  value: unknown;
  source: string;
  id?: string;
}

function holders(trace: TraceRecord, c: Classified): Holder[] {
  const list: Holder[] = [
    { value: trace.input, source: 'trace.input' },
    { value: trace.output, source: 'trace.output' },
  ];
  const generations = new Set(c.generations);
  for (const o of c.ordered) {
    if (o.type === 'EMBEDDING' || generations.has(o)) continue;
    list.push(
      { value: o.input, source: `${describe(o)}.input`, id: o.id },
      { value: o.output, source: `${describe(o)}.output`, id: o.id },
    );
  }
  return list;
}

/** A list of documents (LangChain Documents, LlamaIndex nodes…) handed to a step, else a `context` key. */
function contextsPassedAlong(trace: TraceRecord, c: Classified): Found | null {
  const all = holders(trace, c);
  for (const h of all) {
    const found = documentList(parsed(h.value), 0);
    if (!found) continue;
    const chunks = dedupeChunks(chunksFrom(found.value));
    const source = found.path ? `${h.source}.${found.path}` : h.source;
    const observationIds = h.id ? [h.id] : [];
    if (chunks.length > 0)
      return { value: chunks, rule: 'documents.passed-along', from: 'retrieval', source, observationIds };
  }
  for (const h of all) {
    const v = parsed(h.value);
    if (!isObj(v)) continue;
    for (const key of CONTEXT_KEYS) {
      if (v[key] === undefined) continue;
      const chunks = dedupeChunks(chunksFrom(v[key]));
      if (chunks.length === 0) continue;
      return {
        value: chunks,
        rule: 'context-key',
        from: 'retrieval',
        source: `${h.source}.${key}`,
        observationIds: h.id ? [h.id] : [],
      };
    }
  }
  return null;
}

/** The first value that reads as a list of retrieved documents, at most a few levels down. */
function documentList(value: unknown, depth: number): { value: unknown; path: string } | null {
  if (looksLikeDocuments(value)) return { value, path: '' };
  if (depth >= 3 || !isObj(value)) return null;
  for (const [key, inner] of Object.entries(value as Obj)) {
    const found = documentList(parsed(inner), depth + 1);
    if (found) return { value: found.value, path: found.path ? `${key}.${found.path}` : key };
  }
  return null;
}

/** Documents laid into the latest prompt that has a context block; `empty` names a generation whose block is empty. */
function contextsInPrompt(c: Classified): Found | { empty: string } | null {
  let empty: string | null = null;
  for (const g of [...c.generations].reverse()) {
    for (const text of promptTexts(g.input)) {
      const found = embeddedContexts(text);
      if (found && found.contexts.length > 0) {
        const source = `prompt:${shownName(g)}`;
        return {
          value: dedupeChunks(found.contexts),
          rule: 'prompt',
          from: 'prompt',
          framing: found.framing,
          source,
          observationIds: [g.id],
        };
      }
      if (found) empty ??= shownName(g);
    }
  }
  return empty === null ? null : { empty };
}

/** System and user texts of a prompt (messages or a plain completion prompt), system first. */
export function promptTexts(input: unknown): string[] {
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

function sourceOf(observations: ObservationRecord[]): string {
  const first = observations[0] as ObservationRecord;
  const name = first.type === 'RETRIEVER' ? `retriever:${shownName(first)}` : `retrieval-${describe(first)}`;
  return observations.length > 1 ? `${name}(+${observations.length - 1})` : name;
}
