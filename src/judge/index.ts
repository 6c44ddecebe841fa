/** Judge and embeddings clients for OpenAI-compatible servers (vLLM). */
export { createJudgeClient, type JudgeClientOptions } from './client.js';
export { createEmbeddingsClient, type EmbeddingsClientOptions } from './embeddings-client.js';
export { judgeClientsFromConfig, judgeDepsOf, type JudgeClientDeps } from './from-config.js';
export type { TransportOptions } from './options.js';
export type { RequestEvent } from './retry.js';
export { parseJsonAnswer, stripFences, stripThinking } from './answer-text.js';
export * from './types.js';
export { errorBodyMessage } from './error-envelope.js';
export { judgeCredentialsRefused, judgeProbe } from './probe.js';
export { costOf, formatCost, usageMetadata, type Pricing, type TokenCounts } from './pricing.js';
