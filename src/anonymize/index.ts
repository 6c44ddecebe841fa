export {
  ENTITY_TYPES,
  VALIDATED_TYPES,
  type Candidate,
  type DetectedEntity,
  type EntityType,
  type Recognizer,
} from './types.js';
export { createAnalyzer, type Analyzer, type AnalyzerOptions } from './analyzer.js';
export { createRecognizers } from './recognizers/registry.js';
export { PLACEHOLDER_PATTERN, type Replacement } from './pseudonymizer.js';
export { placeholderNote } from './prompt-note.js';
export {
  createAnonymizer,
  PII_RESIDUAL_SKIP_REASON,
  type AnonymizedFields,
  type Anonymizer,
  type AnonymizerOptions,
  type FieldText,
} from './anonymizer.js';
export { jsonLeaves, setOwn } from './json-leaves.js';
export { createAnswerLeakCheck, LEAK_TYPES, type AnswerLeak, type AnswerLeakCheck } from './answer-leak.js';
export {
  anonymizerFromConfig,
  passThroughAnonymizer,
  type AnonymizedSample,
  type SampleAnonymizer,
} from './sample-anonymizer.js';
