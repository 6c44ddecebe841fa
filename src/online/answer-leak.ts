/**
 * The answer-leak score the online job writes next to the RAGAS metrics: 1 when the RAG's answer holds personal
 * data (validated types and labelled identifiers) that neither its question nor its retrieved contexts held, else
 * 0. Counted by the anonymizer's recognizers on the sample BEFORE anonymization (anonymize/answer-leak.ts), with
 * no judge call. Only counts leave the check: the score's metadata carries them per type, never a value, and so
 * do the /metrics counters (`ragwatch_answer_leak_*`). It is not in the metric registry, whose metrics are the
 * judge's and are scored on the anonymized sample, in both jobs.
 */
import type { AnswerLeak } from '../anonymize/index.js';
import type { ReadCut, ScoreToWrite } from '../langfuse/index.js';
import { ANSWER_LEAK_SCORE } from '../scores/index.js';
import { VERSION } from '../version.js';

/** Promptfoo-style metadata beside the handler, as the registry's metrics have (metrics/definition.ts). */
export const answerLeakMetric = {
  name: 'answer_leak',
  scoreName: ANSWER_LEAK_SCORE,
  label: 'Answer leak',
  definitionVersion: '1',
  valueRule:
    '1 when the answer holds an e-mail, phone, IBAN, card, NIF/NIE, IP address or labelled identifier that ' +
    'neither the question nor the contexts held, else 0; no judge call',
} as const;

/** The trace's answer-leak score; its comment and metadata name types and counts only. */
export function answerLeakScore(
  leak: AnswerLeak,
  ctx: {
    traceId: string;
    traceTimestamp: string;
    environment: string | null;
    sampleRate: number;
    configIds: ReadonlyMap<string, string>;
    /** What the trace lost to its read budget: the check read only what was kept. */
    readCut?: ReadCut | null;
  },
): ScoreToWrite {
  const types = Object.entries(leak.byType)
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
  const score: ScoreToWrite = {
    traceId: ctx.traceId,
    name: ANSWER_LEAK_SCORE,
    value: leak.total > 0 ? 1 : 0,
    timestamp: ctx.traceTimestamp,
    comment:
      leak.total > 0
        ? `the answer holds personal data the question and contexts did not: ${types}`
        : 'no personal data in the answer beyond what the question and contexts held',
    metadata: {
      source: 'ragwatch',
      ragwatchVersion: VERSION,
      metric: answerLeakMetric.name,
      definitionVersion: answerLeakMetric.definitionVersion,
      sampleRate: ctx.sampleRate,
      leaked: leak.total,
      leakedByType: leak.byType,
      ...(ctx.readCut ? { readCut: ctx.readCut } : {}),
    },
  };
  const configId = ctx.configIds.get(ANSWER_LEAK_SCORE);
  if (configId) score.configId = configId;
  if (ctx.environment) score.environment = ctx.environment;
  return score;
}
