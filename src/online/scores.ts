import type { MetricName, MetricResult } from '../metrics/types.js';
import type { ReadCut, ScoreToWrite } from '../langfuse/index.js';
import { VERSION } from '../version.js';
import { getMetric } from '../metrics/registry.js';

/** `ragas-` + the metric with dashes: `ragas-faithfulness`, `ragas-answer-relevancy`. */
export function scoreNameFor(prefix: string, metric: MetricName): string {
  return `${prefix}${metric.replaceAll('_', '-')}`;
}

export interface ScoreConfigDefinition {
  name: string;
  description: string;
  min: number;
  max: number;
}

/** NUMERIC 0–1 score configs for the metrics ragwatch writes, so the Langfuse UI shows ranges and meanings. */
export function scoreConfigDefinitions(prefix: string, metrics: readonly MetricName[]): ScoreConfigDefinition[] {
  return metrics.map((metric) => ({ name: scoreNameFor(prefix, metric), description: getMetric(metric).scoreDescription, min: 0, max: 1 }));
}

export const MAX_COMMENT_LENGTH = 500;

export interface ScoreContext {
  traceId: string;
  /** The trace's own timestamp (ISO): the event timestamp, so a rewrite replaces the score. */
  traceTimestamp: string;
  environment: string | null;
  sampleRate: number;
  judgeModel: string;
  scorePrefix: string;
  /** Score config ids by score name. */
  configIds: ReadonlyMap<string, string>;
  /** Makes a comment safe to publish (re-anonymized, shortened); null drops it. */
  sanitizeComment: (text: string) => string | null;
  /** How the sample was found in the trace. */
  extractShape?: string;
  /** The trace holding the judge calls behind these scores (`judge.traceCalls`). */
  executionTraceId?: string;
  /** What the trace lost to its read budget (`langfuse.maxTraceBytes` / `maxFieldBytes`), when it lost anything. */
  readCut?: ReadCut | null;
}

/** The comment's opening when the trace was cut as it was read: the score is about part of the trace. */
export function readCutNote(cut: ReadCut): string {
  const count = (n: number, what: string) => (n > 0 ? `${n} ${what}${n === 1 ? '' : 's'}` : '');
  const parts = [count(cut.fieldsCut, 'text'), count(cut.valuesDropped, 'value')];
  const [texts, values] = parts;
  const said = [texts ? `${texts} cut` : '', values ? `${values} left out` : ''].filter(Boolean).join(', ');
  return `[trace over ragwatch's read budget: ${said}; scored on what was kept]`;
}

/** The token budgets' cuts of what the judge was shown (`details.truncated`), if any. */
function judgeCuts(result: MetricResult): unknown {
  return result.status === 'scored' ? result.details.truncated : undefined;
}

/** One score per metric that scored; `not_scorable` and `failed` results write nothing. */
export function scoresFromResults(results: readonly MetricResult[], ctx: ScoreContext): ScoreToWrite[] {
  const scores: ScoreToWrite[] = [];
  for (const result of results) {
    if (result.status !== 'scored') continue;
    const name = scoreNameFor(ctx.scorePrefix, result.metric);
    const note = ctx.readCut ? readCutNote(ctx.readCut) : null;
    const room = MAX_COMMENT_LENGTH - (note ? note.length + 1 : 0);
    const reason = result.reason ? ctx.sanitizeComment(shorten(result.reason, room)) : null;
    const comment = note && reason ? `${note} ${reason}` : (note ?? reason);
    const truncated = judgeCuts(result);
    const score: ScoreToWrite = {
      traceId: ctx.traceId,
      name,
      value: result.value,
      timestamp: ctx.traceTimestamp,
      metadata: {
        source: 'ragwatch',
        ragwatchVersion: VERSION,
        metric: result.metric,
        promptVersion: result.promptVersion,
        judgeModel: ctx.judgeModel,
        sampleRate: ctx.sampleRate,
        usage: { calls: result.usage.calls, promptTokens: result.usage.promptTokens, completionTokens: result.usage.completionTokens },
        ...(ctx.extractShape ? { extractShape: ctx.extractShape } : {}),
        ...(ctx.executionTraceId ? { executionTraceId: ctx.executionTraceId } : {}),
        ...(ctx.readCut ? { readCut: ctx.readCut } : {}),
        ...(truncated ? { truncated } : {}),
      },
    };
    const configId = ctx.configIds.get(name);
    if (configId) score.configId = configId;
    if (comment) score.comment = comment;
    if (ctx.environment) score.environment = ctx.environment;
    scores.push(score);
  }
  return scores;
}

function shorten(text: string, max = MAX_COMMENT_LENGTH): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
