/** The golden-set builder's public surface for other folders: imports from outside go through this file. */
export { applyGoldenReview, publishedVersions, type ApplyResult } from './apply.js';
export {
  goldenNames,
  planGoldenBuild,
  runGoldenBuild,
  type BuildOptions,
  type BuildResult,
  type GoldenNames,
} from './build.js';
export { readCorpusFolder } from './corpus.js';
export { costLine, emptyCost } from './cost.js';
export { diffVersions, type GoldenDiff } from './diff.js';
export { buildDeps, connectGolden, langfuseDatasets, personalDataCheck, type GoldenEdges } from './edges.js';
export { goldenItemView } from './items.js';
export { mixShares, type GoldenSettings } from './plan.js';
export { AUTO_STRATA } from './strata-key.js';
export { chunksFromTraces } from './trace-chunks.js';
export { STRATA, type Chunk } from './types.js';
