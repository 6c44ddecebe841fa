/** The online job's scores on a production trace: one per metric that scored. */
import { usageMetadata, type Pricing } from '../judge/index.js';
import type { ReadCut, ScoreToWrite } from '../langfuse/index.js';
import type { MetricResult } from '../metrics/index.js';
import { MAX_COMMENT_LENGTH, readCutNote, scoreNameFor, shortenComment } from '../scores/index.js';
import { VERSION } from '../version.js';

export interface ScoreContext {
  traceId: string;
  /** The trace's own timestamp (ISO): the event timestamp, so a rewrite replaces the score. */
  traceTimestamp: string;
  environment: string | null;
  sampleRate: number;
  judgeModel: string;
  /** `judge.pricing`: each score's usage then carries its cost. */
  pricing?: Pricing;
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
    const reason = result.reason ? ctx.sanitizeComment(shortenComment(result.reason, room)) : null;
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
        ...(result.language ? { language: result.language } : {}),
        judgeModel: ctx.judgeModel,
        sampleRate: ctx.sampleRate,
        usage: usageMetadata(result.usage, ctx.pricing),
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
