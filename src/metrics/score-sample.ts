/**
 * The entry point the online job, the weekly experiment and `ragwatch evaluate` call: scores one sample on the
 * requested metrics. Metrics run one after another in the registry's order so each judge request finds the
 * previous one's prefix (system prompt + the sample's opening) in vLLM's cache; parallelism comes from scoring
 * many samples at once, bounded by the judge client.
 */
import type { EmbeddingsClient, JudgeClient } from '../judge/types.js';
import type { Logger } from '../runtime/index.js';
import type { RagSample } from '../sample.js';
import { failedFrom, notScorable, type MetricContext } from './definition.js';
import { prepareSample, type MetricsOptions } from './prepare.js';
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
  const session = new JudgeSession(deps.judge, deps.signal);
  const results = new Map<MetricName, MetricResult>();
  for (const name of allMetricNames().filter((n) => wanted.includes(n))) {
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
      } catch (err) {
        result = failedFrom(name, err, meter.total);
      }
    }
    results.set(name, result);
    deps.logger?.debug(
      {
        traceId: sample.traceId,
        metric: name,
        status: result.status,
        calls: result.usage?.calls ?? 0,
        language: prepared.language,
      },
      'metric scored',
    );
  }
  return wanted.map((n) => results.get(n) as MetricResult);
}
