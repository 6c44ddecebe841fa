export { extractRagSample } from './extract.js';
export {
  skipReasons,
  type SkipReason,
  type ExtractResult,
  type ExtractMapping,
  type FoundPart,
  type FoundContexts,
  type PartRule,
} from './types.js';
export { chunksFrom, dedupeChunks, looksLikeDocuments } from './chunks.js';
export { questionFrom, answerFrom } from './text-fields.js';
export { embeddedContexts } from './embedded.js';
export { splitDocuments, type Framing } from './prompt-split.js';
export { parsePath, evaluatePath, type PathStep } from './path.js';
export { mappingProblems, type FieldMapping } from './mapping.js';
export { formatExtractReport } from './report-format.js';
export { extractReport } from './report.js';
