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

/** The text a ChatML-like template renders for the messages (and tool definitions, when present). */
export function renderPrompt(messages: JudgeMessage[], tools?: unknown): string {
  const parts: string[] = [];
  if (tools !== undefined) parts.push(`<|im_start|>tools\n${JSON.stringify(tools)}<|im_end|>\n`);
  for (const m of messages) parts.push(`<|im_start|>${m.role}\n${m.content}<|im_end|>\n`);
  parts.push('<|im_start|>assistant\n');
  return parts.join('');
}

/** Token ids of the rendered prompt (the special markers are counted as ordinary text). */
export function promptTokens(messages: JudgeMessage[], tools?: unknown): number[] {
  return encode(renderPrompt(messages, tools));
}
