import { contentText, isObj, messageRole, nonEmpty, parsed, type Obj } from './values.js';

/**
 * Retrieved chunks out of whatever a retriever returned: plain strings, LangChain Documents
 * (`pageContent` / `page_content`), LlamaIndex nodes (`{node: {text}}`, NodeWithScore), Haystack Documents
 * (`content`), vector-store matches (`metadata.text`, `payload`, `_source`), and containers of those
 * (`{documents: [...]}`, `{context: ...}`, `{source_nodes: [...]}`, Chroma's nested lists, ...).
 */

/** Keys whose string value is the chunk text, best first. */
const TEXT_KEYS = [
  'pageContent',
  'page_content',
  'text',
  'content',
  'chunk',
  'document',
  'passage',
  'snippet',
  'chunk_text',
  'passage_text',
  'long_text',
  'body',
];
/** Keys that wrap one chunk-like object. */
const WRAPPER_KEYS = [
  'node',
  'document',
  'doc',
  'chunk',
  'content',
  'item',
  'record',
  'payload',
  '_source',
  'properties',
  'fields',
  'text_resource',
  'data',
];
/** Keys that hold lists (or single) chunks. */
export const CONTAINER_KEYS = [
  'documents',
  'docs',
  'source_documents',
  'sourceDocuments',
  'source_nodes',
  'sourceNodes',
  'nodes',
  'chunks',
  'contexts',
  'context',
  'retrieved_contexts',
  'retrieved_documents',
  'retrieved_docs',
  'retrievedDocuments',
  'retrieved',
  'results',
  'retrievalResults',
  'retrieval_results',
  'matches',
  'hits',
  'points',
  'passages',
  'references',
  'sources',
  'citations',
  'records',
  'items',
  'value',
  'result',
  'output',
  'data',
];
/** Metadata keys vector stores put the text under. */
const METADATA_TEXT_KEYS = ['text', 'content', 'page_content', 'pageContent', 'chunk', 'document'];

const MAX_DEPTH = 8;

/** Chunks in order of appearance (not yet de-duplicated). */
export function chunksFrom(value: unknown, depth = 0): string[] {
  if (depth > MAX_DEPTH) return [];
  const v = parsed(value);
  if (v === null || v === undefined) return [];
  if (typeof v === 'string') {
    const t = nonEmpty(v);
    return t ? [t] : [];
  }
  if (typeof v === 'number' || typeof v === 'boolean') return [];
  if (Array.isArray(v)) return v.flatMap((item) => chunksFrom(item, depth + 1));
  if (!isObj(v)) return [];
  // A chat message is not a chunk, even though it has `content`.
  if (messageRole(v) !== null) return [];
  const own = ownText(v);
  if (own !== null) return [own];
  for (const key of WRAPPER_KEYS) {
    const inner = v[key];
    if (isObj(inner) || (typeof inner === 'string' && key !== 'data')) {
      const found = chunksFrom(inner, depth + 1);
      if (found.length > 0) return found;
    }
  }
  for (const key of CONTAINER_KEYS) {
    if (v[key] === undefined) continue;
    const found = chunksFrom(v[key], depth + 1);
    if (found.length > 0) return found;
  }
  if (isObj(v.metadata)) {
    for (const key of METADATA_TEXT_KEYS) {
      const t = nonEmpty(v.metadata[key]);
      if (t) return [t];
    }
  }
  return [];
}

/** The object's own chunk text, if one of the text keys holds a string (or text parts). */
function ownText(v: Obj): string | null {
  for (const key of TEXT_KEYS) {
    const raw = v[key];
    if (raw === undefined || raw === null) continue;
    if (typeof raw === 'string') {
      const p = parsed(raw);
      // A JSON-looking string under a text key is a serialized document: read it as such.
      if (typeof p !== 'string') continue;
      const t = nonEmpty(raw);
      if (t) return t;
      continue;
    }
    if ((key === 'content' || key === 'text') && Array.isArray(raw)) {
      const t = contentText(raw);
      if (t) return t;
    }
  }
  return null;
}

/** True when the value looks like what a retriever returns: a non-empty list of document-like objects. */
export function looksLikeDocuments(value: unknown): boolean {
  let v = parsed(value);
  if (isObj(v)) {
    const key = [
      'documents',
      'docs',
      'nodes',
      'source_nodes',
      'chunks',
      'results',
      'retrievalResults',
      'matches',
      'hits',
      'points',
      'passages',
      'result',
      'value',
    ].find((k) => Array.isArray(v && (v as Obj)[k]));
    if (!key) return false;
    v = v[key];
  }
  if (!Array.isArray(v) || v.length === 0) return false;
  return v.every((item) => isDocumentLike(parsed(item)));
}

function isDocumentLike(item: unknown): boolean {
  if (!isObj(item)) return false;
  if (messageRole(item) !== null) return false;
  if ('pageContent' in item || 'page_content' in item) return true;
  if (
    item.type === 'Document' ||
    item.__type === 'Document' ||
    item.class_name === 'NodeWithScore' ||
    item.class_name === 'TextNode'
  )
    return true;
  const marked = DOCUMENT_MARKERS.some((k) => k in item);
  return marked && chunksFrom(item).length > 0;
}

/** Keys that, next to a text, make an object a retrieved document rather than an arbitrary record. */
const DOCUMENT_MARKERS = [
  'score',
  'metadata',
  'meta',
  'distance',
  'similarity',
  'relevance_score',
  '@search.score',
  'id',
  'id_',
  'node',
  'payload',
  '_source',
  'location',
  'source',
  'doc_id',
  'document_id',
  'chunk_id',
];

/** De-duplicates chunks (whitespace-insensitive), keeping the first occurrence's position. */
export function dedupeChunks(chunks: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of chunks) {
    const key = c.replace(/\s+/g, ' ').trim();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(c.trim());
  }
  return out;
}
