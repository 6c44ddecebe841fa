/**
 * `stream: true` for chat completions: the finished completion replayed as server-sent events the way vLLM
 * streams (a role chunk, the content or tool-call arguments, the finish reason, an optional usage chunk when
 * `stream_options.include_usage`, then `[DONE]`).
 */
import type { ServerResponse } from 'node:http';
import { STANDIN_HEADER, STANDIN_NOTICE } from './http-util.js';

interface Choice {
  index: number;
  message: {
    role: string;
    content: string | null;
    reasoning_content?: string;
    tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  };
  finish_reason: string;
}

export function streamCompletion(
  res: ServerResponse,
  body: Record<string, unknown>,
  includeUsage: boolean,
  headers: Record<string, string>,
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    [STANDIN_HEADER]: STANDIN_NOTICE,
    ...headers,
  });
  const base = { id: body.id, object: 'chat.completion.chunk', created: body.created, model: body.model };
  const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  for (const choice of body.choices as Choice[]) {
    const { message } = choice;
    send({
      ...base,
      choices: [
        { index: choice.index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null },
      ],
    });
    if (message.reasoning_content !== undefined) {
      send({
        ...base,
        choices: [
          {
            index: choice.index,
            delta: { reasoning_content: message.reasoning_content },
            logprobs: null,
            finish_reason: null,
          },
        ],
      });
    }
    const delta =
      message.tool_calls && message.tool_calls.length > 0
        ? { tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }
        : { content: message.content ?? '' };
    send({ ...base, choices: [{ index: choice.index, delta, logprobs: null, finish_reason: null }] });
    send({
      ...base,
      choices: [{ index: choice.index, delta: {}, logprobs: null, finish_reason: choice.finish_reason }],
    });
  }
  if (includeUsage) send({ ...base, choices: [], usage: body.usage });
  res.end('data: [DONE]\n\n');
}
