import { splitDocuments, type Framing } from './prompt-split.js';
import { nonEmpty } from './values.js';

/**
 * Contexts and question embedded in a prompt: RAG templates put the retrieved text in the system or user
 * message, in a container tag (`<context>…</context>`, `<documents>…</documents>`) or after a header
 * ("Context:", "Context information is below.", "Use the following documents…", Spanish "Contexto:"), and
 * the question after a "Question:" marker. The block is split into documents by `prompt-split.ts`.
 */

const CONTAINER_TAG =
  /<(context|contexts|documents|sources|chunks|passages|search_results|retrieved_context|retrieved_documents|knowledge|contexto|documentos|fuentes)(\s[^>]*)?>([\s\S]*?)<\/\1\s*>/gi;
/** Item tags with no container around them: each is a document. */
const BARE_ITEMS = /<(document|doc|chunk|passage|source|documento|fragmento)(\s[^>]*)?>[\s\S]*?<\/\1\s*>/i;
const HEADER_WORDS =
  'context|contexts|retrieved context|relevant context|context information|documents?|retrieved documents|relevant documents|sources|source documents|' +
  'knowledge|knowledge base|passages|retrieved passages|excerpts|search results|contexto|documentos?|fuentes|información de contexto|fragmentos|pasajes';
/** A header line ("Context:", "Context information is below.") or an instruction announcing the text that follows. */
const CONTEXT_HEADERS = [
  new RegExp(`(^|\\n)[ \\t#*]*(${HEADER_WORDS})[ \\t*]*:[ \\t]*\\n?`, 'i'),
  new RegExp(`(^|\\n)[ \\t#*]*(${HEADER_WORDS})(\\s+(is|are)\\s+(below|as follows))?[ \\t.*]*\\n`, 'i'),
  /(use|using|based on|given|with|answer[^\n]*?(with|from))\s+(only\s+)?(the|these)\s+(following\s+|retrieved\s+|below\s+)*(pieces\s+of\s+)?(retrieved\s+)?(context|documents?|information|passages|sources|excerpts|search results)[^\n]*\n/i,
  /(usa|utiliza|con|según|responde[^\n]*?con)\s+(solo\s+|únicamente\s+)?(el|los|la|las|estos|estas)\s+(siguientes?\s+)?(fragmentos|documentos|contexto|información|fuentes|pasajes)[^\n]*\n/i,
];
/** What ends a context block: the question or the instructions that follow it. */
const END_HEADER = /(^|\n)[ \t#*]*(question|user question|query|user query|pregunta|consulta|answer|helpful answer|respuesta|instructions?|instrucciones)[ \t*]*:/i;
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
  return fromContainers(text) ?? fromBareItems(text) ?? fromHeader(text);
}

/** `<context>…</context>` blocks; an empty one is a context slot the app left empty (no documents). */
function fromContainers(text: string): EmbeddedContexts | null {
  const contexts: string[] = [];
  const framings: Framing[] = [];
  let containers = 0;
  const rest = text.replace(CONTAINER_TAG, (_m, _tag, _attrs, inner: string) => {
    containers++;
    const split = splitDocuments(inner);
    contexts.push(...split.documents);
    framings.push(split.framing);
    return '\n';
  });
  if (containers === 0) return null;
  return { contexts, framing: framings.find((f) => f !== 'single') ?? 'tags', rest: rest.trim() };
}

function fromBareItems(text: string): EmbeddedContexts | null {
  const first = BARE_ITEMS.exec(text);
  if (!first) return null;
  const closing = [...text.matchAll(/<\/(document|doc|chunk|passage|source|documento|fragmento)\s*>/gi)].pop();
  const end = closing ? (closing.index ?? 0) + closing[0].length : first.index + first[0].length;
  const split = splitDocuments(text.slice(first.index, end));
  if (split.framing !== 'tags') return null;
  return { contexts: split.documents, framing: 'tags', rest: `${text.slice(0, first.index)}\n${text.slice(end)}`.trim() };
}

function fromHeader(text: string): EmbeddedContexts | null {
  const found = CONTEXT_HEADERS.map((re, kind) => ({ match: re.exec(text), kind }))
    .filter((h): h is { match: RegExpExecArray; kind: number } => h.match !== null)
    .sort((a, b) => a.match.index - b.match.index)[0];
  if (!found) return null;
  const header = found.match;
  const start = header.index + header[0].length;
  const after = text.slice(start);
  const end = END_HEADER.exec(after);
  let block = end ? after.slice(0, end.index) : after;
  // "Answer with the passages below.\nPassages: […]": the instruction announces a block with its own label.
  const label = CONTEXT_HEADERS[0]!.exec(block);
  if (label && block.slice(0, label.index).trim() === '') block = block.slice(label.index + label[0].length);
  const split = splitDocuments(block);
  // A header line followed by nothing is an empty context slot; an instruction with nothing after it is not a block.
  if (split.documents.length === 0 && found.kind !== 0) return null;
  const rest = `${text.slice(0, header.index)}\n${end ? after.slice(end.index) : ''}`.trim();
  return { contexts: split.documents, framing: split.framing, rest };
}

/** The question after a "Question:" marker, up to an "Answer:" marker or the end. */
export function questionAfterMarker(text: string): string | null {
  const matches = [...text.matchAll(new RegExp(QUESTION_HEADER.source, 'gi'))];
  const last = matches[matches.length - 1];
  if (!last || last.index === undefined) return null;
  const after = text.slice(last.index + last[0].length);
  const stop = new RegExp(`(^|\\n)[ \\t#*]*(answer|helpful answer|respuesta|assistant|${HEADER_WORDS})[ \\t*]*:`, 'i').exec(after);
  return nonEmpty(stop ? after.slice(0, stop.index) : after);
}
