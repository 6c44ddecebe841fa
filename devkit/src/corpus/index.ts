/** The demo corpus: a fictional company's knowledge base, a golden set, and realistic RAG traces emitted through the Langfuse SDKs. */
export { generateDemoTraces, DEMO_EPOCH, DEMO_MIX, type GenerateDemoTracesOptions } from './generate.js';
export { seedDemo, type SeedDemoOptions, type SeedDemoSummary } from './seed.js';
export { emitDemoTraces, type EmitDemoTracesOptions, type EmitOutcome, type Personality } from './emit/emit.js';
export { legacyIngestionEvents, type LegacyIngestionEvent } from './emit/ingestion.js';
export { OPENAI_DEFAULT_GENERATION_NAME } from './emit/openai.js';
export {
  seedGoldenDataset,
  datasetItemFor,
  summarizeGolden,
  GOLDEN_DATASET_NAME,
  type GoldenDatasetSummary,
} from './dataset.js';
export {
  KNOWLEDGE,
  GOLDEN_ITEMS,
  chunkById,
  goldenItems,
  searchKnowledge,
  terms,
  type ScoredChunk,
} from './knowledge.js';
export { makePerson, type DemoPerson, type PiiKind } from './pii.js';
export { retrievals, generations } from './model.js';
export type * from './model.js';
export type * from './types.js';
