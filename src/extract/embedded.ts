import { nonEmpty } from './values.js';

/**
 * Contexts and question embedded in a prompt: the common RAG templates put the retrieved text in the
 * system or user message ("Context:\n...", "<context>...</context>", "Documents:", Spanish "Contexto:")
 * and the question after a "Question:" marker. Used only when no retrieval was recorded.
 */

const CONTEXT_TAG = /<(context|contexts|documents?|sources?|chunks?|retrieved_context|knowledge|contexto|documentos?)(\s[^>]*)?>([\s\S]*?)<\/\1>/gi;
const HEADER_WORDS =
  'context|contexts|retrieved context|relevant context|context information|documents?|retrieved documents|relevant documents|sources|source documents|knowledge|knowledge base|passages|excerpts|contexto|documentos?|fuentes|información de contexto|fragmentos';
/** A header line ("Context:", "Context information is below.") or an instruction announcing the text that follows. */
const CONTEXT_HEADERS = [
  new RegExp(`(^|\\n)[ \\t#*]*(${HEADER_WORDS})[ \\t*]*:[ \\t]*\\n?`, 'i'),
  new RegExp(`(^|\\n)[ \\t#*]*(${HEADER_WORDS})(\\s+(is|are)\\s+(below|as follows))?[ \\t.*]*\\n`, 'i'),
  /(use|using|based on|given|answer[^\n]*?with)\s+(only\s+)?the\s+following\s+(pieces\s+of\s+)?(retrieved\s+)?(context|documents?|information|passages|sources|excerpts)[^\n]*\n/i,
  /(usa|utiliza|con|según)\s+(solo\s+|únicamente\s+)?(el|los|la|las)\s+siguientes?\s+(fragmentos|documentos|contexto|información)[^\n]*\n/i,
];
const QUESTION_HEADER = /(^|\n)[ \t#*]*(question|user question|query|user query|pregunta|consulta|user)[ \t*]*:[ \t]*/i;
const END_HEADER = /(^|\n)[ \t#*]*(question|user question|query|user query|pregunta|consulta|answer|helpful answer|respuesta|instructions?|instrucciones)[ \t*]*:/i;
const SEPARATOR = /\n[ \t]*(?:-{3,}|={3,}|\*{3,}|_{3,})[ \t]*\n/;
const NUMBERED = /\n(?=[ \t]*(?:\[\d+\]|\(\d+\)|(?:document|doc|source|chunk|passage|context|documento|fuente|fragmento)\s*#?\d+\s*[:.)\]-]))/i;

export interface EmbeddedContexts {
  contexts: string[];
  /** The text with the context block removed (what is left is usually instructions and/or the question). */
  rest: string;
}

export function embeddedContexts(text: string): EmbeddedContexts | null {
  const tagged: string[] = [];
  let rest = text.replace(CONTEXT_TAG, (_m, _tag, _attrs, inner: string) => {
    tagged.push(...splitInnerTags(inner));
    return '\n';
  });
  if (tagged.length > 0) return { contexts: tagged.flatMap(splitBlock), rest: rest.trim() };

  const header = CONTEXT_HEADERS.map((re) => re.exec(text)).filter((m): m is RegExpExecArray => m !== null).sort((a, b) => a.index - b.index)[0];
  if (!header) return null;
  const start = header.index + header[0].length;
  const after = text.slice(start);
  const end = END_HEADER.exec(after);
  let block = end ? after.slice(0, end.index) : after;
  // LlamaIndex style: the context sits between two separator lines, instructions follow the second.
  const fenced = /^\s*(?:-{3,}|={3,}|\*{3,}|_{3,})[ \t]*\n([\s\S]*?)\n[ \t]*(?:-{3,}|={3,}|\*{3,}|_{3,})[ \t]*(\n|$)/.exec(block);
  if (fenced) block = fenced[1] as string;
  const contexts = splitBlock(block);
  if (contexts.length === 0) return null;
  rest = `${text.slice(0, header.index)}\n${end ? after.slice(end.index) : ''}`.trim();
  return { contexts, rest };
}

/** Nested `<document>` tags inside a `<documents>` block are separate chunks. */
function splitInnerTags(inner: string): string[] {
  const nested: string[] = [];
  inner.replace(CONTEXT_TAG, (_m, _t, _a, text: string) => {
    nested.push(text);
    return '';
  });
  return nested.length > 0 ? nested : [inner];
}

function splitBlock(block: string): string[] {
  const text = `\n${block.trim()}\n`;
  let parts = text.split(SEPARATOR);
  if (parts.length === 1) parts = text.split(NUMBERED);
  if (parts.length === 1) {
    // One chunk per bullet when the whole block is a bullet list.
    const lines = text.split('\n').filter((l) => l.trim().length > 0);
    if (lines.length > 1 && lines.every((l) => /^\s*[-*•]\s+\S/.test(l))) parts = lines.map((l) => l.replace(/^\s*[-*•]\s+/, ''));
  }
  return parts.map((p) => nonEmpty(p)).filter((p): p is string => p !== null);
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
