import { promptVersion, type JudgeTask } from './prompts/build.js';
import { getMetric } from './registry.js';
import type { MetricName } from './types.js';

/**
 * Prompt version of every judge task the metrics use, per language: `faithfulness.es` → `es-1a2b…`. A run's
 * metadata (experiment/metadata.ts) and the judge's fingerprint (calibrate/judge-identity.ts) record it.
 */
export function judgePromptVersions(metrics: readonly MetricName[]): Record<string, string> {
  const tasks = new Set<JudgeTask>(metrics.flatMap((m) => getMetric(m).judgeTasks));
  const out: Record<string, string> = {};
  for (const task of [...tasks].sort())
    for (const lang of ['en', 'es'] as const) out[`${task}.${lang}`] = promptVersion(task, lang);
  return out;
}
