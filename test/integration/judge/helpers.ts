import { z } from 'zod';
import type { StructuredRequest } from '../../../src/judge/types.js';

export const verdictSchema = {
  type: 'object',
  properties: {
    verdicts: {
      type: 'array',
      items: {
        type: 'object',
        properties: { statement: { type: 'string' }, supported: { type: 'boolean' } },
        required: ['statement', 'supported'],
        additionalProperties: false,
      },
    },
  },
  required: ['verdicts'],
  additionalProperties: false,
};

const verdictZod = z.object({ verdicts: z.array(z.object({ statement: z.string(), supported: z.boolean() })).min(1) });
export type Verdicts = z.infer<typeof verdictZod>;

export const expectedVerdicts: Verdicts = {
  verdicts: [
    { statement: 'Redis keeps data in memory.', supported: true },
    { statement: 'Redis was written in Java.', supported: false },
  ],
};

export function verdictRequest(signal?: AbortSignal): StructuredRequest<Verdicts> {
  return {
    name: 'test_verdicts',
    schema: verdictSchema,
    parse: (v) => verdictZod.parse(v),
    messages: [
      { role: 'system', content: 'Judge every statement against the context.' },
      {
        role: 'user',
        content:
          'context: Redis keeps data in memory and can persist snapshots.\nstatements: ["Redis keeps data in memory.", "Redis was written in Java."]',
      },
    ],
    maxTokens: 400,
    ...(signal ? { signal } : {}),
  };
}

/** Records the backoff delays asked for, without waiting. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

export async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
