/**
 * The built-in rule registry, tried in this order after the server's `rules` option and before the generic
 * schema-driven fallback. Register a rule module with one line in the list below.
 */
import type { JudgeRule } from '../types.js';

export const builtinRules: readonly JudgeRule[] = [
];
