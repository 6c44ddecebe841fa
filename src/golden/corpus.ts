import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { detectLanguage } from '../metrics/index.js';
import type { Chunk, Language } from './types.js';

/**
 * A corpus export: a folder (read recursively, in name order) of
 * - `.jsonl` files, one chunk per line: `{"id", "text", "metadata": {…}}` (also `chunk_id` / `_id`, `content` /
 *   `page_content` / `pageContent`, LangChain's and LlamaIndex's document dumps; other top-level fields join
 *   the metadata);
 * - `.md` / `.txt` files, one chunk each, with optional YAML front matter (`id`, `document`, `position`, and any
 *   metadata); the id defaults to the file's path without its extension.
 * A chunk's document is `document` / `doc_id` / `source` / `file_path` of its metadata, its position
 * `position` / `chunk_index` / `index`, else its order in the export. Lines that cannot be read are reported by
 * file and line, never with their text; so are the YAML library's warnings on front matter (an unknown tag), which
 * it would otherwise print to stderr with the whole line, personal data included.
 */

export interface CorpusReading {
  chunks: Chunk[];
  /** `file:line: what is wrong`. */
  problems: string[];
  /** `file:line: what the YAML of a front matter warned about`: the chunk is read all the same. */
  warnings: string[];
  files: number;
}

const ID_KEYS = ['id', 'chunk_id', 'chunkId', '_id', 'node_id'];
const TEXT_KEYS = ['text', 'content', 'page_content', 'pageContent', 'chunk'];
const DOCUMENT_KEYS = ['document', 'doc_id', 'docId', 'document_id', 'source', 'file_path', 'filePath'];
const POSITION_KEYS = ['position', 'chunk_index', 'chunkIndex', 'index'];

interface RawChunk {
  id: string;
  text: string;
  metadata: Record<string, unknown>;
  /** `line: warning` of the front matter, by the file's line numbers; only when there are some. */
  warnings?: string[];
}

/** What a YAML warning or error says, in words of ours: the library's message quotes the source line. */
const YAML_WARNINGS: Record<string, string> = {
  TAG_RESOLVE_FAILED: 'an unknown YAML tag (the value is read as plain text)',
  BAD_DIRECTIVE: 'a YAML directive it does not know',
  BLOCK_AS_IMPLICIT_KEY: 'a block used as a key',
  DUPLICATE_KEY: 'a key repeated',
};

/**
 * The front matter's YAML, parsed without the library printing anything (it warns through `process.emitWarning`,
 * quoting the line): errors and warnings come back as the file's line numbers and a description, never the text.
 */
function frontMatter(yaml: string): { value: unknown; error: string | null; warnings: string[] } {
  const lines = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter: lines, prettyErrors: false, logLevel: 'silent' });
  // Line 1 of the file is the opening `---`.
  const line = (e: YAMLError) => lines.linePos(e.pos[0]).line + 1;
  const first = doc.errors[0];
  if (first) return { value: null, error: `${line(first)}: front matter is not YAML (${first.code})`, warnings: [] };
  const warnings = doc.warnings.map(
    (w) => `${line(w)}: front matter: ${YAML_WARNINGS[w.code] ?? `a YAML warning (${w.code})`}`,
  );
  return { value: doc.toJS(), error: null, warnings };
}

function firstString(obj: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

function asRecord(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** One JSONL line as a chunk, or why not. */
export function chunkFromJson(value: unknown): RawChunk | string {
  const obj = asRecord(value);
  if (!obj) return 'not a JSON object';
  const metadata = { ...(asRecord(obj.metadata) ?? {}) };
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'metadata' || ID_KEYS.includes(k) || TEXT_KEYS.includes(k)) continue;
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) metadata[k] ??= v;
  }
  const text = TEXT_KEYS.map((k) => obj[k]).find((v): v is string => typeof v === 'string');
  if (text === undefined || text.trim() === '') return 'no text (text, content or page_content)';
  const id = firstString(obj, ID_KEYS) ?? firstString(metadata, ID_KEYS);
  if (id === undefined) return 'no id (id, chunk_id or _id)';
  return { id, text, metadata };
}

/** A `.md` / `.txt` file: optional front matter, then the chunk's text. */
export function chunkFromDocument(content: string, relativePath: string): RawChunk | string {
  let text = content.replace(/^\uFEFF/, '');
  let metadata: Record<string, unknown> = {};
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  let warnings: string[] = [];
  if (front) {
    let parsed: ReturnType<typeof frontMatter>;
    try {
      parsed = frontMatter(front[1] ?? '');
    } catch {
      return 'front matter is not YAML';
    }
    if (parsed.error !== null) return parsed.error;
    const value = parsed.value;
    if (value !== null && value !== undefined && !asRecord(value)) return 'front matter is not a mapping';
    metadata = { ...(asRecord(value) ?? {}) };
    warnings = parsed.warnings;
    text = text.slice(front[0].length);
  }
  if (text.trim() === '') return 'no text';
  const id = firstString(metadata, ID_KEYS) ?? relativePath.replace(/\.(md|markdown|txt)$/i, '');
  for (const k of ID_KEYS) delete metadata[k];
  return {
    id,
    text: text.trim(),
    metadata: { path: relativePath, ...metadata },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

function language(text: string, metadata: Record<string, unknown>): Language {
  const stated = String(metadata.language ?? metadata.lang ?? '').toLowerCase();
  if (stated.startsWith('es')) return 'es';
  if (stated.startsWith('en')) return 'en';
  return detectLanguage(text);
}

/** Raw chunks in export order → chunks with language, document and position; repeated ids are problems. */
export function toChunks(raw: Array<RawChunk & { where: string }>): { chunks: Chunk[]; problems: string[] } {
  const seen = new Set<string>();
  const chunks: Chunk[] = [];
  const problems: string[] = [];
  raw.forEach((r, order) => {
    if (seen.has(r.id)) {
      problems.push(`${r.where}: chunk id repeated (the first one is kept)`);
      return;
    }
    seen.add(r.id);
    const position = Number(firstString(r.metadata, POSITION_KEYS));
    chunks.push({
      id: r.id,
      text: r.text,
      language: language(r.text, r.metadata),
      document: firstString(r.metadata, DOCUMENT_KEYS) ?? null,
      position: Number.isFinite(position) ? position : order,
      metadata: r.metadata,
    });
  });
  return { chunks, problems };
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (['.jsonl', '.md', '.markdown', '.txt'].includes(extname(entry.name).toLowerCase())) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** Reads a corpus export folder; throws only when the folder itself cannot be read. */
export function readCorpusFolder(dir: string): CorpusReading {
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
  const raw: Array<RawChunk & { where: string }> = [];
  const problems: string[] = [];
  const warnings: string[] = [];
  const files = filesUnder(dir);
  for (const file of files) {
    const rel = relative(dir, file).split(sep).join('/');
    const content = readFileSync(file, 'utf8');
    if (file.toLowerCase().endsWith('.jsonl')) {
      content.split('\n').forEach((line, i) => {
        if (line.trim() === '') return;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          problems.push(`${rel}:${i + 1}: not JSON`);
          return;
        }
        const chunk = chunkFromJson(value);
        if (typeof chunk === 'string') problems.push(`${rel}:${i + 1}: ${chunk}`);
        else raw.push({ ...chunk, where: `${rel}:${i + 1}` });
      });
    } else {
      const chunk = chunkFromDocument(content, rel);
      if (typeof chunk === 'string') problems.push(/^\d+: /.test(chunk) ? `${rel}:${chunk}` : `${rel}: ${chunk}`);
      else {
        const { warnings: noted, ...rest } = chunk;
        for (const w of noted ?? []) warnings.push(`${rel}:${w}`);
        raw.push({ ...rest, where: rel });
      }
    }
  }
  const read = toChunks(raw);
  return { chunks: read.chunks, problems: [...problems, ...read.problems], warnings, files: files.length };
}
