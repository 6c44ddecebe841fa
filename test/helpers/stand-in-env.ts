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
