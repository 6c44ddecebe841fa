import { createHash } from 'node:crypto';
import { parseConfig } from '../../../src/config/load.js';
import type { RagwatchConfig } from '../../../src/config/schema.js';
import { seedDemo, type SeedDemoSummary } from '../../../src/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '../../../src/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '../../../src/devkit/langfuse/index.js';
import type { DemoTrace } from '../../../src/devkit/corpus/index.js';

export type Personality = 'v3' | 'v4';

export interface Stack {
  lf: LangfuseServer;
  judge: JudgeServer;
  close(): Promise<void>;
}

export async function startStack(personality: Personality, options: { now?: () => number; judgeParallelism?: number } = {}): Promise<Stack> {
  const lf = await startLangfuseServer({ personality, host: '127.0.0.1', port: 0, ...(options.now ? { now: options.now } : {}) });
  const judge = await startJudgeServer({ host: '127.0.0.1', port: 0, ...(options.judgeParallelism ? { parallelism: options.judgeParallelism } : {}) });
  return {
    lf,
    judge,
    close: async () => {
      await Promise.all([lf.close(), judge.close()]);
    },
  };
}

/** Configuration pointing at the stack; `extra` is merged per section. */
export function stackConfig(stack: Stack, extra: Record<string, Record<string, unknown>> = {}): RagwatchConfig {
  const base: Record<string, Record<string, unknown>> = {
    langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
    judge: { baseUrl: stack.judge.url, model: stack.judge.model },
    embeddings: { model: stack.judge.embeddingModel },
    sampling: { rate: 0.1 },
    log: { level: 'silent' },
  };
  for (const [section, values] of Object.entries(extra)) base[section] = { ...(base[section] ?? {}), ...values };
  return parseConfig(base);
}

export async function seed(stack: Stack, personality: Personality, count: number, end: Date, seedValue: number | string = 7, windowMinutes = 45): Promise<SeedDemoSummary> {
  return seedDemo({
    langfuseUrl: stack.lf.url,
    publicKey: stack.lf.publicKey,
    secretKey: stack.lf.secretKey,
    personality,
    count,
    now: end,
    windowMinutes,
    dataset: false,
    verify: false,
    seed: seedValue,
  });
}

/** The sampling formula, written independently of `src/online/sampler.ts`. */
export function expectedSampled(ids: Iterable<string>, rate: number, salt = 'ragwatch-sampling-v1'): Set<string> {
  const out = new Set<string>();
  for (const id of ids) {
    const top53 = createHash('sha256').update(`${salt}\0${id}`).digest().readBigUInt64BE(0) >> 11n;
    if (Number(top53) / 2 ** 53 < rate) out.add(id);
  }
  return out;
}

/** Traces an extractor should turn into a RAG sample with contexts. */
export function isRag(trace: DemoTrace): boolean {
  return trace.expected !== null && trace.expected.contexts.length > 0;
}

/** Backoff sleeps that return at once (the code under test still computes and requests them). */
export const noSleep = async () => {};

export const SCORE_NAMES = ['ragas-faithfulness', 'ragas-answer-relevancy'] as const;
