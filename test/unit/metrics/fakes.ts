import type { EmbeddingsClient, JudgeClient, StructuredRequest, StructuredResult } from '../../../src/judge/types.js';
import { JudgeCallError } from '../../../src/judge/types.js';

export type Handler = (request: StructuredRequest<unknown>) => unknown;

/** A JudgeClient double: answers by schema name through `handlers`, parsing with the request's own parser. */
export class FakeJudge implements JudgeClient {
  readonly model = 'fake-judge';
  readonly requests: StructuredRequest<unknown>[] = [];
  constructor(private readonly handlers: Record<string, Handler | JudgeCallError>) {}

  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    this.requests.push(request as StructuredRequest<unknown>);
    const handler = this.handlers[request.name];
    if (handler === undefined) throw new Error(`no fake answer for ${request.name}`);
    if (handler instanceof JudgeCallError) throw handler;
    const raw = handler(request as StructuredRequest<unknown>);
    const prompt = request.messages.map((m) => m.content).join('\n').length;
    return {
      value: request.parse(raw),
      usage: { calls: 1, promptTokens: prompt, completionTokens: JSON.stringify(raw).length, latencyMs: 1 },
    };
  }
}

/** An EmbeddingsClient double: exact vectors per text, else a vector from the text's letters. */
export class FakeEmbeddings implements EmbeddingsClient {
  readonly model = 'fake-embeddings';
  readonly calls: string[][] = [];
  constructor(private readonly vectors: Record<string, number[]> = {}) {}

  async embed(texts: string[]) {
    this.calls.push(texts);
    return {
      vectors: texts.map((t) => this.vectors[t] ?? letterVector(t)),
      usage: { requests: 1, promptTokens: texts.join(' ').split(/\s+/).length, latencyMs: 1 },
    };
  }
}

function letterVector(text: string): number[] {
  const v = new Array<number>(26).fill(0);
  for (const ch of text.toLowerCase()) {
    const i = ch.charCodeAt(0) - 97;
    if (i >= 0 && i < 26) v[i] = (v[i] ?? 0) + 1;
  }
  return v;
}

/** Unit vectors in 2-D whose cosine with [1, 0] is exactly `c`. */
export function vectorWithCosine(c: number): number[] {
  return [c, Math.sqrt(Math.max(0, 1 - c * c))];
}

/** The sample section between tags in the user message of a request. */
export function userOf(request: StructuredRequest<unknown>): string {
  return request.messages[request.messages.length - 1]?.content ?? '';
}
