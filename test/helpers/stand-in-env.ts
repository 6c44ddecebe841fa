import type { JudgeServer } from '@ragwatch/devkit/judge/index.js';
import type { LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';

/** The environment that points a `ragwatch` process at the devkit's Langfuse and judge stand-ins. */
export function standInEnv(langfuse: LangfuseServer, judge: JudgeServer): Record<string, string> {
  return {
    LANGFUSE_BASE_URL: langfuse.url,
    LANGFUSE_PUBLIC_KEY: langfuse.publicKey,
    LANGFUSE_SECRET_KEY: langfuse.secretKey,
    RAGWATCH_JUDGE_BASE_URL: judge.url,
    RAGWATCH_JUDGE_MODEL: judge.model,
    RAGWATCH_EMBEDDINGS_MODEL: judge.embeddingModel,
  };
}

/**
 * The config lines that point `ragwatch` at the stand-ins with its state file at `statePath`: two attempts per call,
 * a 20 s judge timeout, logs off.
 */
export function standInConfigLines(langfuse: LangfuseServer, judge: JudgeServer, statePath: string): string[] {
  return [
    `langfuse: {baseUrl: "${langfuse.url}", publicKey: ${langfuse.publicKey}, secretKey: ${langfuse.secretKey}, maxAttempts: 2}`,
    `judge: {baseUrl: "${judge.url}", model: ${judge.model}, maxAttempts: 2, timeoutMs: 20000}`,
    `embeddings: {model: ${judge.embeddingModel}, maxAttempts: 2}`,
    'log: {level: silent}',
    `state: {path: "${statePath}"}`,
  ];
}
