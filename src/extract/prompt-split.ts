import { chunksFrom } from './chunks.js';
import { tagBlocks, withoutBlocks } from './tags.js';
import { nonEmpty, parsed } from './values.js';

/**
 * A block of retrieved text laid into a prompt, split into its documents with the framing removed: XML-ish
 * item tags, a JSON array, `[n]` / `Document n:` markers, `---` rules, blank lines or bullets, tried in
 * that order. Each document is the document's own text: markers, tags, rules and metadata lines
 * (`source: …`, `title: …`) stay out. A block with none of those is one document.
 */

export type Framing = 'tags' | 'json' | 'numbered' | 'rules' | 'blank-lines' | 'bullets' | 'single';

export interface SplitBlock {
  documents: string[];
  framing: Framing;
}

const words = (list: string) => list.trim().split(/\s+/);
const ITEM_TAGS = new Set(
  words(
    'document doc source chunk passage context excerpt snippet result search_result item documento fuente fragmento contexto pasaje',
  ),
);
const CONTENT_TAGS = new Set(words('document_content content text page_content body contenido texto'));
const META_TAGS = new Set(words('source title url metadata meta id score fuente titulo'));
const RULE_LINE = /^[ \t]*(?:-{3,}|={3,}|\*{3,}|_{3,}|—{2,}|#{3,})[ \t]*$/;
const MARKER_WORDS =
  'document|doc|source|chunk|passage|context|excerpt|result|snippet|documento|fuente|fragmento|contexto|pasaje';
/** A numbered marker opening a line: `[1]`, `[1]:`, `Document 1:`, `[Document 1]`, `## Source 2 (faq.md):`, `**Chunk 3**`. */
export const MARKER = new RegExp(
  '^[ \\t]*(?:#{1,6}[ \\t]*)?(?:\\*\\*)?' +
    `(?:\\[(\\d{1,3})\\]|\\[?(?:${MARKER_WORDS})[ \\t]*(?:#|no\\.?|nº)?[ \\t]*\\[?(\\d{1,3})\\]?)` +
    '(?:\\*\\*)?[ \\t]*(?:[:.)\\]–—-]|(?=\\s|\\()|$)',
  'i',
);
const METADATA_KEYS = [
  'source',
  'title',
  'url',
  'uri',
  'link',
  'file',
  'filename',
  'file_name',
  'file_path',
  'path',
  'page',
  'page_label',
  'id',
  'doc_id',
  'document_id',
  'chunk_id',
  'score',
  'relevance',
  'similarity',
  'date',
  'author',
  'section',
  'category',
  'lang',
  'language',
  'fuente',
  't[ií]tulo',
  'p[aá]gina',
  'autor',
  'fecha',
  'secci[oó]n',
  'categor[ií]a',
].join('|');
const METADATA_LINE = new RegExp(`^[ \\t]*(?:${METADATA_KEYS})[ \\t]*[:=][ \\t]*\\S.{0,300}$`, 'i');
const CONTENT_PREFIX = /^[ \t]*(?:content|text|page_content|contenido|texto)[ \t]*:[ \t]*/i;

export function splitDocuments(block: string, depth = 0): SplitBlock {
  const text = block.trim();
  if (!text) return { documents: [], framing: 'single' };
  return (
    fromJson(text) ??
    fromItemTags(text) ??
    fromMarkers(text) ??
    fromRules(text, depth) ??
    fromBlankLines(text) ??
    fromBullets(text) ?? { documents: one(cleanDocument(text)), framing: 'single' }
  );
}

function one(text: string | null): string[] {
  return text ? [text] : [];
}

/** A JSON array or object of documents, or JSON Lines (one document object per line). */
function fromJson(text: string): SplitBlock | null {
  if (!/^[[{]/.test(text)) return null;
  let value = parsed(text);
  if (typeof value !== 'object' || value === null) {
    const lines = text.split('\n').filter((l) => l.trim().length > 0);
    const items = lines.map((l) => parsed(l.trim()));
    if (lines.length < 2 || items.some((v) => typeof v !== 'object' || v === null)) return null;
    value = items;
  }
  const documents = chunksFrom(value)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
  return documents.length > 0 ? { documents, framing: 'json' } : null;
}

/** `<document index="1">…</document>` items; anything but whitespace between them means they are not the whole block. */
function fromItemTags(text: string): SplitBlock | null {
  const blocks = tagBlocks(text, ITEM_TAGS);
  if (blocks.length === 0) return null;
  const outside = withoutBlocks(text, blocks);
  if (withoutBlocks(outside, tagBlocks(outside, META_TAGS)).trim().length > 0) return null;
  const items = blocks
    .map((b) => {
      const inner = text.slice(b.innerStart, b.innerEnd);
      const content = tagBlocks(inner, CONTENT_TAGS)[0];
      return cleanDocument(
        content ? inner.slice(content.innerStart, content.innerEnd) : withoutBlocks(inner, tagBlocks(inner, META_TAGS)),
      );
    })
    .filter((d): d is string => d !== null);
  return items.length > 0 ? { documents: items, framing: 'tags' } : null;
}

/** Lines opening with consecutive numbers (1, 2, 3… or 0, 1, 2…), the first at the start of the block. */
function fromMarkers(text: string): SplitBlock | null {
  const lines = text.split('\n');
  const starts: Array<{ line: number; n: number; rest: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i] as string);
    if (!m) continue;
    const n = Number(m[1] ?? m[2]);
    const previous = starts[starts.length - 1];
    if (previous ? n !== previous.n + 1 : n > 1) continue;
    starts.push({ line: i, n, rest: (lines[i] as string).slice(m[0].length) });
  }
  if (starts.length === 0 || lines.slice(0, starts[0]!.line).some((l) => l.trim().length > 0)) return null;
  const documents: string[] = [];
  starts.forEach((start, k) => {
    const end = k + 1 < starts.length ? starts[k + 1]!.line : lines.length;
    const head = headerRest(start.rest);
    const body = [head, ...lines.slice(start.line + 1, end)].filter((l): l is string => l !== null).join('\n');
    const doc = cleanDocument(body);
    if (doc) documents.push(doc);
  });
  return documents.length > 0 ? { documents, framing: 'numbered' } : null;
}

/**
 * What follows a marker on its line: the text of an inline marker (`[1] Text…`), nothing for a header
 * line (`Document 1:` or `Source 2 (faq.md):` with the text below).
 */
function headerRest(rest: string): string | null {
  const trimmed = rest.trim();
  if (!trimmed) return null;
  if (/^\([^)]*\)[ \t]*:?$/.test(trimmed) || /^[^.!?]{0,80}:$/.test(trimmed)) return null;
  return trimmed;
}

/**
 * `---` rules between documents. A block that opens with a rule and has exactly two is a fence
 * (LlamaIndex's template): the context is between them and what follows is instructions.
 */
function fromRules(text: string, depth: number): SplitBlock | null {
  const lines = text.split('\n');
  const rules = lines.map((l, i) => (RULE_LINE.test(l) ? i : -1)).filter((i) => i >= 0);
  if (rules.length === 0) return null;
  const segments: string[] = [];
  let from = 0;
  for (const r of [...rules, lines.length]) {
    segments.push(lines.slice(from, r).join('\n'));
    from = r + 1;
  }
  if (rules[0] === 0 && rules.length === 2 && depth === 0) {
    const fenced = splitDocuments(segments[1] ?? '', depth + 1);
    return fenced.documents.length > 0 ? fenced : null;
  }
  const documents = segments.map(cleanDocument).filter((d): d is string => d !== null);
  return documents.length > 0 ? { documents, framing: 'rules' } : null;
}

/** Paragraphs as documents; paragraphs of metadata lines only (`source: x.md`) are framing. */
function fromBlankLines(text: string): SplitBlock | null {
  const paragraphs = text.split(/\n[ \t]*\n/).filter((p) => p.trim().length > 0);
  if (paragraphs.length < 2) return null;
  const documents = paragraphs
    .filter((p) => !p.split('\n').every((l) => METADATA_LINE.test(l)))
    .map(cleanDocument)
    .filter((d): d is string => d !== null);
  if (documents.length === 0) return null;
  return { documents, framing: documents.length > 1 ? 'blank-lines' : 'single' };
}

/** One document per bullet when every line of the block is a bullet. */
function fromBullets(text: string): SplitBlock | null {
  const lines = text.split('\n').filter((l) => l.trim().length > 0);
  if (lines.length < 2 || !lines.every((l) => /^\s*[-*•]\s+\S/.test(l))) return null;
  return { documents: lines.map((l) => l.replace(/^\s*[-*•]\s+/, '').trim()), framing: 'bullets' };
}

/** A document's text: leading metadata lines and a `content:` label dropped, surrounding blank lines trimmed. */
export function cleanDocument(raw: string): string | null {
  const lines = raw.replace(/\r/g, '').split('\n');
  while (lines.length > 0 && (lines[0]!.trim() === '' || RULE_LINE.test(lines[0]!))) lines.shift();
  while (lines.length > 0 && (lines[lines.length - 1]!.trim() === '' || RULE_LINE.test(lines[lines.length - 1]!)))
    lines.pop();
  let metadata = 0;
  while (metadata < lines.length - 1 && METADATA_LINE.test(lines[metadata]!)) metadata++;
  const body = lines.slice(metadata);
  if (body.length > 0 && (metadata > 0 || CONTENT_PREFIX.test(body[0]!)))
    body[0] = body[0]!.replace(CONTENT_PREFIX, '');
  return nonEmpty(body.join('\n'));
}
