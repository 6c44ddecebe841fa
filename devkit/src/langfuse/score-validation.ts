import type { ScoreInput } from './score-table.js';
import type { LangfuseStore } from './store.js';
import type { ScoreDataType, ScoreSource } from './types.js';

export interface ScoreBodyInput {
  name: string;
  value: number | string;
  dataType?: ScoreDataType | null;
  configId?: string | null;
  traceId?: string | null;
  observationId?: string | null;
  sessionId?: string | null;
  datasetRunId?: string | null;
  comment?: string | null;
  metadata?: unknown;
  source?: ScoreSource | null;
  queueId?: string | null;
  environment?: string | null;
}

type Inflated = { score: Omit<ScoreInput, 'id' | 'timestamp'> } | { error: string };

/**
 * Langfuse's `validateAndInflateScore`: infers the data type, checks the value against a referenced score
 * config (name, type, range, categories) and derives `stringValue`. Failures are reasons to drop the score.
 */
export function inflateScore(body: ScoreBodyInput, store: LangfuseStore): Inflated {
  let dataType: ScoreDataType | undefined = body.dataType ?? undefined;
  let value = body.value;
  let stringValue: string | null = null;
  const config = body.configId ? store.getScoreConfig(body.configId) : undefined;
  if (body.configId) {
    if (!config) return { error: `Score config ${body.configId} not found` };
    if (config.isArchived) return { error: `Score config ${config.id} is archived` };
    if (config.name !== body.name)
      return { error: `Score name ${body.name} does not match config name ${config.name}` };
    if (dataType && dataType !== config.dataType) {
      return { error: `Data type mismatch: score ${dataType}, config ${config.dataType}` };
    }
    dataType = config.dataType;
  }
  dataType ??= typeof value === 'number' ? 'NUMERIC' : 'CATEGORICAL';

  switch (dataType) {
    case 'NUMERIC':
      if (typeof value !== 'number') return { error: 'Numeric score value must be a number' };
      if (config?.minValue !== null && config?.minValue !== undefined && value < config.minValue) {
        return { error: `Value ${value} is below the config minimum ${config.minValue}` };
      }
      if (config?.maxValue !== null && config?.maxValue !== undefined && value > config.maxValue) {
        return { error: `Value ${value} is above the config maximum ${config.maxValue}` };
      }
      break;
    case 'BOOLEAN':
      if (value !== 0 && value !== 1) return { error: 'Boolean score value must be 0 or 1' };
      stringValue = value === 1 ? 'True' : 'False';
      break;
    case 'CATEGORICAL': {
      if (typeof value !== 'string') return { error: 'Categorical score value must be a string' };
      stringValue = value;
      const category = config?.categories?.find((c) => c.label === value);
      if (config && !category) return { error: `Value ${value} is not a category of config ${config.name}` };
      value = category?.value ?? 0;
      break;
    }
    case 'TEXT':
    case 'CORRECTION':
      if (typeof value !== 'string') return { error: `${dataType} score value must be a string` };
      stringValue = value;
      value = 0;
      break;
  }
  return {
    score: {
      name: body.name,
      value: value as number,
      stringValue,
      dataType,
      source: body.source ?? 'API',
      traceId: body.traceId ?? null,
      observationId: body.observationId ?? null,
      sessionId: body.sessionId ?? null,
      datasetRunId: body.datasetRunId ?? null,
      comment: body.comment ?? null,
      metadata: body.metadata,
      configId: body.configId ?? null,
      queueId: body.queueId ?? null,
      environment: body.environment ?? 'default',
    },
  };
}
