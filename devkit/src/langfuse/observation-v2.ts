import type { ObservationRecord, TraceRecord } from './types.js';
import { iso, isoOrNull } from './values.js';

/** `ObservationV2`: core fields always, other groups on request; input/output as the raw stored strings. */

export const OBSERVATION_FIELD_GROUPS = [
  'core',
  'basic',
  'time',
  'io',
  'metadata',
  'model',
  'usage',
  'prompt',
  'metrics',
  'trace_context',
] as const;
export type ObservationFieldGroup = (typeof OBSERVATION_FIELD_GROUPS)[number];

const METADATA_TRUNCATE_CHARS = 200;

/** Parses `fields`: unknown groups are dropped (as Langfuse does); absent means core + basic. */
export function parseObservationFields(raw: string | undefined): Set<ObservationFieldGroup> {
  if (raw === undefined) return new Set(['core', 'basic']);
  const known = new Set<string>(OBSERVATION_FIELD_GROUPS);
  const groups = new Set<ObservationFieldGroup>(['core']);
  for (const part of raw.split(',')) {
    const name = part.trim();
    if (known.has(name)) groups.add(name as ObservationFieldGroup);
  }
  return groups;
}

function metadataView(metadata: Record<string, unknown> | null, expand: ReadonlySet<string>) {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    result[key] = expand.has(key) ? text : text.slice(0, METADATA_TRUNCATE_CHARS);
  }
  return result;
}

export function observationV2View(
  o: ObservationRecord,
  trace: TraceRecord | undefined,
  projectId: string,
  groups: ReadonlySet<ObservationFieldGroup>,
  expandMetadata: ReadonlySet<string>,
): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: o.id,
    traceId: o.traceId,
    startTime: iso(o.startTime),
    endTime: isoOrNull(o.endTime),
    projectId,
    parentObservationId: o.parentObservationId,
    type: o.type,
    modelId: null,
    inputPrice: null,
    outputPrice: null,
    totalPrice: null,
  };
  if (groups.has('basic')) {
    Object.assign(view, {
      name: o.name,
      level: o.level,
      statusMessage: o.statusMessage,
      version: o.version,
      environment: o.environment,
      bookmarked: false,
      public: trace?.public ?? false,
      userId: o.userId ?? trace?.userId ?? null,
      sessionId: o.sessionId ?? trace?.sessionId ?? null,
      isRootObservation: isRootObservation(o),
    });
  }
  if (groups.has('time')) {
    Object.assign(view, {
      completionStartTime: isoOrNull(o.completionStartTime),
      createdAt: iso(o.createdAt),
      updatedAt: iso(o.updatedAt),
    });
  }
  if (groups.has('io')) Object.assign(view, { input: o.input, output: o.output });
  if (groups.has('metadata')) view.metadata = metadataView(o.metadata, expandMetadata);
  if (groups.has('model')) {
    Object.assign(view, {
      providedModelName: o.model,
      internalModelId: null,
      modelParameters: o.modelParameters ?? {},
    });
  }
  if (groups.has('usage')) {
    Object.assign(view, {
      usageDetails: o.usageDetails,
      costDetails: o.costDetails,
      totalCost: o.costDetails.total ?? 0,
      usagePricingTierName: null,
    });
  }
  if (groups.has('prompt')) {
    Object.assign(view, { promptId: null, promptName: o.promptName, promptVersion: o.promptVersion });
  }
  if (groups.has('metrics')) {
    Object.assign(view, {
      latency: o.endTime === null ? null : (o.endTime - o.startTime) / 1000,
      timeToFirstToken: o.completionStartTime === null ? null : (o.completionStartTime - o.startTime) / 1000,
    });
  }
  if (groups.has('trace_context')) {
    Object.assign(view, { tags: trace?.tags ?? [], release: trace?.release ?? null, traceName: trace?.name ?? null });
  }
  return view;
}

export function isRootObservation(o: ObservationRecord): boolean {
  return o.parentObservationId === null || o.isAppRoot;
}
