import type { ScriptedLlmServer } from '../emit/scripted-llm.js';

/**
 * Integrations as teams run them: a real npm package (OpenLLMetry, LangGraph.js with `@langfuse/langchain`,
 * the OpenAI Agents SDK, ...) instrumenting a small RAG app and sending its traces to Langfuse the way that
 * package reaches a real Langfuse. Each scenario is one request of that app; it says what a reader of the
 * trace should find (the question asked, the answer the app gave and the contexts it was given), taken
 * from the app's own values, never from the trace.
 */

/** Where the integration sends its traces: a Langfuse base URL and project keys. */
export interface LangfuseTarget {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
}

export type Expectation =
  | {
      kind: 'rag';
      question: string;
      answer: string;
      contexts: string[];
      /** Where the contexts should be read from: what a retrieval step returned, or the prompt. */
      contextsFrom: 'retrieval' | 'prompt';
    }
  | { kind: 'skip'; reason: 'not_rag' | 'no_contexts' | 'no_answer' | 'no_question' };

export interface ScenarioEnv {
  /** The app's LLM (OpenAI-compatible, on loopback); scenarios queue its answers. */
  llm: ScriptedLlmServer;
}

export interface Scenario<E extends ScenarioEnv = ScenarioEnv> {
  name: string;
  /** One line: what the app does in this request. */
  description: string;
  run(env: E): Promise<Expectation>;
}

export interface IntegrationSession<E extends ScenarioEnv = ScenarioEnv> {
  env: E;
  /** Sends every finished span to Langfuse. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface Integration<E extends ScenarioEnv = ScenarioEnv> {
  name: string;
  /** The npm packages that shape the trace (their installed versions are recorded with the fixtures). */
  packages: string[];
  /** How the traces reach Langfuse, e.g. `OTLP/protobuf to /api/public/otel`. */
  transport: string;
  /**
   * Sets up the app and its tracing against `target`. Tracing SDKs keep process-wide state, so an
   * integration is started once per process (see `capture.ts`).
   */
  start(target: LangfuseTarget, llm: ScriptedLlmServer): Promise<IntegrationSession<E>>;
  scenarios: Scenario<E>[];
}

/** The answer a scripted completion carries, with plausible usage figures. */
export function reply(content: string | null, toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>) {
  const completion = Math.max(1, Math.ceil((content ?? JSON.stringify(toolCalls ?? [])).length / 4));
  return {
    content,
    model: 'gpt-4o-mini-2024-07-18',
    usage: { prompt_tokens: 180 + completion, completion_tokens: completion, total_tokens: 180 + 2 * completion },
    ...(toolCalls ? { toolCalls } : {}),
  };
}
