/**
 * The anonymizer the jobs use, built from the `anonymize` configuration: what they need of it (one sample at a
 * time, and a cheap check for short texts such as the judge's reasons).
 */
import type { RagwatchConfig } from '../config/index.js';
import type { RagSample } from '../sample.js';
import { createAnonymizer } from './anonymizer.js';

export interface AnonymizedSample {
  sample: RagSample;
  /** Entities replaced (counted only; never logged with their text). */
  entities: readonly unknown[];
  /** Personal data still found after redaction: a non-empty list blocks the sample. */
  residual: readonly unknown[];
}

export interface SampleAnonymizer {
  anonymizeSample(sample: RagSample): AnonymizedSample;
  /**
   * True only when anonymizing `text` would change nothing and leave no residual: a cheap check (one analysis
   * pass instead of two) for short texts that should already be clean, such as the judge's reasons.
   */
  isClean?(text: string): boolean;
}

/** Sends samples as they are: an explicit choice (`anonymize.enabled: false`, `experiment.anonymize: false`). */
export const passThroughAnonymizer: SampleAnonymizer = {
  anonymizeSample: (sample) => ({ sample, entities: [], residual: [] }),
  isClean: () => true,
};

/** The anonymizer of `anonymize`; with `enabled: false` samples reach the judge as they are. */
export function anonymizerFromConfig(config: Pick<RagwatchConfig, 'anonymize'>): SampleAnonymizer {
  if (!config.anonymize.enabled) return passThroughAnonymizer;
  const { phoneRegions, threshold, residualThreshold, identifierLabels } = config.anonymize;
  const anonymizer = createAnonymizer({ phoneRegions, threshold, residualThreshold, identifierLabels });
  return {
    anonymizeSample: (sample) => anonymizer.anonymizeSample(sample),
    // `analyze` finds what scores at least `threshold`. Nothing found means nothing to replace and, when the
    // residual check is no stricter than that, no residual either. A stricter residual check needs the full pass.
    ...(residualThreshold >= threshold ? { isClean: (text: string) => anonymizer.analyze(text).length === 0 } : {}),
  };
}
