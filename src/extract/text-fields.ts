import { looksLikeDocuments } from './chunks.js';
import { asMessages, contentText, isObj, messageRole, messageText, nonEmpty, parsed, type Obj } from './values.js';

/**
 * The question and the answer out of inputs and outputs as integrations record them: plain strings,
 * `{question}` / `{query}` / `{input}` wrappers, chat message lists, `@observe` `{args, kwargs}`,
 * OpenAI completions and messages, LangChain generations, LlamaIndex responses, Haystack replies.
 */

const QUESTION_KEYS = [
  'question',
  'query',
  'query_str',
  'queryStr',
  'user_input',
  'userInput',
  'user_query',
  'userQuery',
  'user_question',
  'input',
  'inputs',
  'q',
  'search_query',
  'prompt',
  'message',
  'text',
  'str_or_query_bundle',
  'query_bundle',
  'request',
  'human_input',
  'sys.query',
];
const ANSWER_KEYS = [
  'answer',
  'output',
  'response',
  'result',
  'final_answer',
  'finalAnswer',
  'output_text',
  'outputText',
  'text',
  'content',
  'completion',
  'reply',
  'replies',
  'generation',
  'generated_text',
  'message',
  'candidates',
  'llm',
  'return_values',
  'returnValues',
  'data',
];
const MAX_DEPTH = 6;

/** The user's question in an input value, or `null`. */
export function questionFrom(value: unknown, depth = 0): string | null {
  if (depth > MAX_DEPTH) return null;
  const v = parsed(value);
  if (typeof v === 'string') return nonEmpty(v);
  const messages = asMessages(v);
  if (messages) return lastUserText(messages);
  if (Array.isArray(v)) {
    // `@observe` positional args or a batch: the first element that reads as a question.
    for (const item of v) {
      const q = questionFrom(item, depth + 1);
      if (q) return q;
    }
    return null;
  }
  if (!isObj(v)) return null;
  for (const key of QUESTION_KEYS) {
    if (v[key] === undefined) continue;
    const q = questionFrom(v[key], depth + 1);
    if (q) return q;
  }
  if (v.args !== undefined || v.kwargs !== undefined) {
    const fromKwargs = isObj(v.kwargs) ? questionFrom(v.kwargs, depth + 1) : null;
    return fromKwargs ?? questionFrom(v.args, depth + 1);
  }
  // A question key deeper down, e.g. Haystack's `{data: {prompt_builder: {question}}}`.
  for (const inner of Object.values(v)) {
    const nested = isObj(parsed(inner)) ? deepQuestionKey(parsed(inner) as Obj, depth + 1) : null;
    if (nested) return nested;
  }
  // A single text field under an unknown name (e.g. `{"topic": "..."}`) is still the question.
  const strings = Object.values(v).filter((x) => typeof x === 'string' && x.trim().length > 0) as string[];
  if (strings.length === 1 && Object.keys(v).length <= 2 && looksLikeSentence(strings[0] as string))
    return nonEmpty(strings[0]);
  return null;
}

/** Ids, flags and codes are not questions: a sentence has words. */
function looksLikeSentence(text: string): boolean {
  return /\S\s+\S/.test(text.trim()) && text.trim().length >= 8;
}

function deepQuestionKey(v: Obj, depth: number): string | null {
  if (depth > MAX_DEPTH) return null;
  for (const key of QUESTION_KEYS) {
    const value = parsed(v[key]);
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  for (const inner of Object.values(v)) {
    const p = parsed(inner);
    if (isObj(p)) {
      const found = deepQuestionKey(p, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

/** The last user turn of a conversation: the one being answered. */
export function lastUserText(messages: Obj[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messageRole(messages[i]) === 'user') {
      const t = messageText(messages[i]);
      if (t) return t;
    }
  }
  return null;
}

/** The answer in an output value, or `null` (tool calls, documents and empty outputs are no answer). */
export function answerFrom(value: unknown, depth = 0): string | null {
  if (depth > MAX_DEPTH) return null;
  const v = parsed(value);
  if (typeof v === 'string') return nonEmpty(v);
  if (looksLikeDocuments(v)) return null;
  if (Array.isArray(v)) {
    if (v.length === 0) return null;
    const messages = asMessages(v);
    if (messages) {
      for (let i = messages.length - 1; i >= 0; i--) {
        if (messageRole(messages[i]) === 'assistant') {
          const t = messageText(messages[i]);
          if (t) return t;
        }
      }
      return null;
    }
    // Haystack `replies`, LangChain `generations` ([[{text}]]), Responses API output items: first readable one.
    for (const item of v) {
      const a = answerFrom(item, depth + 1);
      if (a) return a;
    }
    return null;
  }
  if (!isObj(v)) return null;
  const role = messageRole(v);
  if (role !== null) return role === 'assistant' || role === 'other' ? messageText(v) : null;
  if (Array.isArray(v.choices)) {
    for (const choice of v.choices) {
      if (!isObj(choice)) continue;
      const a = isObj(choice.message) ? messageText(choice.message) : nonEmpty(choice.text);
      if (a) return a;
    }
    return null;
  }
  if (Array.isArray(v.generations)) return answerFrom(v.generations, depth + 1);
  // Agent state (LangGraph `{messages: [...]}`): the last assistant turn.
  if (Array.isArray(v.messages)) {
    const fromMessages = answerFrom(v.messages, depth + 1);
    if (fromMessages) return fromMessages;
  }
  // Responses API output item / Anthropic message: {type:'message', content:[{type:'output_text', text}]}
  if (v.type === 'message' && v.content !== undefined) return contentText(v.content);
  for (const key of ANSWER_KEYS) {
    if (v[key] === undefined) continue;
    const a = answerFrom(v[key], depth + 1);
    if (a) return a;
  }
  return null;
}
