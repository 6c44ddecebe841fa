import { splitDocuments, type Framing } from './prompt-split.js';
import { tagBlocks, withoutBlocks } from './tags.js';
import { nonEmpty } from './values.js';

/**
 * Contexts and question embedded in a prompt: RAG templates put the retrieved text in the system or user
 * message, in a container tag (`<context>…</context>`, `<documents>…</documents>`) or after a header
 * ("Context:", "Context information is below.", "Use the following documents…", Spanish "Contexto:"), and
 * the question after a "Question:" marker. The block is split into documents by `prompt-split.ts`.
 */

const words = (list: string) => list.trim().split(/\s+/);
const CONTAINER_TAGS = new Set(
  words(`context contexts documents sources chunks passages search_results retrieved_context
    retrieved_documents knowledge contexto documentos fuentes`),
);
/** Item tags with no container around them: each is a document. */
const BARE_ITEM_TAGS = new Set(words('document doc chunk passage source documento fragmento'));
const HEADER_WORDS = [
  'context',
  'contexts',
  'retrieved context',
  'relevant context',
  'context information',
  'documents?',
  'retrieved documents',
  'relevant documents',
  'sources',
  'source documents',
  'knowledge',
  'knowledge base',
  'passages',
  'retrieved passages',
  'excerpts',
  'search results',
  'contexto',
  'documentos?',
  'fuentes',
  'información de contexto',
  'fragmentos',
  'pasajes',
].join('|');
const CONTEXT_NOUNS = '(context|documents?|information|passages|sources|excerpts|search results)';
const CONTEXT_NOUNS_ES = '(fragmentos|documentos|contexto|información|fuentes|pasajes)';
/**
 * A header line ("Context:", "Context information is below.") or an instruction announcing the text that
 * follows. Repetitions are bounded: an unbounded `[^\n]*` is quadratic on a long line without a newline.
 */
const CONTEXT_HEADERS = [
  new RegExp(`(^|\\n)[ \\t#*]*(${HEADER_WORDS})[ \\t*]*:[ \\t]*\\n?`, 'i'),
  new RegExp(`(^|\\n)[ \\t#*]*(${HEADER_WORDS})(\\s+(is|are)\\s+(below|as follows))?[ \\t.*]*\\n`, 'i'),
  new RegExp(
    '(use|using|based on|given|with|answer[^\\n]{0,80}?(with|from))\\s+(only\\s+)?(the|these)\\s+' +
      `(following\\s+|retrieved\\s+|below\\s+){0,3}(pieces\\s+of\\s+)?(retrieved\\s+)?${CONTEXT_NOUNS}[^\\n]{0,200}\\n`,
    'i',
  ),
  new RegExp(
    '(usa|utiliza|con|según|responde[^\\n]{0,80}?con)\\s+(solo\\s+|únicamente\\s+)?(el|los|la|las|estos|estas)\\s+' +
      `(siguientes?\\s+)?${CONTEXT_NOUNS_ES}[^\\n]{0,200}\\n`,
    'i',
  ),
];
const END_WORDS =
  'question|user question|query|user query|pregunta|consulta|answer|helpful answer|respuesta|instructions?|instrucciones';
/** What ends a context block: the question or the instructions that follow it (`Question:`, or a `# Question` heading). */
const END_HEADER = new RegExp(
  `(^|\\n)([ \\t#*]*(${END_WORDS})[ \\t*]*:|[ \\t]*#{1,6}[ \\t]*(${END_WORDS})[ \\t]*(\\n|$))`,
  'i',
);
const SELF_NAMING = 'document|doc|source|chunk|passage|context|excerpt|documento|fuente|fragmento|contexto|pasaje';
/** A document marker that names itself (`Document 1:`, `[Source 1]`, `Context #1:`); bare `[1]` lines may be citations. */
const WORD_MARKER = new RegExp(
  `^[ \\t]*(?:#{1,6}[ \\t]*)?(?:\\*\\*)?\\[?(?:${SELF_NAMING})[ \\t]*(?:#|no\\.?|nº)?[ \\t]*\\[?[01]\\b`,
  'im',
);
const QUESTION_HEADER = /(^|\n)[ \t#*]*(question|user question|query|user query|pregunta|consulta|user)[ \t*]*:[ \t]*/i;

export interface EmbeddedContexts {
  /** Empty when the prompt has a context block with nothing in it. */
  contexts: string[];
  /** How the documents were laid out. */
  framing: Framing;
  /** The text with the context block removed (what is left is usually instructions and/or the question). */
  rest: string;
}

export function embeddedContexts(text: string): EmbeddedContexts | null {
  return fromContainers(text) ?? fromBareItems(text) ?? fromHeader(text) ?? fromMarkerRun(text);
}

/** `<context>…</context>` blocks; an empty one is a context slot the app left empty (no documents). */
function fromContainers(text: string): EmbeddedContexts | null {
  const blocks = tagBlocks(text, CONTAINER_TAGS);
  if (blocks.length === 0) return null;
  const splits = blocks.map((b) => splitDocuments(text.slice(b.innerStart, b.innerEnd)));
  const contexts = splits.flatMap((split) => split.documents);
  const framing = splits.map((split) => split.framing).find((f) => f !== 'single') ?? 'tags';
  return { contexts, framing, rest: withoutBlocks(text, blocks, '\n').trim() };
}

function fromBareItems(text: string): EmbeddedContexts | null {
  const blocks = tagBlocks(text, BARE_ITEM_TAGS);
  if (blocks.length === 0) return null;
  const start = blocks[0]!.start;
  const end = blocks[blocks.length - 1]!.end;
  const split = splitDocuments(text.slice(start, end));
  if (split.framing !== 'tags') return null;
  return { contexts: split.documents, framing: 'tags', rest: `${text.slice(0, start)}\n${text.slice(end)}`.trim() };
}

/**
 * The block after a header, up to the question or instructions. Headers are tried in the order they appear:
 * an instruction whose block is empty ("Use the following context… Question: … Context: …") gives way to
 * the next header.
 */
function fromHeader(text: string): EmbeddedContexts | null {
  const found = CONTEXT_HEADERS.flatMap((re, kind) =>
    [...text.matchAll(new RegExp(re.source, `${re.flags}g`))].map((match) => ({ match, kind })),
  )
    .sort((a, b) => a.match.index - b.match.index)
    .slice(0, 20);
  for (const { match, kind } of found) {
    const result = blockAfter(text, match.index, match.index + match[0].length);
    if (result && (result.contexts.length > 0 || kind === 0)) return result;
  }
  return null;
}

function blockAfter(text: string, headerStart: number, start: number): EmbeddedContexts | null {
  const after = text.slice(start);
  const end = END_HEADER.exec(after);
  let block = end ? after.slice(0, end.index) : after;
  // "Answer with the passages below.\nPassages: […]": the instruction announces a block with its own label.
  const label = CONTEXT_HEADERS[0]!.exec(block);
  if (label && block.slice(0, label.index).trim() === '') block = block.slice(label.index + label[0].length);
  const split = splitDocuments(block);
  const rest = `${text.slice(0, headerStart)}\n${end ? after.slice(end.index) : ''}`.trim();
  return { contexts: split.documents, framing: split.framing, rest };
}

/** No header, but documents that label themselves (`Document 1:` … `Document 2:`) from the start of a line. */
function fromMarkerRun(text: string): EmbeddedContexts | null {
  const first = WORD_MARKER.exec(text);
  if (!first) return null;
  const result = blockAfter(text, first.index, first.index);
  return result && result.framing === 'numbered' && result.contexts.length > 1 ? result : null;
}

/** The question after a "Question:" marker, up to an "Answer:" marker or the end. */
export function questionAfterMarker(text: string): string | null {
  const matches = [...text.matchAll(new RegExp(QUESTION_HEADER.source, 'gi'))];
  const last = matches[matches.length - 1];
  if (!last || last.index === undefined) return null;
  const after = text.slice(last.index + last[0].length);
  const stop = new RegExp(
    `(^|\\n)[ \\t#*]*(answer|helpful answer|respuesta|assistant|${HEADER_WORDS})[ \\t*]*:`,
    'i',
  ).exec(after);
  return nonEmpty(stop ? after.slice(0, stop.index) : after);
}
