/**
 * Token counting with a real tokenizer (tiktoken cl100k_base), so usage figures are comparable between
 * ragwatch and other evaluators driven against the stand-in. Chat prompts are counted as a chat template
 * renders them: every message's role and content plus a few framing tokens. Special-token text inside a
 * message is counted as ordinary text, never rejected.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import type { JudgeMessage } from './types.js';

let encoder: Tiktoken | undefined;

function tokenizer(): Tiktoken {
  encoder ??= new Tiktoken(cl100k);
  return encoder;
}

export function encode(text: string): number[] {
  return tokenizer().encode(text, [], []);
}

export function decode(tokens: number[]): string {
  return tokenizer().decode(tokens);
}

export function countTokens(text: string): number {
  return text === '' ? 0 : encode(text).length;
}

const memo = new Map<string, number[]>();
const MEMO_LIMIT = 5_000;

/** Encodes one rendered message, remembering recent ones (a judge's constant instructions repeat on every call). */
function encodePart(part: string): number[] {
  let tokens = memo.get(part);
  if (!tokens) {
    tokens = encode(part);
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
    memo.set(part, tokens);
  }
  return tokens;
}

/**
 * Token ids of the rendered prompt (the special markers are counted as ordinary text). Each message is
 * encoded on its own, as a chat template's special tokens separate them.
 */
export function promptTokens(messages: JudgeMessage[], tools?: unknown): number[] {
  const parts: string[] = [];
  if (tools !== undefined) parts.push(`<|im_start|>tools\n${JSON.stringify(tools)}<|im_end|>\n`);
  for (const m of messages) parts.push(`<|im_start|>${m.role}\n${m.content}<|im_end|>\n`);
  parts.push('<|im_start|>assistant\n');
  return parts.flatMap((part) => encodePart(part));
}
