import type { ObservationRecord } from '../langfuse/types.js';
import { chunksFrom, looksLikeDocuments } from './chunks.js';
import { asMessages, isObj, parsed } from './values.js';

/** Classifies a trace's observations: which ones retrieved, which ones generated, how deep each sits. */

const RETRIEVER_NAME =
  /retriev|vector.?store|vector.?(db|search|index)|similarity|semantic.?search|hybrid.?search|knowledge|bm25|rerank|get.?context|fetch.?context|get.?documents|search.?(docs|documents|knowledge|kb|index|corpus)|qdrant|pinecone|weaviate|chroma|faiss|pgvector|milvus|elasticsearch|opensearch|lancedb|recuperar|buscar/i;
/** Chains named after retrieval that do the whole job (retrieve and answer): not retrievers. */
const WHOLE_PIPELINE_NAME = /retrieval.?(qa|chain)|qa.?(with.?sources|chain)|conversational|generat|answer|respond|synthes/i;
const LLM_NAME = /openai|chat|llm|completion|generat|anthropic|claude|ollama|vllm|gemini|bedrock|mistral|cohere|groq|gpt|llama/i;
const NOT_CONTENT_TYPES = new Set(['EMBEDDING', 'EVALUATOR', 'GUARDRAIL', 'EVENT']);

export interface Classified {
  ordered: ObservationRecord[];
  depth: Map<string, number>;
  generations: ObservationRecord[];
  retrievals: ObservationRecord[];
}

export function classify(observations: ObservationRecord[]): Classified {
  const byId = new Map(observations.map((o) => [o.id, o]));
  const depth = new Map<string, number>();
  const depthOf = (o: ObservationRecord, seen = new Set<string>()): number => {
    const known = depth.get(o.id);
    if (known !== undefined) return known;
    const parent = o.parentObservationId ? byId.get(o.parentObservationId) : undefined;
    const d = !parent || seen.has(o.id) ? 0 : depthOf(parent, seen.add(o.id)) + 1;
    depth.set(o.id, d);
    return d;
  };
  observations.forEach((o) => depthOf(o));
  const generations = observations.filter(isGeneration);
  const generationSet = new Set(generations);
  const scored = observations.filter((o) => !generationSet.has(o)).map((o) => ({ o, strength: retrievalStrength(o) }));
  // A response object that merely carries its sources (LlamaIndex `{response, source_nodes}`) counts only
  // when nothing retrieved explicitly.
  const strong = scored.filter((x) => x.strength === 2).map((x) => x.o);
  const retrievals = strong.length > 0 ? strong : scored.filter((x) => x.strength === 1).map((x) => x.o);
  return { ordered: observations, depth, generations, retrievals };
}

export function isGeneration(o: ObservationRecord): boolean {
  if (o.type === 'GENERATION') return true;
  if (o.type !== 'SPAN' && o.type !== 'CHAIN') return false;
  return o.name !== null && LLM_NAME.test(o.name) && asMessages(o.input) !== null;
}

/** 2: recorded as a retrieval (type, name, a bare document list, OpenInference documents); 1: output carries documents; 0: no. */
export function retrievalStrength(o: ObservationRecord): 0 | 1 | 2 {
  if (o.type === 'RETRIEVER') return 2;
  if (NOT_CONTENT_TYPES.has(o.type)) return 0;
  const named = o.name !== null && (RETRIEVER_NAME.test(o.name) || (o.type === 'TOOL' && /search|lookup|query/i.test(o.name)));
  if (named && !WHOLE_PIPELINE_NAME.test(o.name as string) && retrievalShaped(o.output)) return 2;
  if (openInferenceDocuments(o.metadata).length > 0) return 2;
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
  return !Object.entries(value).some(([k, v]) => typeof v === 'string' && /^(response|answer|output|result|text|content|message|replies)$/i.test(k));
}

/** Chunks a retrieval observation returned: its output, else OpenInference `retrieval.documents.*` attributes. */
export function retrievalChunks(o: ObservationRecord): string[] {
  const fromOutput = chunksFrom(o.output);
  return fromOutput.length > 0 ? fromOutput : openInferenceDocuments(o.metadata);
}

/**
 * OpenInference (LlamaIndex, Haystack, DSPy via OTel) records retrieved documents as span attributes,
 * which Langfuse keeps in metadata: `retrieval.documents.0.document.content`, flat or nested.
 */
export function openInferenceDocuments(metadata: unknown): string[] {
  const meta = parsed(metadata);
  if (!isObj(meta)) return [];
  const scopes = [meta, isObj(meta.attributes) ? meta.attributes : undefined].filter(isObj);
  for (const scope of scopes) {
    const flat = Object.entries(scope)
      .map(([k, v]) => [/^retrieval\.documents\.(\d+)\.document\.content$/.exec(k), v] as const)
      .filter(([m, v]) => m !== null && typeof v === 'string')
      .sort(([a], [b]) => Number(a![1]) - Number(b![1]))
      .map(([, v]) => (v as string).trim())
      .filter((v) => v.length > 0);
    if (flat.length > 0) return flat;
    const nested = scope.retrieval;
    if (isObj(nested) && Array.isArray(nested.documents)) {
      const chunks = chunksFrom(nested.documents.map((d) => (isObj(d) && isObj(d.document) ? d.document : d)));
      if (chunks.length > 0) return chunks;
    }
  }
  return [];
}

export function describe(o: ObservationRecord): string {
  return `${o.type.toLowerCase()}:${o.name ?? o.id}`;
}
