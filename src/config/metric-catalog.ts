import { z } from 'zod';

/**
 * What the configuration knows of the metrics: the facts of the metric registry (`metrics/registry.ts`), handed
 * in where the configuration is loaded, so config/ imports nothing of metrics/ and metrics/ nothing of config/.
 * The registry's definitions are such facts as they are.
 */
export type MetricJob = 'online' | 'experiment';

export interface MetricFacts {
  readonly name: string;
  /** The jobs that may run it. */
  readonly jobs: readonly MetricJob[];
  /** Whether it needs a reference answer (production traces carry none). */
  readonly needsReference: boolean;
  /** Its gate threshold when the configuration names none. */
  readonly defaultThreshold?: number;
}

export type MetricCatalog = readonly MetricFacts[];

/** The configuration keys listing each job's metrics. */
const METRIC_LIST_KEYS: Record<MetricJob, string> = { online: 'metrics.online', experiment: 'experiment.metrics' };

function names(catalog: MetricCatalog): [string, ...string[]] {
  if (catalog.length === 0) throw new Error('the metric catalog is empty');
  return catalog.map((m) => m.name) as [string, ...string[]];
}

function factsOf(catalog: MetricCatalog, name: string): MetricFacts {
  const found = catalog.find((m) => m.name === name);
  if (found === undefined) throw new Error(`unknown metric "${name}"`);
  return found;
}

/** A metric of the catalog. */
export function knownMetric(catalog: MetricCatalog) {
  return z.enum(names(catalog));
}

/** A metric of the catalog that `job` may score (one that needs a reference answer is not for the online job). */
export function metricFor(catalog: MetricCatalog, job: MetricJob) {
  return knownMetric(catalog).superRefine((name, ctx) => {
    const metric = factsOf(catalog, name);
    if (metric.jobs.includes(job)) return;
    const why =
      job === 'online' && metric.needsReference
        ? 'needs a reference answer, which production traces do not carry'
        : `is not for the ${job} job`;
    const where = [...metric.jobs.map((j) => METRIC_LIST_KEYS[j]), 'ragwatch evaluate'].join(' and ');
    ctx.addIssue({ code: 'custom', input: name, message: `${name} ${why}; it runs in ${where}` });
  });
}

/** A metric people can label: the ground-truth-free ones ragwatch scores on production traces. */
export function calibratedMetric(catalog: MetricCatalog) {
  return knownMetric(catalog).superRefine((name, ctx) => {
    if (factsOf(catalog, name).jobs.includes('online')) return;
    const message = `${name} needs a reference answer; people label online metrics`;
    ctx.addIssue({ code: 'custom', input: name, message });
  });
}

/** The weekly gate's thresholds: any metric of the catalog may have one; the metric gives its default. */
export function thresholdsFor(catalog: MetricCatalog, threshold: () => z.ZodNumber) {
  const keys = catalog.map((m) => {
    const fallback = m.defaultThreshold;
    return [m.name, fallback === undefined ? threshold().optional() : threshold().default(fallback)] as const;
  });
  // The shape is built from the catalog, so its type is spelled out: a number for some of the metrics.
  const section = z.object(Object.fromEntries(keys)).strict().prefault({});
  type Thresholds = z.ZodType<Partial<Record<string, number>>, Partial<Record<string, unknown>>>;
  return section as unknown as z.ZodPrefault<Thresholds>;
}
