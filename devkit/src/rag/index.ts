/** A toy RAG service over the demo corpus (BM25 + extractive answers), with a switch that makes it worse. */
export { startToyRag, type ToyRag, type ToyRagOptions } from './server.js';
export { answerQuestion, type ToyAnswer } from './answer.js';
export { recordToyTrace, type LangfuseTarget } from './trace.js';
