/**
 * Scores a batch of samples (the core of `ragwatch evaluate`): each sample anonymized first unless disabled,
 * kept from the judge when personal data survives anonymization, then scored; several samples in flight at
 * once, results delivered in input order.
 */
import type { RagSample } from '../../sample.js';
import { decideLanguage } from '../language.js';
import { detectSampleLanguage } from '../language-detect.js';
import { scoreSample, type ScoreDeps } from '../score-sample.js';
import type { MetricName, MetricResult } from '../types.js';

/** The part of the anonymizer (src/anonymize) a batch needs. */
export interface SampleAnonymizer {
  anonymizeSample(sample: RagSample): { sample: RagSample; entities: unknown[]; residual: unknown[] };
}

export const PII_RESIDUAL = 'pii_residual';

export interface BatchRecord {
  id: string;
  line?: number;
  /** The sample's language: ISO 639-1 code, or `und` when it could not be determined (scored in English). */
  language: string;
  /** How it was decided: `configured`, `sample`, `detected` or `undetermined`. */
  languageSource: string;
  /** The prompts' language: `es`, `en`, or English instructions naming `language`. */
  promptLanguage: 'es' | 'en';
  anonymized: boolean;
  /** Personal-data spans replaced by placeholders before judging. */
  piiEntities: number;
  results: MetricResult[];
}

export interface BatchDeps extends ScoreDeps {
  anonymizer?: SampleAnonymizer;
  /** Samples scored at once (default 8). */
  concurrency?: number;
}

export async function scoreOne(
  sample: RagSample,
  metrics: readonly MetricName[],
  deps: BatchDeps,
): Promise<BatchRecord> {
  const line = typeof sample.meta.line === 'number' ? sample.meta.line : undefined;
  const decided = decideLanguage(deps.options.language, sample, detectSampleLanguage);
  const base = {
    id: sample.traceId,
    ...(line === undefined ? {} : { line }),
    language: decided.language.code,
    languageSource: decided.language.source,
    promptLanguage: decided.prompt,
  };
  if (!deps.anonymizer) {
    return { ...base, anonymized: false, piiEntities: 0, results: await scoreSample(sample, metrics, deps) };
  }
  const a = deps.anonymizer.anonymizeSample(sample);
  if (a.residual.length > 0) {
    deps.logger?.warn(
      { traceId: sample.traceId, residual: a.residual.length },
      'personal data left after anonymization: not sent to the judge',
    );
    const results: MetricResult[] = [...new Set(metrics)].map((metric) => ({
      metric,
      status: 'not_scorable',
      reason: PII_RESIDUAL,
    }));
    return { ...base, anonymized: true, piiEntities: a.entities.length, results };
  }
  return {
    ...base,
    anonymized: true,
    piiEntities: a.entities.length,
    results: await scoreSample(a.sample, metrics, deps),
  };
}

/** Scores every sample; `onRecord` sees records in input order, as soon as every earlier one is done. */
export async function scoreBatch(
  samples: readonly RagSample[],
  metrics: readonly MetricName[],
  deps: BatchDeps,
  onRecord: (record: BatchRecord, index: number) => void | Promise<void>,
): Promise<BatchRecord[]> {
  const records = new Array<BatchRecord | undefined>(samples.length);
  let next = 0;
  let flushed = 0;
  let flushing = Promise.resolve();
  const flush = () => {
    flushing = flushing.then(async () => {
      while (flushed < samples.length && records[flushed] !== undefined) {
        await onRecord(records[flushed] as BatchRecord, flushed);
        flushed += 1;
      }
    });
    return flushing;
  };
  const worker = async () => {
    while (next < samples.length) {
      const i = next++;
      records[i] = await scoreOne(samples[i] as RagSample, metrics, deps);
      await flush();
    }
  };
  const workers = Math.max(1, Math.min(deps.concurrency ?? 8, samples.length));
  await Promise.all(Array.from({ length: workers }, worker));
  await flush();
  return records as BatchRecord[];
}

/** The JSON line written for one record: every metric's status, value, reason, usage and details. */
export function recordToJson(record: BatchRecord): Record<string, unknown> {
  const metrics: Record<string, unknown> = {};
  for (const r of record.results) {
    const { metric, ...rest } = r;
    metrics[metric] = rest;
  }
  return {
    id: record.id,
    ...(record.line === undefined ? {} : { line: record.line }),
    language: record.language,
    language_source: record.languageSource,
    prompt_language: record.promptLanguage,
    anonymized: record.anonymized,
    pii_entities: record.piiEntities,
    metrics,
  };
}
