import { describe, expect, it } from 'vitest';
import type { JudgeRequest } from '@ragwatch/devkit/judge/types.js';
import { isEvasive, ragwatchMetricRules, readRagwatchPrompt } from '@ragwatch/devkit/judge/rules/ragwatch-metrics.js';
import { prepareSample } from '../../../src/metrics/prepare.js';
import {
  answerRelevancyRequest,
  claimsInReferenceRequest,
  contextPrecisionRequest,
  contextRecallRequest,
  faithfulnessRequest,
} from '../../../src/metrics/prompts/build.js';
import type { StructuredRequest } from '../../../src/judge/types.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

const prepared = prepareSample(
  {
    traceId: 'r',
    question: 'What lock does VACUUM take?',
    answer: 'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock. VACUUM also compresses tables with zstd.',
    contexts: [
      'PostgreSQL has many settings.',
      'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock and runs alongside writes.',
    ],
    reference: 'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock.',
    meta: {},
  },
  defaultMetricsOptions(),
);

function answerOf(req: StructuredRequest<unknown>): unknown {
  const request = {
    schemaName: req.name,
    lastUser: req.messages[1]?.content ?? '',
    schema: req.schema,
  } as unknown as JudgeRequest;
  const rule = ragwatchMetricRules.find((r) => r.matches(request));
  if (!rule) throw new Error(`no rule for ${req.name}`);
  const value = rule.answer(request);
  req.parse(value); // the rule's answer passes ragwatch's own checks
  return value;
}

describe('stand-in rules for ragwatch prompts', () => {
  it('reads the tagged sample back', () => {
    const parts = readRagwatchPrompt(faithfulnessRequest(prepared).messages[1]?.content ?? '');
    expect(parts).toMatchObject({ question: prepared.question, answer: prepared.answer, contexts: prepared.contexts });
  });

  it('answers every task lexically and within its schema', () => {
    expect(answerOf(faithfulnessRequest(prepared))).toEqual({
      claims: [
        { claim: 'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock.', chunks: [2], verdict: 1 },
        { claim: 'VACUUM also compresses tables with zstd.', chunks: [], verdict: 0 },
      ],
    });
    expect((answerOf(answerRelevancyRequest(prepared, 3)) as { questions: unknown[] }).questions).toHaveLength(3);
    expect(answerOf(contextPrecisionRequest(prepared))).toEqual({
      chunks: [
        { chunk: 1, useful: 0 },
        { chunk: 2, useful: 1 },
      ],
    });
    expect(answerOf(contextRecallRequest(prepared))).toMatchObject({ statements: [{ chunks: [2], attributed: 1 }] });
    expect(
      answerOf(
        claimsInReferenceRequest(prepared, [
          'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock.',
          'VACUUM compresses tables with zstd.',
        ]),
      ),
    ).toEqual({
      claims: [
        { claim: 1, verdict: 1 },
        { claim: 2, verdict: 0 },
      ],
    });
  });

  it('treats evasive answers as noncommittal but not ordinary Spanish "no se …"', () => {
    expect(isEvasive("I don't know, sorry.")).toBe(true);
    expect(isEvasive('No lo sé.')).toBe(true);
    expect(isEvasive('Depende de la versión.')).toBe(true);
    expect(isEvasive('Los procesos antiguos terminan, así que no se cortan las conexiones.')).toBe(false);
    expect(isEvasive('Performance depends on the disk.')).toBe(false);
  });
});
