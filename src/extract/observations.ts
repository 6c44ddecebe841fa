import type { ObservationRecord } from '../langfuse/index.js';
import { traceNameKey } from '../internal/index.js';
import { retrievalStrength } from './retrieval.js';
import { asMessages } from './values.js';

/** Classifies a trace's observations: which ones retrieved, which ones generated, how deep each sits. */

const LLM_NAME =
  /openai|chat|llm|completion|generat|anthropic|claude|ollama|vllm|gemini|bedrock|mistral|cohere|groq|gpt|llama/i;

export interface Classified {
  ordered: ObservationRecord[];
  depth: Map<string, number>;
  generations: ObservationRecord[];
  retrievals: ObservationRecord[];
}

export function classify(observations: ObservationRecord[]): Classified {
  const byId = new Map(observations.map((o) => [o.id, o]));
  const depth = new Map<string, number>();
  const depthOf = (o: ObservationRecord, seen = new Set<string>()): number => {
    const known = depth.get(o.id);
    if (known !== undefined) return known;
    const parent = o.parentObservationId ? byId.get(o.parentObservationId) : undefined;
    const d = !parent || seen.has(o.id) ? 0 : depthOf(parent, seen.add(o.id)) + 1;
    depth.set(o.id, d);
    return d;
  };
  observations.forEach((o) => depthOf(o));
  const generations = observations.filter(isGeneration);
  const generationSet = new Set(generations);
  const scored = observations.filter((o) => !generationSet.has(o)).map((o) => ({ o, strength: retrievalStrength(o) }));
  // A response object that merely carries its sources (LlamaIndex `{response, source_nodes}`) counts only
  // when nothing retrieved explicitly.
  const strong = scored.filter((x) => x.strength === 2).map((x) => x.o);
  const retrievals = strong.length > 0 ? strong : scored.filter((x) => x.strength === 1).map((x) => x.o);
  return { ordered: observations, depth, generations, retrievals };
}

export function isGeneration(o: ObservationRecord): boolean {
  if (o.type === 'GENERATION') return true;
  if (o.type !== 'SPAN' && o.type !== 'CHAIN') return false;
  return o.name !== null && LLM_NAME.test(o.name) && asMessages(o.input) !== null;
}

/**
 * An observation as extraction's sources, reasons and `extract --trace` name it: its name's key (the name when it
 * reads as an identifier, else a hash: span names are the app's choice, and a careless one carries user text), else
 * its id. Mappings still match the names as written.
 */
export function shownName(o: Pick<ObservationRecord, 'id' | 'name'>): string {
  return traceNameKey(o.name) ?? o.id;
}

export function describe(o: ObservationRecord): string {
  return `${o.type.toLowerCase()}:${shownName(o)}`;
}
