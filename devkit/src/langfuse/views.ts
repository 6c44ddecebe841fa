import type { LangfuseStore } from './store.js';
import type {
  DatasetItemRecord,
  DatasetRecord,
  DatasetRunView,
  ObservationRecord,
  ScoreConfigRecord,
  ScoreRecord,
  TraceRecord,
} from './types.js';
import { iso, isoOrNull, parseRaw } from './values.js';

/** Response shapes of Langfuse's public API (see openapi.yml components), built from store records. */

export const TRACE_FIELD_GROUPS = ['core', 'io', 'scores', 'observations', 'metrics'] as const;
export type TraceFieldGroup = (typeof TRACE_FIELD_GROUPS)[number];

function traceCore(trace: TraceRecord, projectId: string, groups: ReadonlySet<TraceFieldGroup>) {
  return {
    id: trace.id,
    projectId,
    timestamp: iso(trace.timestamp),
    name: trace.name,
    ...(groups.has('io')
      ? { input: parseRaw(trace.input), output: parseRaw(trace.output), metadata: trace.metadata ?? {} }
      : {}),
    sessionId: trace.sessionId,
    release: trace.release,
    version: trace.version,
    userId: trace.userId,
    tags: trace.tags,
    public: trace.public,
    bookmarked: trace.bookmarked,
    environment: trace.environment,
    createdAt: iso(trace.createdAt),
    updatedAt: iso(trace.updatedAt),
    htmlPath: `/project/${projectId}/traces/${encodeURIComponent(trace.id)}`,
  };
}

function traceMetrics(observations: ObservationRecord[]): { latency: number; totalCost: number } {
  if (observations.length === 0) return { latency: 0, totalCost: 0 };
  let start = Infinity;
  let end = -Infinity;
  let cost = 0;
  for (const o of observations) {
    start = Math.min(start, o.startTime);
    end = Math.max(end, o.endTime ?? o.startTime);
    cost += o.costDetails.total ?? 0;
  }
  return { latency: Math.max(0, end - start) / 1000, totalCost: cost };
}

/** `TraceWithDetails` (list item): observation and score ids. */
export function traceListItem(trace: TraceRecord, store: LangfuseStore, groups: ReadonlySet<TraceFieldGroup>) {
  const observations = store.observationsOfTrace(trace.id);
  const metrics = groups.has('metrics') ? traceMetrics(observations) : { latency: -1, totalCost: -1 };
  return {
    ...traceCore(trace, store.projectId, groups),
    ...metrics,
    observations: groups.has('observations') ? observations.map((o) => o.id) : [],
    scores: groups.has('scores') ? store.scores({ traceId: trace.id }).map((s) => s.id) : [],
  };
}

/** `TraceWithFullDetails` (GET by id): full observations and scores. */
export function traceDetail(
  trace: TraceRecord,
  store: LangfuseStore,
  groups: ReadonlySet<TraceFieldGroup>,
  visible: (o: ObservationRecord) => boolean,
) {
  const observations = store.observationsOfTrace(trace.id).filter(visible);
  const metrics = groups.has('metrics') ? traceMetrics(observations) : { latency: -1, totalCost: -1 };
  return {
    ...traceCore(trace, store.projectId, groups),
    ...metrics,
    observations: groups.has('observations') ? observations.map((o) => observationView(o, store.projectId)) : [],
    scores: groups.has('scores')
      ? store
          .scores({ traceId: trace.id })
          .filter((s) => s.dataType !== 'CORRECTION')
          .map((s) => scoreV1View(s, store.projectId))
      : [],
  };
}

/** `ObservationsView` (v1). */
export function observationView(o: ObservationRecord, projectId: string) {
  const latency = o.endTime === null ? null : (o.endTime - o.startTime) / 1000;
  return {
    id: o.id,
    projectId,
    traceId: o.traceId,
    type: o.type,
    name: o.name,
    startTime: iso(o.startTime),
    endTime: isoOrNull(o.endTime),
    completionStartTime: isoOrNull(o.completionStartTime),
    model: o.model,
    modelParameters: o.modelParameters ?? {},
    input: parseRaw(o.input),
    output: parseRaw(o.output),
    version: o.version,
    metadata: o.metadata ?? {},
    usage: {
      input: Math.round(o.usageDetails.input ?? 0),
      output: Math.round(o.usageDetails.output ?? 0),
      total: Math.round(o.usageDetails.total ?? 0),
      unit: Object.keys(o.usageDetails).length > 0 ? 'TOKENS' : null,
    },
    level: o.level,
    statusMessage: o.statusMessage,
    parentObservationId: o.parentObservationId,
    promptId: null,
    promptName: o.promptName,
    promptVersion: o.promptVersion,
    usageDetails: o.usageDetails,
    costDetails: o.costDetails,
    environment: o.environment,
    modelId: null,
    inputPrice: null,
    outputPrice: null,
    totalPrice: null,
    calculatedInputCost: o.costDetails.input ?? null,
    calculatedOutputCost: o.costDetails.output ?? null,
    calculatedTotalCost: o.costDetails.total ?? null,
    latency,
    timeToFirstToken: o.completionStartTime === null ? null : (o.completionStartTime - o.startTime) / 1000,
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
  };
}

/** `ScoreV1` (inside a trace). */
export function scoreV1View(s: ScoreRecord, projectId: string) {
  const base = {
    id: s.id,
    projectId,
    traceId: s.traceId ?? '',
    observationId: s.observationId,
    sessionId: s.sessionId,
    datasetRunId: s.datasetRunId,
    name: s.name,
    source: s.source,
    timestamp: iso(s.timestamp),
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    authorUserId: null,
    comment: s.comment,
    metadata: s.metadata ?? {},
    configId: s.configId,
    queueId: s.queueId,
    environment: s.environment,
    dataType: s.dataType,
  };
  if (s.dataType === 'NUMERIC') return { ...base, value: s.value };
  if (s.dataType === 'TEXT') return { ...base, stringValue: s.stringValue ?? '' };
  return { ...base, value: s.value, stringValue: s.stringValue ?? '' };
}

/** `ScoreV3` (experiments API). */
export function scoreV3View(s: ScoreRecord, projectId: string) {
  const base = {
    id: s.id,
    projectId,
    name: s.name,
    source: s.source,
    timestamp: iso(s.timestamp),
    environment: s.environment,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    dataType: s.dataType,
  };
  if (s.dataType === 'NUMERIC') return { ...base, value: s.value };
  if (s.dataType === 'BOOLEAN') return { ...base, value: s.value === 1 };
  return { ...base, value: s.stringValue ?? '' };
}

export function scoreConfigView(c: ScoreConfigRecord, projectId: string) {
  return {
    id: c.id,
    name: c.name,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
    projectId,
    dataType: c.dataType,
    isArchived: c.isArchived,
    minValue: c.minValue,
    maxValue: c.maxValue,
    categories: c.categories,
    description: c.description,
  };
}

export function datasetView(d: DatasetRecord, projectId: string) {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    metadata: d.metadata,
    inputSchema: d.inputSchema,
    expectedOutputSchema: d.expectedOutputSchema,
    projectId,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  };
}

export function datasetItemView(item: DatasetItemRecord, datasetName: string) {
  return {
    id: item.id,
    status: item.status,
    input: item.input,
    expectedOutput: item.expectedOutput,
    metadata: item.metadata,
    sourceTraceId: item.sourceTraceId,
    sourceObservationId: item.sourceObservationId,
    datasetId: item.datasetId,
    datasetName,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.updatedAt),
    mediaReferences: [],
  };
}

export function datasetRunView(run: DatasetRunView) {
  return {
    id: run.id,
    name: run.name,
    description: run.description,
    metadata: run.metadata ?? null,
    datasetId: run.datasetId,
    datasetName: run.datasetName,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
  };
}

export function datasetRunItemView(run: Pick<DatasetRunView, 'id' | 'name'>, item: DatasetRunView['items'][number]) {
  return {
    id: item.id,
    datasetRunId: run.id,
    datasetRunName: run.name,
    datasetItemId: item.datasetItemId,
    traceId: item.traceId,
    observationId: item.observationId,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.createdAt),
  };
}
