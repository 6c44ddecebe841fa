import {
  type EmbeddingsClient,
  type JudgeClient,
  type StructuredRequest,
  type StructuredResult,
  JudgeCallError,
} from '../judge/index.js';
import type { Progress } from '../progress/index.js';

/** What a build cost: judge requests and tokens (generator and judge apart), embeddings requests. */
export interface Cost {
  generator: { calls: number; promptTokens: number; completionTokens: number };
  judge: { calls: number; promptTokens: number; completionTokens: number };
  embeddings: { requests: number; tokens: number };
}

export function emptyCost(): Cost {
  return {
    generator: { calls: 0, promptTokens: 0, completionTokens: 0 },
    judge: { calls: 0, promptTokens: 0, completionTokens: 0 },
    embeddings: { requests: 0, tokens: 0 },
  };
}

/** A judge client whose requests (retries included, failed calls too) are added to `cost[role]`. */
export function metered(
  inner: JudgeClient,
  cost: Cost,
  role: 'generator' | 'judge',
  progress?: Pick<Progress, 'callStarted' | 'callEnded'>,
): JudgeClient {
  const add = (usage: { calls: number; promptTokens: number; completionTokens: number } | undefined) => {
    if (!usage) return;
    cost[role].calls += usage.calls;
    cost[role].promptTokens += usage.promptTokens;
    cost[role].completionTokens += usage.completionTokens;
  };
  return {
    get model() {
      return inner.model;
    },
    async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      progress?.callStarted();
      try {
        const result = await inner.structured(request);
        add(result.usage);
        return result;
      } catch (err) {
        if (err instanceof JudgeCallError) add(err.usage);
        throw err;
      } finally {
        progress?.callEnded();
      }
    },
  };
}

export function meteredEmbeddings(inner: EmbeddingsClient, cost: Cost): EmbeddingsClient {
  return {
    get model() {
      return inner.model;
    },
    async embed(texts, signal) {
      const result = await inner.embed(texts, signal);
      cost.embeddings.requests += result.usage.requests;
      cost.embeddings.tokens += result.usage.promptTokens;
      return result;
    },
  };
}

const n = (x: number) => x.toLocaleString('en-US');

export function costLine(cost: Cost): string {
  const calls = cost.generator.calls + cost.judge.calls;
  const prompt = cost.generator.promptTokens + cost.judge.promptTokens;
  const completion = cost.generator.completionTokens + cost.judge.completionTokens;
  return (
    `cost: ${n(calls)} judge requests (generator ${n(cost.generator.calls)}, filters ${n(cost.judge.calls)}), ` +
    `${n(prompt)} prompt and ${n(completion)} completion tokens; ${n(cost.embeddings.requests)} embeddings requests (${n(cost.embeddings.tokens)} tokens)`
  );
}
