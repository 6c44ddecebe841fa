/**
 * The configuration as the composition root builds it (commands/context.ts): checked against the metric
 * registry, which config/ does not import. For tests, with the signatures they had before the two were apart.
 */
import {
  configSchemaFor,
  loadConfig as load,
  parseConfig as parse,
  type LoadOptions,
  type RagwatchConfig,
} from '../../src/config/index.js';
import { allMetrics, type MetricsOptions } from '../../src/metrics/index.js';

export const configSchema = configSchemaFor(allMetrics());

export const parseConfig = (raw: unknown): RagwatchConfig => parse(raw, allMetrics());

export const loadConfig = (options: Omit<LoadOptions, 'metrics'> = {}) => load({ metrics: allMetrics(), ...options });

/** The `metrics` section with every default, for tests without a configuration file. */
export const defaultMetricsOptions = (): RagwatchConfig['metrics'] & MetricsOptions => configSchema.parse({}).metrics;
