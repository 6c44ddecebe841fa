/**
 * The built-in rule registry, tried in this order after the server's `rules` option and before the generic
 * schema-driven fallback. Register a rule module with one line in the list below.
 */
import type { JudgeRule } from '../types.js';
import { ragwatchMetricRules } from './ragwatch-metrics.js';
import { autoevalsRagasRules } from './autoevals-ragas.js';
import { abstentionRules } from './abstention.js';
import { goldenRules } from './golden.js';

export const builtinRules: readonly JudgeRule[] = [
  ...ragwatchMetricRules,
  ...autoevalsRagasRules,
  ...abstentionRules,
  ...goldenRules,
];
