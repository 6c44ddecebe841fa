import type { DemoChatMessage, DemoDocument, DemoUsage } from './model.js';
import type { DemoPerson, PiiKind } from './pii.js';
import type { DemoLanguage, KnowledgeChunk } from './types.js';

export interface Filled {
  text: string;
  pii: Set<PiiKind>;
  /** The personal values that went in, with their kind. */
  values: Array<{ kind: PiiKind; value: string }>;
}

const PLACEHOLDER_KIND: Record<string, PiiKind | undefined> = {
  name: 'person',
  first: 'person',
  email: 'email',
  phone: 'phone',
  iban: 'iban',
  card: 'card',
  address: 'address',
};

/** Fills `{name}`-style placeholders from a person and extra values, recording which kinds of personal data went in. */
export function fill(template: string, person: DemoPerson, extra: Record<string, string> = {}): Filled {
  const pii = new Set<PiiKind>();
  const values: Filled['values'] = [];
  const put = (kind: PiiKind, value: string) => {
    pii.add(kind);
    values.push({ kind, value });
    return value;
  };
  const text = template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    if (key in extra) return extra[key] ?? '';
    if (key === 'id')
      return person.idDocument ? put(person.idDocument.kind, person.idDocument.value) : put('email', person.email);
    const kind = PLACEHOLDER_KIND[key];
    if (!kind) return whole;
    switch (key) {
      case 'name':
        return put(kind, person.fullName);
      case 'first':
        return put(kind, person.firstName);
      default:
        return put(kind, String(person[key as 'email' | 'phone' | 'iban' | 'card' | 'address']));
    }
  });
  return { text, pii, values };
}

/** The chunk as a LangChain-style Document: text splitters record the source, title and line range. */
export function documentFromChunk(chunk: KnowledgeChunk, position: number, score: number): DemoDocument {
  const from = 1 + position * 14;
  return {
    pageContent: chunk.text,
    metadata: {
      source: chunk.source,
      title: chunk.title,
      chunkId: chunk.id,
      lang: chunk.lang,
      loc: { lines: { from, to: from + 11 } },
    },
    score,
  };
}

export function customerRecordDocument(text: string, lang: DemoLanguage, userId: string, score: number): DemoDocument {
  return {
    pageContent: text,
    metadata: {
      source: `crm/customers/${userId}.json`,
      title: lang === 'es' ? 'Ficha de cliente' : 'Customer record',
      chunkId: `crm-${userId}`,
      lang,
    },
    score,
  };
}

/**
 * The retrieved documents as a prompt embeds them: `numbered` ("[1] Title" + text, as most system prompts),
 * `separated` (texts between `---` lines) or `tagged` (`<document>` elements). Nothing retrieved, nothing embedded.
 */
export function formatContext(
  documents: DemoDocument[],
  style: 'numbered' | 'separated' | 'tagged' = 'numbered',
): string {
  if (style === 'separated') return documents.map((d) => d.pageContent).join('\n---\n');
  if (style === 'tagged')
    return documents.map((d) => `<document source="${d.metadata.source}">${d.pageContent}</document>`).join('\n');
  return documents.map((d, i) => `[${i + 1}] ${d.metadata.title}\n${d.pageContent}`).join('\n\n');
}

/** A rough BPE-like count (about four characters a token), enough for plausible usage figures. */
export function approxTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function usageFor(messages: DemoChatMessage[], output: string): DemoUsage {
  const input = messages.reduce((s, m) => s + approxTokens(m.content) + 4, 3);
  const out = approxTokens(output);
  return { input, output: out, total: input + out };
}

/** How customers type when they are in a hurry: lower case, no opening question mark. */
export function casual(question: string): string {
  const q = question.replace(/^¿/, '');
  return q.charAt(0).toLowerCase() + q.slice(1);
}

/** A search query derived from a question: what a query-rewriting step typically produces. */
export function searchQueryFor(question: string): string {
  return question
    .replace(/[¿?¡!.]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}
