import { z } from 'zod';
import { calibratedMetric, knownMetric, type MetricCatalog } from './metric-catalog.js';

/**
 * `calibrate:` — people's labels in a Langfuse annotation queue, agreement between the judge and people, and
 * drift of the judge on a fixed anchor set (docs/calibration.md). Every number has a range; a bad value exits 2
 * with one line naming its key, like every other section.
 */

const between = (min: number, max: number) =>
  z
    .number({ error: 'must be a number' })
    .min(min, { error: `must be between ${min} and ${max}` })
    .max(max, { error: `must be between ${min} and ${max}` });
const intBetween = (min: number, max: number) => between(min, max).int({ error: 'must be an integer' });

/** Cut points binning a score onto unsupported / partly / supported; 0, 0.5 and 1 stay on their own levels. */
const cuts = z
  .object({
    partly: between(0.05, 0.5).default(0.25),
    supported: between(0.55, 1).default(0.75),
  })
  .strict();

export const calibrateSectionFor = (catalog: MetricCatalog) =>
  z
    .object({
      /** The Langfuse annotation queue people label in. */
      queue: z
        .string()
        .min(1, { error: 'must not be empty' })
        .max(100, { error: 'must be at most 100 characters' })
        .default('ragwatch calibration'),
      /** `levels`: unsupported / partly / supported (0, 0.5, 1); `numeric`: a number from 0 to 1. */
      scale: z.enum(['levels', 'numeric']).default('levels'),
      metrics: z
        .array(calibratedMetric(catalog))
        .min(1, { error: 'must name at least one metric' })
        .default(['faithfulness', 'answer_relevancy']),
      /** Where the traces come from: online scoring, the weekly golden-set runs, or both. */
      origins: z
        .array(z.enum(['online', 'experiment']))
        .min(1, { error: 'must name at least one origin' })
        .default(['online', 'experiment']),
      /** Share of the week's scored traces put in the queue, at least one, at most `weeklyCap`. */
      rate: between(0.0001, 1).default(0.02),
      weeklyCap: intBetween(1, 100_000).default(100),
      seed: intBetween(0, 4_294_967_295).default(42),
      /** How far back `calibrate report` and the weekly report read judge and human scores. */
      lookbackDays: intBetween(1, 3650).default(90),
      bootstrapSamples: intBetween(100, 100_000).default(2000),
      /** Worst disagreements listed per metric (dev split and online traces only). */
      disagreements: intBetween(0, 100).default(5),
      /** Per metric; default 0.25 / 0.75 (a score goes to the level whose reading is nearest). */
      cuts: z.partialRecord(knownMetric(catalog), cuts).default({}),
      /** Below this Cohen's κ (pass/fail at the gate threshold) `RAGJudgeHumanAgreementLow` fires. */
      agreementFloor: between(-1, 1).default(0.4),
      /** The agreement gauge is published only from this many annotated pairs of a metric on. */
      minPairs: intBetween(2, 100_000).default(30),
      anchors: z
        .object({
          /** The anchor set file (`ragwatch calibrate anchors build`); drift is not measured without one. */
          path: z.string().min(1, { error: 'must not be empty' }).optional(),
          /** Mean absolute change of the anchors' scores an unchanged judge stays within. */
          tolerance: between(0.001, 0.5).default(0.03),
          minAnchors: intBetween(2, 100_000).default(30),
        })
        .strict()
        .prefault({}),
    })
    .strict()
    .prefault({});

export type CalibrateConfig = z.infer<ReturnType<typeof calibrateSectionFor>>;

/** Human score names start with this; ragwatch's own score prefix must not, or the two would mix. */
export const HUMAN_SCORE_PREFIX = 'human-';

/** Problems between `calibrate` and the rest of the configuration: [key path, message]. */
export function calibrateCrossProblems(config: {
  metrics: { scorePrefix: string };
  calibrate: CalibrateConfig;
}): Array<[string[], string]> {
  const out: Array<[string[], string]> = [];
  if (config.metrics.scorePrefix.toLowerCase().startsWith(HUMAN_SCORE_PREFIX)) {
    out.push([['metrics', 'scorePrefix'], `must not start with "${HUMAN_SCORE_PREFIX}": people's scores are named so`]);
  }
  return out;
}
