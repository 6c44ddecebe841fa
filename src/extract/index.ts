export { extractRagSample } from './extract.js';
export { skipReasons, type SkipReason, type ExtractResult, type ExtractMapping } from './types.js';
export { chunksFrom, dedupeChunks, looksLikeDocuments } from './chunks.js';
export { questionFrom, answerFrom } from './text-fields.js';
export { embeddedContexts } from './embedded.js';
export { parsePath, evaluatePath } from './path.js';
export { mappingProblems, type FieldMapping } from './mapping.js';
