import type { ObservationRecord } from '../langfuse/index.js';
import { chunksFrom, looksLikeDocuments } from './chunks.js';
import { isObj, parsed, type Obj } from './values.js';

/**
 * Which observations retrieved, and what they returned: their output, or the documents instrumentations
 * record as span attributes (Langfuse keeps those in the observation's metadata): OpenInference's
 * `retrieval.documents.*` and OpenTelemetry GenAI's `gen_ai.retrieval.documents`.
 */

const RETRIEVER_NAME = new RegExp(
  [
    'retriev',
    'vector.?store',
    'vector.?(db|search|index)',
    'similarity',
    'semantic.?search',
    'hybrid.?search',
    'knowledge',
    'bm25',
    'rerank',
    'get.?context',
    'fetch.?context',
    'get.?documents',
    'search.?(docs|documents|knowledge|kb|index|corpus)',
    'qdrant',
    'pinecone',
    'weaviate',
    'chroma',
    'faiss',
    'pgvector',
    'milvus',
    'elasticsearch',
    'opensearch',
    'lancedb',
    'recuperar',
    'buscar',
  ].join('|'),
  'i',
);
/** Chains named after retrieval that do the whole job (retrieve and answer): not retrievers. */
const WHOLE_PIPELINE_NAME =
  /retrieval.?(qa|chain)|qa.?(with.?sources|chain)|conversational|generat|answer|respond|synthes|query.?engine|chat.?engine/i;
const NOT_CONTENT_TYPES = new Set(['EMBEDDING', 'EVALUATOR', 'GUARDRAIL', 'EVENT', 'GENERATION']);

/** How a retrieval step's documents were read. */
export type RetrievalRule = 'retriever.output' | 'retriever.openinference' | 'retriever.gen_ai';

/**
 * 2: recorded as a retrieval (type, name, GenAI operation, document attributes, a bare document list);
 * 1: its output carries documents; 0: no.
 */
export function retrievalStrength(o: ObservationRecord): 0 | 1 | 2 {
  if (o.type === 'RETRIEVER') return 2;
  if (NOT_CONTENT_TYPES.has(o.type)) return 0;
  if (genAiOperation(o.metadata) === 'retrieval') return 2;
  const named =
    o.name !== null && (RETRIEVER_NAME.test(o.name) || (o.type === 'TOOL' && /search|lookup|query/i.test(o.name)));
  if (named && !WHOLE_PIPELINE_NAME.test(o.name as string) && retrievalShaped(o.output)) return 2;
  if (openInferenceDocuments(o.metadata).length > 0 || genAiDocuments(o.metadata).length > 0) return 2;
  const output = parsed(o.output);
  if (looksLikeDocuments(output)) return Array.isArray(output) || isDocumentsEnvelope(output) ? 2 : 1;
  return 0;
}

/** Output a retriever-named step could have returned: text, a list, or a documents envelope. */
function retrievalShaped(output: unknown): boolean {
  const v = parsed(output);
  if (typeof v === 'string') return v.trim().length > 0;
  if (Array.isArray(v) || isDocumentsEnvelope(v)) return chunksFrom(v).length > 0;
  return false;
}

/** `{documents: [...]}` and similar with nothing else of substance: what a retriever component returns. */
function isDocumentsEnvelope(value: unknown): boolean {
  if (!isObj(value)) return false;
  const answerKey = /^(response|answer|output|result|text|content|message|replies)$/i;
  return !Object.entries(value).some(([k, v]) => typeof v === 'string' && answerKey.test(k));
}

/** The chunks a retrieval observation returned and where they were read. */
export function retrievalChunks(o: ObservationRecord): { chunks: string[]; rule: RetrievalRule } {
  const fromOutput = chunksFrom(o.output);
  if (fromOutput.length > 0) return { chunks: fromOutput, rule: 'retriever.output' };
  const openInference = openInferenceDocuments(o.metadata);
  if (openInference.length > 0) return { chunks: openInference, rule: 'retriever.openinference' };
  return { chunks: genAiDocuments(o.metadata), rule: 'retriever.gen_ai' };
}

/** The attribute scopes of an observation's metadata: the top level and `attributes` (non-Langfuse spans). */
function scopes(metadata: unknown): Obj[] {
  const meta = parsed(metadata);
  if (!isObj(meta)) return [];
  const attributes = parsed(meta.attributes);
  return isObj(attributes) ? [meta, attributes] : [meta];
}

/** Documents under `<prefix>.N.<field>` flat keys, in index order. */
function flatDocuments(scope: Obj, prefix: string, fields: string): string[] {
  const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.(\\d+)\\.(?:${fields})$`);
  return Object.entries(scope)
    .map(([k, v]) => [re.exec(k), v] as const)
    .filter(([m, v]) => m !== null && typeof v === 'string')
    .sort(([a], [b]) => Number(a![1]) - Number(b![1]))
    .map(([, v]) => (v as string).trim())
    .filter((v) => v.length > 0);
}

/**
 * OpenInference (LlamaIndex, Haystack, DSPy via OTel) records retrieved documents as span attributes:
 * `retrieval.documents.0.document.content`, flat or nested.
 */
export function openInferenceDocuments(metadata: unknown): string[] {
  for (const scope of scopes(metadata)) {
    const flat = flatDocuments(scope, 'retrieval.documents', 'document\\.content');
    if (flat.length > 0) return flat;
    const nested = scope.retrieval;
    if (isObj(nested) && Array.isArray(nested.documents)) {
      const chunks = chunksFrom(nested.documents.map((d) => (isObj(d) && isObj(d.document) ? d.document : d)));
      if (chunks.length > 0) return chunks;
    }
  }
  return [];
}

/**
 * OpenTelemetry GenAI retrieval spans record `gen_ai.retrieval.documents` ({id, score} plus the text,
 * usually `content`): a JSON string (what Langfuse keeps), a structured list, or flattened keys.
 */
export function genAiDocuments(metadata: unknown): string[] {
  for (const scope of scopes(metadata)) {
    const value = scope['gen_ai.retrieval.documents'];
    if (value !== undefined) {
      const chunks = chunksFrom(value);
      if (chunks.length > 0) return chunks;
    }
    const flat = flatDocuments(scope, 'gen_ai.retrieval.documents', 'content|text|page_content|document');
    if (flat.length > 0) return flat;
    const genAi = scope.gen_ai;
    if (isObj(genAi) && isObj(genAi.retrieval) && genAi.retrieval.documents !== undefined) {
      const chunks = chunksFrom(genAi.retrieval.documents);
      if (chunks.length > 0) return chunks;
    }
  }
  return [];
}

/** `gen_ai.operation.name` of a span, as Langfuse keeps it in metadata. */
export function genAiOperation(metadata: unknown): string | null {
  for (const scope of scopes(metadata)) {
    const op = scope['gen_ai.operation.name'];
    if (typeof op === 'string') return op;
  }
  return null;
}
