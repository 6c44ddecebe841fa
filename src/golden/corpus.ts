import { constants } from 'node:fs';
import { open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { LineCounter, parseDocument, visit, type YAMLError } from 'yaml';
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
  /** Files read. */
  files: number;
  /** Files not read, by reason (each also a line of `problems`). */
  skipped: Record<SkipReason, number>;
}

export const ID_KEYS = ['id', 'chunk_id', 'chunkId', '_id', 'node_id'];
export const TEXT_KEYS = ['text', 'content', 'page_content', 'pageContent', 'chunk'];
export const DOCUMENT_KEYS = ['document', 'doc_id', 'docId', 'document_id', 'source', 'file_path', 'filePath'];
export const POSITION_KEYS = ['position', 'chunk_index', 'chunkIndex', 'index'];

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

const NON_DATA_TAGS = new Set(['binary', 'set', 'omap', 'pairs', 'timestamp'].map((t) => `tag:yaml.org,2002:${t}`));

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
  // Metadata is data: a value YAML turns into something else (!!binary bytes, a !!set, a !!timestamp date) would
  // reach the strata and the dataset as an object's dump.
  let refused: number | null = null;
  visit(doc, {
    Node(_, node) {
      if (refused !== null) return visit.BREAK;
      const tag = (node as { tag?: string }).tag;
      if (tag && NON_DATA_TAGS.has(tag)) refused = node.range ? lines.linePos(node.range[0]).line + 1 : 1;
      return undefined;
    },
  });
  if (refused !== null)
    return {
      value: null,
      error: `${refused}: front matter holds a value that is not text, a number or a list (a YAML tag such as !!binary)`,
      warnings: [],
    };
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

/** Why a file of the folder was not read (counted, by file, never with its content). */
export type SkipReason = 'not_regular' | 'outside_folder' | 'too_large' | 'corpus_limit';

const SKIP_WORDS: Record<SkipReason, string> = {
  not_regular: 'not a regular file (a FIFO, socket or device): skipped',
  outside_folder: "a link to a file outside the corpus folder's real path: refused",
  too_large: 'larger than golden.maxFileBytes: skipped',
  corpus_limit: 'past golden.maxCorpusBytes for the whole corpus: skipped',
};

export interface CorpusLimits {
  /** Largest file read (bytes); larger ones are skipped and counted. */
  maxFileBytes: number;
  /** Most bytes read over the whole corpus; files past it are skipped and counted. */
  maxCorpusBytes: number;
  signal?: AbortSignal;
}

export const DEFAULT_CORPUS_LIMITS: CorpusLimits = { maxFileBytes: 32 * 1024 * 1024, maxCorpusBytes: 1024 ** 3 };

const EXTENSIONS = ['.jsonl', '.md', '.markdown', '.txt'];

/**
 * The corpus's files in name order, confined to the folder's real path: a link (to a file or a folder) is
 * followed only where its target lies inside, each folder walked once; anything else is counted in `skipped`.
 */
async function filesUnder(root: string, skipped: Map<string, SkipReason>, signal?: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  const visited = new Set<string>();
  const inside = (real: string) => real === root || real.startsWith(root + sep);
  const walk = async (dir: string, shown: string) => {
    if (visited.has(dir)) return;
    visited.add(dir);
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      signal?.throwIfAborted();
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      const rel = shown ? `${shown}/${entry.name}` : entry.name;
      let real = path;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          real = await realpath(path);
        } catch {
          continue; // A dangling link names nothing to read.
        }
        if (!inside(real)) {
          skipped.set(rel, 'outside_folder');
          continue;
        }
        const target = await stat(real);
        isDirectory = target.isDirectory();
        isFile = target.isFile();
      }
      if (isDirectory) await walk(real, rel);
      else if (EXTENSIONS.includes(extname(entry.name).toLowerCase())) {
        if (isFile) out.push(`${real}\0${rel}`);
        else skipped.set(rel, 'not_regular');
      }
    }
  };
  await walk(root, '');
  return out;
}

/**
 * Opens a file for reading without ever blocking on it (a FIFO swapped in after the walk opens at once, and is
 * then refused as not regular) and without following a link put in its place.
 */
async function openRegular(real: string): Promise<{ handle: FileHandle; size: number } | 'not_regular'> {
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  const st = await handle.stat();
  if (!st.isFile()) {
    await handle.close();
    return 'not_regular';
  }
  return { handle, size: st.size };
}

/**
 * Reads a corpus export folder; throws only when the folder itself cannot be read, or when `signal` aborts
 * (checked between files and between lines, so an interrupted build stops at once). JSONL files are streamed.
 */
export async function readCorpusFolder(
  dir: string,
  limits: CorpusLimits = DEFAULT_CORPUS_LIMITS,
): Promise<CorpusReading> {
  const root = await realpath(dir);
  if (!(await stat(root)).isDirectory()) throw new Error(`${dir} is not a folder`);
  const { signal } = limits;
  const raw: Array<RawChunk & { where: string }> = [];
  const problems: string[] = [];
  const warnings: string[] = [];
  const skipped = new Map<string, SkipReason>();
  const files = await filesUnder(root, skipped, signal);
  let total = 0;
  let read = 0;
  for (const entry of files) {
    signal?.throwIfAborted();
    const [real, rel] = entry.split('\0') as [string, string];
    const opened = await openRegular(real).catch(() => 'not_regular' as const);
    if (opened === 'not_regular') {
      skipped.set(rel, 'not_regular');
      continue;
    }
    const { handle, size } = opened;
    try {
      if (size > limits.maxFileBytes) {
        skipped.set(rel, 'too_large');
        continue;
      }
      if (total + size > limits.maxCorpusBytes) {
        skipped.set(rel, 'corpus_limit');
        continue;
      }
      total += size;
      read += 1;
      if (real.toLowerCase().endsWith('.jsonl') || rel.toLowerCase().endsWith('.jsonl')) {
        const lines = createInterface({ input: handle.createReadStream({ encoding: 'utf8', autoClose: false }) });
        let i = 0;
        for await (const line of lines) {
          i += 1;
          if (i % 1000 === 0) signal?.throwIfAborted();
          if (line.trim() === '') continue;
          let value: unknown;
          try {
            value = JSON.parse(line);
          } catch {
            problems.push(`${rel}:${i}: not JSON`);
            continue;
          }
          const chunk = chunkFromJson(value);
          if (typeof chunk === 'string') problems.push(`${rel}:${i}: ${chunk}`);
          else raw.push({ ...chunk, where: `${rel}:${i}` });
        }
      } else {
        const content = await handle.readFile({ encoding: 'utf8', ...(signal ? { signal } : {}) });
        const chunk = chunkFromDocument(content, rel);
        if (typeof chunk === 'string') problems.push(/^\d+: /.test(chunk) ? `${rel}:${chunk}` : `${rel}: ${chunk}`);
        else {
          const { warnings: noted, ...rest } = chunk;
          for (const w of noted ?? []) warnings.push(`${rel}:${w}`);
          raw.push({ ...rest, where: rel });
        }
      }
    } finally {
      await handle.close();
    }
  }
  for (const [rel, reason] of skipped) problems.push(`${rel}: ${SKIP_WORDS[reason]}`);
  const counts: Record<SkipReason, number> = { not_regular: 0, outside_folder: 0, too_large: 0, corpus_limit: 0 };
  for (const reason of skipped.values()) counts[reason] += 1;
  const chunks = toChunks(raw);
  return {
    chunks: chunks.chunks,
    problems: [...problems, ...chunks.problems],
    warnings,
    files: read,
    skipped: counts,
  };
}
