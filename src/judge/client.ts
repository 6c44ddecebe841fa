/**
 * The judge client: structured (json_schema, strict) chat calls to any OpenAI-compatible server such as
 * vLLM, with bounded concurrency, a deadline per attempt, retries with backoff and jitter, and repair
 * retries on unusable answers. Greedy and seeded by default, with an explicit max_tokens.
 */
import OpenAI from 'openai';
import { backoffs, Limiter, sleep } from '../internal/index.js';
import { parseJsonAnswer } from './answer-text.js';
import { shorten, type AttemptFailure } from './failure.js';
import type { TransportOptions } from './options.js';
import { withRetries, type AttemptResult, type RetryPolicy } from './retry.js';
import type { ChatMessage, JudgeClient, StructuredRequest, StructuredResult } from './types.js';

export interface JudgeClientOptions extends TransportOptions {
  /** Default 0 (greedy). */
  temperature?: number;
  /** Default 42; `null` sends none. */
  seed?: number | null;
  /** Default max_tokens when a request sets none (default 2048). */
  maxTokens?: number;
  /** Sends `chat_template_kwargs: {enable_thinking: false}` (vLLM reasoning models). Default false. */
  disableThinking?: boolean;
  /** Which waiting call gets the next free slot: the longest prompt (default) or the earliest. */
  queueOrder?: 'longest-first' | 'arrival';
}

/** Longest bad answer quoted back in a repair message. */
const MAX_QUOTED_ANSWER_CHARS = 1500;

export function createJudgeClient(options: JudgeClientOptions): JudgeClient {
  const openai = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey || 'EMPTY',
    maxRetries: 0,
    timeout: (options.timeoutMs ?? 120_000) + 1_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const policy: RetryPolicy = {
    kind: 'chat',
    maxAttempts: options.maxAttempts ?? 4,
    timeoutMs: options.timeoutMs ?? 120_000,
    backoffBaseMs: options.backoffBaseMs ?? backoffs.judge.baseMs,
    backoffMaxMs: options.backoffMaxMs ?? backoffs.judge.maxMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? backoffs.judge.maxRetryAfterMs,
    limiter: new Limiter(options.concurrency ?? 16),
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  };
  const temperature = options.temperature ?? 0;
  const seed = options.seed === undefined ? 42 : options.seed;
  const defaultMaxTokens = options.maxTokens ?? 2048;

  async function structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const baseMaxTokens = request.maxTokens ?? defaultMaxTokens;
    let truncations = 0;
    const outcome = await withRetries<T>(
      policy,
      `judge call ${request.name}`,
      request.signal,
      async (_n, previous, signal) => {
        if (previous?.kind === 'truncated') truncations += 1;
        const body = {
          model: options.model,
          messages: withRepair(request.messages, previous),
          temperature,
          ...(seed !== null ? { seed } : {}),
          // A truncated answer gets more room next time (up to 4×), besides the repair message.
          max_tokens: baseMaxTokens * Math.min(4, 2 ** truncations),
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: request.name, schema: request.schema, strict: true },
          },
          ...(options.disableThinking ? { chat_template_kwargs: { enable_thinking: false } } : {}),
        };
        const completion = await openai.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming, {
          signal,
        });
        return readAnswer(completion, request.parse);
      },
      options.queueOrder === 'arrival' ? 0 : promptLength(request.messages),
    );
    return {
      value: outcome.value,
      usage: {
        calls: outcome.attempts,
        promptTokens: outcome.promptTokens,
        completionTokens: outcome.completionTokens,
        latencyMs: outcome.latencyMs,
      },
    };
  }

  return { model: options.model, structured };
}

/**
 * A request's prompt length in characters: when calls queue for the judge's slots (a backlog: a drain, a weekly
 * run), the longest go first, so the last calls of the backlog are short ones and its tail is short.
 */
function promptLength(messages: readonly ChatMessage[]): number {
  let length = 0;
  for (const m of messages) length += typeof m.content === 'string' ? m.content.length : 0;
  return length;
}

function readAnswer<T>(completion: OpenAI.ChatCompletion, parse: (value: unknown) => T): AttemptResult<T> {
  const promptTokens = completion.usage?.prompt_tokens ?? 0;
  const completionTokens = completion.usage?.completion_tokens ?? 0;
  const fail = (kind: string, message: string, content: string): AttemptResult<T> => ({
    ok: false,
    failure: { kind, message, retryable: true, unusable: { content } },
    promptTokens,
    completionTokens,
  });
  const choice = completion.choices?.[0];
  // reasoning_content (thinking) is ignored on purpose: only the content is the answer.
  const content = choice?.message?.content ?? '';
  if (!choice) return fail('empty_answer', 'the server returned no choices', '');
  if (choice.finish_reason === 'length') return fail('truncated', 'the answer was cut off at max_tokens', content);
  const parsed = parseJsonAnswer(content);
  if (!parsed.ok) return fail(content.trim() === '' ? 'empty_answer' : 'invalid_json', parsed.error, content);
  try {
    return { ok: true, value: parse(parsed.value), promptTokens, completionTokens };
  } catch (err) {
    return fail(
      'schema_mismatch',
      `the JSON does not match the schema: ${shorten(err instanceof Error ? err.message : String(err))}`,
      content,
    );
  }
}

/**
 * After an unusable answer, the same greedy request would get the same answer: quote it back and name the
 * problem. Appended after the original messages so the cached prefix stays intact.
 */
function withRepair(messages: ChatMessage[], previous: AttemptFailure | undefined): ChatMessage[] {
  if (!previous?.unusable) return messages;
  const quoted =
    previous.unusable.content.length > MAX_QUOTED_ANSWER_CHARS
      ? `${previous.unusable.content.slice(0, MAX_QUOTED_ANSWER_CHARS)}…`
      : previous.unusable.content;
  const hint =
    previous.kind === 'truncated'
      ? 'Your previous answer was cut off before it was complete. Answer again, more briefly: keep every reason to one short sentence.'
      : `Your previous answer could not be used (${previous.kind}: ${previous.message}). Answer again with only a JSON value that matches the requested schema exactly: no prose, no markdown fences.`;
  return [
    ...messages,
    { role: 'assistant', content: quoted === '' ? '(empty)' : quoted },
    { role: 'user', content: hint },
  ];
}
