/**
 * Decides what the stand-in answers: a scripted answer, else (fuzzing mode) a random value the schema allows,
 * else the first matching rule, else the generic schema-driven fallback. Structured answers are checked against the request's schema. A scripted value that
 * breaks the schema is a test's mistake and is answered as a 500 naming it; a rule that throws or breaks the
 * schema is a bug in the stand-in: the fallback answers instead (a client still gets schema-valid JSON, as
 * from vLLM) and the rule's error is reported in `ruleError` (request log and a response header).
 */
import type { JudgeFuzzer } from './fuzz/index.js';
import { HttpError } from './http-util.js';
import { fallbackAnswer, fallbackText } from './schema-fallback.js';
import { schemaErrors } from './schema-check.js';
import type { Script } from './script.js';
import { countTokens } from './tokens.js';
import type { JudgeRequest, JudgeRule } from './types.js';

export interface DecidedAnswer {
  /** The message content (or the tool call's arguments). */
  content: string;
  /** `script`, a rule name, or `fallback`. */
  source: string;
  /** Thinking text a scripted answer asked for. */
  reasoning?: string;
  /** Why the matching rule's answer was not used. */
  ruleError?: string;
}

export interface FuzzOptions {
  fuzzer: JudgeFuzzer;
  /** The request's max_tokens: a fuzzed answer longer than this is drawn again. */
  maxTokens?: number;
}

export function decideAnswer(
  request: JudgeRequest,
  script: Script,
  rules: readonly JudgeRule[],
  fuzz?: FuzzOptions,
): DecidedAnswer {
  const scripted = script.take(request);
  if (scripted) {
    const reasoning = scripted.reasoning !== undefined ? { reasoning: scripted.reasoning } : {};
    if (scripted.raw !== undefined) return { content: scripted.raw, source: 'script', ...reasoning };
    return { content: serialise(request, scripted.value, 'script'), source: 'script', ...reasoning };
  }
  // Fuzzing mode: any value the schema allows (checked with ajv inside the fuzzer and again here).
  if (fuzz && request.schema && request.mode !== 'text') {
    const budget = fuzz.maxTokens;
    let value: unknown;
    try {
      value = fuzz.fuzzer.answer(
        request.schema,
        budget === undefined ? undefined : (v) => countTokens(JSON.stringify(v)) <= budget,
      );
    } catch (err) {
      throw new HttpError(500, `stand-in fuzzer: ${(err as Error).message}`);
    }
    return { content: serialise(request, value, 'the fuzzer'), source: 'fuzz' };
  }
  let ruleError: string | undefined;
  for (const rule of rules) {
    try {
      if (!rule.matches(request)) continue;
      return { content: serialise(request, rule.answer(request), `rule \`${rule.name}\``), source: rule.name };
    } catch (err) {
      ruleError =
        err instanceof HttpError ? err.message : `stand-in rule \`${rule.name}\` failed: ${(err as Error).message}`;
      break;
    }
  }
  const failed = ruleError !== undefined ? { ruleError } : {};
  if (request.mode === 'text') return { content: fallbackText(request), source: 'fallback', ...failed };
  return {
    content: serialise(request, fallbackAnswer(request), 'the schema-driven fallback'),
    source: 'fallback',
    ...failed,
  };
}

function serialise(request: JudgeRequest, value: unknown, who: string): string {
  if (request.mode === 'text') return typeof value === 'string' ? value : JSON.stringify(value);
  if (value === undefined) throw new HttpError(500, `stand-in ${who} produced no answer`);
  if (request.schema) {
    const errors = schemaErrors(request.schema, value);
    if (errors) throw new HttpError(500, `stand-in ${who} produced JSON that violates the requested schema: ${errors}`);
  }
  return JSON.stringify(value);
}
