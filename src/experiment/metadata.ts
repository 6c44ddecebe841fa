import { signedReportPath } from './report-access.js';
import { createHash } from 'node:crypto';
import { type RagwatchConfig, maskSecrets } from '../config/index.js';
import { judgePromptVersions, getMetric, type MetricName } from '../metrics/index.js';
import { VERSION } from '../version.js';
import { abstentionPromptVersion } from './abstention.js';

/** Prompt version of every judge task the run may use, per language: `faithfulness.es` → `es-1a2b…`. */
export function promptVersions(
  metrics: readonly MetricName[],
  withAbstention: boolean,
  noise: boolean,
): Record<string, string> {
  const out = judgePromptVersions(noise ? [...metrics, 'faithfulness'] : metrics);
  if (withAbstention)
    for (const lang of ['en', 'es'] as const) out[`abstention.${lang}`] = abstentionPromptVersion(lang);
  return out;
}

/** Definition version of every metric the run scores (faithfulness too when the noise pass measures it). */
export function definitionVersions(metrics: readonly MetricName[], noise: boolean): Record<string, string> {
  const all = new Set<MetricName>(metrics);
  if (noise) all.add('faithfulness');
  return Object.fromEntries([...all].sort().map((m) => [m, getMetric(m).definitionVersion]));
}

/**
 * Hash of everything that shapes the numbers (judge, embeddings, metrics, experiment settings), secrets masked
 * and endpoints left out, so two runs with the same hash are comparable.
 */
export function configHash(config: RagwatchConfig): string {
  const { target, ...experiment } = config.experiment;
  const relevant = {
    judge: { ...config.judge, baseUrl: undefined, apiKey: undefined },
    embeddings: { ...config.embeddings, baseUrl: undefined, apiKey: undefined },
    metrics: config.metrics,
    anonymize: config.anonymize,
    experiment: {
      ...experiment,
      reportsDir: undefined,
      reportsRetentionDays: undefined,
      schedule: undefined,
      enabled: undefined,
      publicUrl: undefined,
    },
    target: { mode: target.mode, body: target.body, response: target.response, replay: target.replay },
  };
  return createHash('sha256')
    .update(stableJson(maskSecrets(relevant)))
    .digest('hex')
    .slice(0, 16);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Link to a run's HTML report as served by the daemon (`/reports/<run>/report.html`), signed with
 * `http.reportsSigningSecret` when there is one (the signature covers the path the daemon sees, whatever the base).
 */
export function reportLink(config: Pick<RagwatchConfig, 'experiment' | 'http'>, dirName: string): string {
  const base =
    config.experiment.publicUrl ??
    `http://${config.http.host === '0.0.0.0' || config.http.host === '::' ? 'localhost' : config.http.host}:${config.http.port}`;
  const path = `/reports/${encodeURIComponent(dirName)}/report.html`;
  const secret = config.http.reportsPublic ? null : config.http.reportsSigningSecret;
  return `${base.replace(/\/+$/, '')}${signedReportPath(secret, path)}`;
}

export { VERSION };
