/**
 * Decides what the stand-in answers: a scripted answer, else the first matching rule, else the generic
 * schema-driven fallback. Structured answers are checked against the request's schema; a rule that breaks
 * its schema is a bug in the stand-in and is answered as a 500 naming the rule.
 */
import { HttpError } from './http-util.js';
import { fallbackAnswer, fallbackText } from './schema-fallback.js';
import { schemaErrors } from './schema-check.js';
import type { Script } from './script.js';
import type { JudgeRequest, JudgeRule } from './types.js';

export interface DecidedAnswer {
  /** The message content (or the tool call's arguments). */
  content: string;
  /** `script`, a rule name, or `fallback`. */
  source: string;
  /** Thinking text a scripted answer asked for. */
  reasoning?: string;
}

export function decideAnswer(request: JudgeRequest, script: Script, rules: readonly JudgeRule[]): DecidedAnswer {
  const scripted = script.take(request);
  if (scripted) {
    const reasoning = scripted.reasoning !== undefined ? { reasoning: scripted.reasoning } : {};
    if (scripted.raw !== undefined) return { content: scripted.raw, source: 'script', ...reasoning };
    return { content: serialise(request, scripted.value, 'script'), source: 'script', ...reasoning };
  }
  for (const rule of rules) {
    let matched: boolean;
    let value: unknown;
    try {
      matched = rule.matches(request);
      if (!matched) continue;
      value = rule.answer(request);
    } catch (err) {
      throw new HttpError(500, `stand-in rule \`${rule.name}\` failed: ${(err as Error).message}`);
    }
    return { content: serialise(request, value, `rule \`${rule.name}\``), source: rule.name };
  }
  if (request.mode === 'text') return { content: fallbackText(request), source: 'fallback' };
  return { content: serialise(request, fallbackAnswer(request), 'the schema-driven fallback'), source: 'fallback' };
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
