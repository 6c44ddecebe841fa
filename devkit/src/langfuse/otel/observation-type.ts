import type { ObservationType } from '../types.js';
import type { Attributes } from './attributes.js';

/** Langfuse's ObservationTypeMapperRegistry, in priority order (the common mappers). */

const meaningful = (v: unknown) =>
  v !== null &&
  v !== undefined &&
  v !== '' &&
  !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

const LANGFUSE_TYPES: Record<string, ObservationType> = {
  span: 'SPAN',
  generation: 'GENERATION',
  event: 'EVENT',
  embedding: 'EMBEDDING',
  agent: 'AGENT',
  tool: 'TOOL',
  chain: 'CHAIN',
  retriever: 'RETRIEVER',
  guardrail: 'GUARDRAIL',
  evaluator: 'EVALUATOR',
};

const OPENINFERENCE: Record<string, ObservationType> = {
  CHAIN: 'CHAIN',
  RETRIEVER: 'RETRIEVER',
  LLM: 'GENERATION',
  EMBEDDING: 'EMBEDDING',
  AGENT: 'AGENT',
  TOOL: 'TOOL',
  GUARDRAIL: 'GUARDRAIL',
  EVALUATOR: 'EVALUATOR',
};

const GENAI_OPERATION: Record<string, ObservationType> = {
  chat: 'GENERATION',
  completion: 'GENERATION',
  text_completion: 'GENERATION',
  generate_content: 'GENERATION',
  generate: 'GENERATION',
  embeddings: 'EMBEDDING',
  invoke_agent: 'AGENT',
  create_agent: 'AGENT',
  execute_tool: 'TOOL',
};

const VERCEL_GENERATION = [
  'ai.generateText.doGenerate',
  'ai.streamText.doStream',
  'ai.generateObject.doGenerate',
  'ai.streamObject.doStream',
];
const VERCEL_EMBEDDING = ['ai.embedMany.doEmbed', 'ai.embed.doEmbed'];

function vercelOperation(attributes: Attributes, prefixes: string[]): boolean {
  const opName = attributes['operation.name'];
  const opId = attributes['ai.operationId'];
  return (
    (typeof opName === 'string' && prefixes.some((p) => opName.startsWith(p))) ||
    (typeof opId === 'string' && prefixes.includes(opId))
  );
}

const MODEL_KEYS = [
  'langfuse.observation.model.name',
  'gen_ai.request.model',
  'gen_ai.response.model',
  'llm.model_name',
  'model',
];

export function mapObservationType(attributes: Attributes): ObservationType {
  const direct = attributes['langfuse.observation.type'];
  if (meaningful(direct) && typeof direct === 'string' && LANGFUSE_TYPES[direct]) return LANGFUSE_TYPES[direct];
  const oi = attributes['openinference.span.kind'];
  if (typeof oi === 'string' && OPENINFERENCE[oi]) return OPENINFERENCE[oi];
  const op = attributes['gen_ai.operation.name'];
  if (typeof op === 'string' && GENAI_OPERATION[op]) return GENAI_OPERATION[op];
  const hasModel = [
    'langfuse.observation.model.name',
    'ai.model.id',
    'gen_ai.request.model',
    'gen_ai.response.model',
  ].some((k) => meaningful(attributes[k]));
  if (hasModel && vercelOperation(attributes, VERCEL_GENERATION)) return 'GENERATION';
  if (hasModel && vercelOperation(attributes, VERCEL_EMBEDDING)) return 'EMBEDDING';
  if (vercelOperation(attributes, ['ai.toolCall'])) return 'TOOL';
  if (meaningful(attributes['gen_ai.tool.name']) || meaningful(attributes['gen_ai.tool.call.id'])) return 'TOOL';
  if (MODEL_KEYS.some((k) => meaningful(attributes[k]))) return 'GENERATION';
  return 'SPAN';
}
