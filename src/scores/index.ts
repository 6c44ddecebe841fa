/** What both jobs' scores share: names, Langfuse score configs, comments, and the write batcher. */
export {
  ABSTENTION_SCORE,
  ANSWER_LEAK_SCORE,
  GATE_SCORE,
  NOISE_DELTA_SCORE,
  metricOfScore,
  scoreNameFor,
} from './names.js';
export {
  experimentScoreConfigs,
  onlineScoreConfigs,
  scoreConfigDefinitions,
  type ScoreConfigDefinition,
} from './configs.js';
export { MAX_COMMENT_LENGTH, publishableComment, readCutNote, shortenComment } from './comments.js';
export { ScoreBatcher, type ScoreSink, type ScoreWriter } from './batcher.js';
