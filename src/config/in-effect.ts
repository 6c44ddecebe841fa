import type { RagwatchConfig } from './schema.js';

/**
 * The configuration as `config check` shows it: only the keys in effect. The state section holds both backends'
 * keys with their defaults; with `state.url` set, PostgreSQL's keys are in effect and `state.path` is not, and
 * the other way round.
 */
export function configInEffect(config: RagwatchConfig): Record<string, unknown> {
  const { path, ...postgres } = config.state;
  const state = config.state.url ? postgres : { path };
  return { ...config, state };
}
