/**
 * The entry point the online job, the weekly experiment and `ragwatch evaluate` call: scores one sample on the
 * requested metrics. The metrics start together, in the registry's order, so a sample's judge requests reach the
 * judge client's queue at once and the judge's slots, not the sample's own sequence of calls, set the pace (each
 * task's system prompt is its own, so calling them one after another bought no shared prefix). Steps two metrics
 * share run once (JudgeSession). The judge client bounds the requests in flight.
 */
import type { EmbeddingsClient, JudgeClient } from '../judge/types.js';
import type { Logger } from '../runtime/index.js';
import type { RagSample } from '../sample.js';
import { failedFrom, notScorable, type MetricContext } from './definition.js';
import { LANGUAGE_NOT_ALLOWED, prepareSample, type MetricsOptions } from './prepare.js';
import { allMetricNames, getMetric } from './registry.js';
import { JudgeSession, UsageMeter } from './session.js';
import type { MetricName, MetricResult } from './types.js';

export interface ScoreDeps {
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  /** The `metrics` section of the configuration. */
  options: MetricsOptions;
  logger?: Logger;
  signal?: AbortSignal;
}

/** One result per requested metric (duplicates dropped), in the order asked. Never throws for a judge failure. */
export async function scoreSample(
  sample: RagSample,
  metrics: readonly MetricName[],
  deps: ScoreDeps,
): Promise<MetricResult[]> {
  const wanted = [...new Set(metrics)];
  const prepared = prepareSample(sample, deps.options);
  const allowed = deps.options.allowedLanguages ?? [];
  if (
    allowed.length > 0 &&
    prepared.sampleLanguage.source !== 'undetermined' &&
    !allowed.includes(prepared.sampleLanguage.code)
  )
    return wanted.map((n) => notScorable(n, `${LANGUAGE_NOT_ALLOWED}: ${prepared.sampleLanguage.code}`));
  const session = new JudgeSession(deps.judge, deps.signal);
  const scoreOne = async (name: MetricName): Promise<MetricResult> => {
    const metric = getMetric(name);
    const meter = new UsageMeter();
    const blocked = metric.precondition(prepared);
    let result: MetricResult;
    if (blocked !== undefined) {
      result = notScorable(name, blocked);
    } else {
      const ctx: MetricContext = {
        sample: prepared,
        session,
        embeddings: deps.embeddings,
        options: deps.options,
        meter,
      };
      if (deps.signal) ctx.signal = deps.signal;
      try {
        result = await metric.score(ctx);
        if (result.status === 'scored') result = { ...result, language: prepared.sampleLanguage };
      } catch (err) {
        result = failedFrom(name, err, meter.total);
      }
    }
    deps.logger?.debug(
      {
        traceId: sample.traceId,
        metric: name,
        status: result.status,
        calls: result.usage?.calls ?? 0,
        language: prepared.language,
        sampleLanguage: prepared.sampleLanguage.code,
      },
      'metric scored',
    );
    return result;
  };
  const names = allMetricNames().filter((n) => wanted.includes(n));
  const scored = await Promise.all(names.map(scoreOne));
  const results = new Map(names.map((n, i) => [n, scored[i] as MetricResult]));
  return wanted.map((n) => results.get(n) as MetricResult);
}
