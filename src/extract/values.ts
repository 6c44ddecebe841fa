import { parseJsonLooking } from '../langfuse/index.js';

/** Small readers shared by the extractors: JSON-looking strings, message roles and message text. */

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value with JSON-looking strings parsed (integrations nest serialized JSON at any depth). */
export function parsed(value: unknown): unknown {
  return parseJsonLooking(value);
}

export function nonEmpty(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const t = text.trim();
  return t.length > 0 ? t : null;
}

/**
 * Text of a message `content`: a string, or a list of parts (`{type:'text', text}`, `{text}`,
 * Responses API `output_text`, Anthropic blocks, Gemini `parts`). Non-text parts are ignored.
 */
export function contentText(content: unknown): string | null {
  const value = parsed(content);
  if (typeof value === 'string') return nonEmpty(value);
  if (Array.isArray(value)) {
    const texts = value.flatMap((part) => {
      if (typeof part === 'string') return [part];
      if (!isObj(part)) return [];
      if (part.type !== undefined && !/text/i.test(String(part.type))) return [];
      const t = part.text ?? part.content;
      if (typeof t === 'string') return [t];
      if (isObj(t) && typeof t.value === 'string') return [t.value];
      return [];
    });
    return nonEmpty(texts.join('\n'));
  }
  if (isObj(value) && typeof value.text === 'string') return nonEmpty(value.text);
  return null;
}

export type Role = 'system' | 'user' | 'assistant' | 'tool' | 'other';

/** The role of a chat message in any of the usual serializations; `null` when the value is not a message. */
export function messageRole(message: unknown): Role | null {
  if (!isObj(message)) return null;
  const viaType = message.role === undefined && message._role === undefined;
  let raw: unknown = message.role ?? message._role ?? message.type;
  // LangChain's `lc` serialization: {lc:1, type:'constructor', id:[..., 'HumanMessage'], kwargs:{content}}
  if (message.lc !== undefined && Array.isArray(message.id)) raw = message.id[message.id.length - 1];
  if (isObj(raw) && typeof raw.value === 'string') raw = raw.value;
  if (typeof raw !== 'string') return null;
  const hasContent =
    'content' in message || '_content' in message || 'parts' in message || 'kwargs' in message || 'text' in message;
  if (!hasContent) return null;
  const r = raw.toLowerCase();
  if (/^(system|developer)$|systemmessage/.test(r)) return 'system';
  if (/^(user|human)$|humanmessage/.test(r)) return 'user';
  if (/^(assistant|ai|model|bot|chatbot)$|aimessage/.test(r)) return 'assistant';
  if (/^(tool|function|ipython)$|toolmessage|functionmessage/.test(r)) return 'tool';
  // `type` is also a content part's or a document's kind: only a known role counts there.
  if (viaType || r === 'message' || r === 'constructor') return null;
  return 'other';
}

export function messageText(message: unknown): string | null {
  if (!isObj(message)) return null;
  const kwargs = isObj(message.kwargs) ? message.kwargs : undefined;
  return contentText(message.content ?? message._content ?? message.parts ?? kwargs?.content ?? message.text);
}

/** A list of chat messages, possibly nested one level (LangChain batches: `[[...messages]]`). */
export function asMessages(value: unknown): Obj[] | null {
  let v = parsed(value);
  if (isObj(v) && Array.isArray(v.messages)) v = v.messages;
  if (!Array.isArray(v) || v.length === 0) return null;
  if (v.length === 1 && Array.isArray(v[0])) v = v[0];
  const list = v as unknown[];
  if (list.length === 0) return null;
  const roles = list.map(messageRole);
  if (roles.some((r) => r === null)) return null;
  return list as Obj[];
}

export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
