/**
 * Turns a decided answer into an OpenAI/vLLM chat completion: n choices, tool calls or content, thinking
 * (reasoning mode), answer-changing faults, truncation at max_tokens, and usage counted with cl100k.
 */
import { randomBytes } from 'node:crypto';
import type { DecidedAnswer } from './chat-answer.js';
import type { ParsedChat } from './chat-request.js';
import type { AppliedFault } from './faults.js';
import { countTokens, decode, encode } from './tokens.js';

export interface ResponseContext {
  parsed: ParsedChat;
  answer: DecidedAnswer;
  fault?: AppliedFault;
  reasoning: 'off' | 'field' | 'inline';
  promptTokens: number;
  cachedTokens: number;
}

export interface BuiltCompletion {
  body: Record<string, unknown>;
  completionTokens: number;
}

export function buildCompletion(ctx: ResponseContext): BuiltCompletion {
  const { parsed, answer, fault } = ctx;
  let content = answer.content;
  let finishReason: 'stop' | 'length' | 'tool_calls' =
    parsed.request.mode === 'tool_call' && !parsed.namedTool ? 'tool_calls' : 'stop';
  // A scripted thought is sent even when the server's reasoning mode is off (in reasoning_content then).
  const mode = ctx.reasoning === 'off' && answer.reasoning !== undefined ? 'field' : ctx.reasoning;
  const thinking = parsed.thinking && mode !== 'off' ? (answer.reasoning ?? defaultThinking(answer)) : undefined;

  switch (fault?.kind) {
    case 'malformed_json':
      content = breakJson(content);
      break;
    case 'wrong_schema':
      content = content.trimStart().startsWith('[')
        ? '{"stand_in_fault":"wrong_schema"}'
        : '["stand_in_fault: wrong_schema"]';
      break;
    case 'truncated': {
      const tokens = encode(content);
      const keep = Math.max(1, Math.min(Math.floor(tokens.length / 2), (parsed.maxTokens ?? Infinity) - 1));
      content = decode(tokens.slice(0, keep));
      if (safeParses(content)) content = content.slice(0, Math.max(1, content.length - 1));
      finishReason = 'length';
      break;
    }
    case 'fenced_json':
      content = `\`\`\`json\n${content}\n\`\`\``;
      break;
    case 'think_in_content':
      content = `<think>\n${defaultThinking(answer)}\n</think>\n\n${content}`;
      break;
    default:
      break;
  }

  let inlineThinking = '';
  if (thinking !== undefined && mode === 'inline') inlineThinking = `<think>\n${thinking}\n</think>\n\n`;
  const thinkingTokens = thinking !== undefined && mode === 'field' ? countTokens(thinking) : 0;
  let reasoningContent = thinking !== undefined && mode === 'field' ? thinking : undefined;

  // Natural truncation: thinking and answer share the max_tokens budget, as on a real reasoning model.
  let visible = inlineThinking + content;
  let completionTokens = thinkingTokens + countTokens(visible);
  if (parsed.maxTokens !== undefined && completionTokens > parsed.maxTokens) {
    finishReason = 'length';
    if (thinkingTokens >= parsed.maxTokens) {
      reasoningContent = decode(encode(reasoningContent ?? '').slice(0, parsed.maxTokens));
      visible = '';
    } else {
      visible = decode(encode(visible).slice(0, parsed.maxTokens - thinkingTokens));
    }
    completionTokens = parsed.maxTokens;
  }

  const choices = Array.from({ length: parsed.n }, (_, index) => ({
    index,
    message: messageFor(ctx, visible, reasoningContent),
    logprobs: null,
    finish_reason: finishReason,
    stop_reason: null,
  }));
  const totalCompletion = completionTokens * parsed.n;
  return {
    completionTokens: totalCompletion,
    body: {
      id: `chatcmpl-${randomBytes(16).toString('hex')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: parsed.request.model,
      choices,
      usage: {
        prompt_tokens: ctx.promptTokens,
        completion_tokens: totalCompletion,
        total_tokens: ctx.promptTokens + totalCompletion,
        prompt_tokens_details: { cached_tokens: ctx.cachedTokens },
      },
      prompt_logprobs: null,
    },
  };
}

function messageFor(
  ctx: ResponseContext,
  visible: string,
  reasoningContent: string | undefined,
): Record<string, unknown> {
  const reasoning = reasoningContent !== undefined ? { reasoning_content: reasoningContent } : {};
  if (ctx.parsed.request.mode !== 'tool_call')
    return { role: 'assistant', content: visible, ...reasoning, tool_calls: [] };
  return {
    role: 'assistant',
    content: '',
    ...reasoning,
    tool_calls: [
      {
        id: `chatcmpl-tool-${randomBytes(16).toString('hex')}`,
        type: 'function',
        function: { name: ctx.parsed.request.toolName, arguments: visible },
      },
    ],
  };
}

function defaultThinking(answer: DecidedAnswer): string {
  return `The stand-in answers from ${answer.source === 'script' ? 'a scripted answer' : answer.source === 'fallback' ? 'its schema-driven lexical fallback' : `the lexical rule ${answer.source}`}; it does not reason and is not a quality judge.`;
}

/** Cuts JSON so it no longer parses (keeps the first half, never a complete value). */
function breakJson(content: string): string {
  let cut = content.slice(0, Math.max(1, Math.floor(content.length / 2)));
  while (cut.length > 0 && safeParses(cut)) cut = cut.slice(0, -1);
  return cut === '' ? '{' : cut;
}

function safeParses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
