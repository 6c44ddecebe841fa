/** The judge stand-in: an OpenAI-compatible, vLLM-like server answering from lexical rules (not a quality judge). */
export { startJudgeServer, DEFAULT_MODEL, DEFAULT_EMBEDDING_MODEL, STANDIN_VLLM_VERSION } from './server.js';
export type { JudgeServer, JudgeServerStats, RecordedRequest } from './server.js';
export type { FaultController, FaultOptions, FaultRoute } from './faults.js';
export type { Script, ScriptedAnswer } from './script.js';
export type {
  FaultKind,
  JudgeMessage,
  JudgeRequest,
  JudgeRoute,
  JudgeRule,
  JudgeServerOptions,
  LatencyDistribution,
} from './types.js';
export { productionProfile, type ProductionProfileOptions, type ServingProfile } from './profiles.js';
export { builtinRules } from './rules/index.js';
export { promptParts, splitContexts, type PromptParts } from './request-text.js';
export { fallbackAnswer } from './schema-fallback.js';
export { lexicalEmbedding, cosine } from './lexical-embedding.js';
export { countTokens } from './tokens.js';
export * as lexical from './lexical.js';
