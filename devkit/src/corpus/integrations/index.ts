import type { Integration } from './types.js';

/**
 * The integrations, loaded on demand: each pulls in its framework and tracing SDK, and tracing SDKs keep
 * process-wide state, so a process loads and captures one of them (see `regenerate.ts`).
 */
export const INTEGRATIONS: Record<string, () => Promise<Integration>> = {
  'openllmetry-llamaindex': async () =>
    (await import('./openllmetry-llamaindex.js')).openllmetryLlamaindex as Integration,
  'openllmetry-langchain': async () => (await import('./openllmetry-langchain.js')).openllmetryLangchain,
  'openllmetry-openai': async () => (await import('./openllmetry-openai.js')).openllmetryOpenai as Integration,
  'langgraph-langfuse': async () => (await import('./langgraph.js')).langgraph as Integration,
  'langfuse-openai': async () => (await import('./langfuse-openai.js')).langfuseOpenai as Integration,
  'openai-agents': async () => (await import('./openai-agents.js')).openaiAgents,
  'vercel-ai-sdk': async () => (await import('./vercel-ai.js')).vercelAi as Integration,
  'otel-genai': async () => (await import('./otel-genai.js')).otelGenai as Integration,
};

export type { Expectation, Integration, LangfuseTarget, Scenario } from './types.js';
export { captureIntegration, type CapturedTrace } from './capture.js';
