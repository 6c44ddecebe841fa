import type { ExperimentFields, ObservationLevel, ObservationRecord, ObservationType, TraceRecord } from './types.js';
import { normalizeEnvironment, toMetadata, toMillis, toRaw } from './values.js';

type Time = number | string | Date;

/** What a caller may give for a trace; everything but `id` is optional, absent/null keeps the stored value. */
export interface TraceInput {
  id: string;
  timestamp?: Time | null;
  name?: string | null;
  userId?: string | null;
  sessionId?: string | null;
  release?: string | null;
  version?: string | null;
  input?: unknown;
  output?: unknown;
  metadata?: unknown;
  tags?: string[] | null;
  public?: boolean | null;
  bookmarked?: boolean | null;
  environment?: string | null;
  /** Override when the stand-in "received" it (read lag counts from here); defaults to the clock. */
  ingestedAt?: number;
  /** Hidden from reads until then; defaults to `ingestedAt`. */
  visibleAt?: number;
}

export interface ObservationInput {
  id: string;
  traceId?: string | null;
  type?: ObservationType;
  name?: string | null;
  startTime?: Time | null;
  endTime?: Time | null;
  completionStartTime?: Time | null;
  model?: string | null;
  modelParameters?: Record<string, unknown> | null;
  input?: unknown;
  output?: unknown;
  metadata?: unknown;
  level?: ObservationLevel | null;
  statusMessage?: string | null;
  parentObservationId?: string | null;
  version?: string | null;
  environment?: string | null;
  usageDetails?: Record<string, number> | null;
  costDetails?: Record<string, number> | null;
  promptName?: string | null;
  promptVersion?: number | null;
  isAppRoot?: boolean;
  userId?: string | null;
  sessionId?: string | null;
  experiment?: ExperimentFields | null;
  ingestedAt?: number;
  visibleAt?: number;
}

function pick<T>(next: T | null | undefined, previous: T): T {
  return next === undefined || next === null ? previous : next;
}

function mergeMetadata(previous: Record<string, unknown> | null, next: unknown): Record<string, unknown> | null {
  const incoming = toMetadata(next);
  if (!incoming) return previous;
  return previous ? { ...previous, ...incoming } : incoming;
}

export function mergeTrace(existing: TraceRecord | undefined, input: TraceInput, now: number): TraceRecord {
  if (!existing) {
    const timestamp = toMillis(input.timestamp) ?? now;
    return {
      id: input.id,
      timestamp,
      name: input.name ?? null,
      userId: input.userId ?? null,
      sessionId: input.sessionId ?? null,
      release: input.release ?? null,
      version: input.version ?? null,
      input: toRaw(input.input),
      output: toRaw(input.output),
      metadata: toMetadata(input.metadata),
      tags: input.tags ? [...new Set(input.tags)] : [],
      public: input.public ?? false,
      bookmarked: input.bookmarked ?? false,
      environment: input.environment ? normalizeEnvironment(input.environment) : 'default',
      createdAt: now,
      updatedAt: now,
      ingestedAt: input.ingestedAt ?? now,
      visibleAt: input.visibleAt ?? input.ingestedAt ?? now,
    };
  }
  existing.timestamp = toMillis(input.timestamp) ?? existing.timestamp;
  existing.name = pick(input.name, existing.name);
  existing.userId = pick(input.userId, existing.userId);
  existing.sessionId = pick(input.sessionId, existing.sessionId);
  existing.release = pick(input.release, existing.release);
  existing.version = pick(input.version, existing.version);
  existing.input = pick(toRaw(input.input), existing.input);
  existing.output = pick(toRaw(input.output), existing.output);
  existing.metadata = mergeMetadata(existing.metadata, input.metadata);
  if (input.tags && input.tags.length > 0) existing.tags = [...new Set([...existing.tags, ...input.tags])];
  existing.public = pick(input.public, existing.public);
  existing.bookmarked = pick(input.bookmarked, existing.bookmarked);
  if (input.environment) existing.environment = normalizeEnvironment(input.environment);
  existing.updatedAt = now;
  return existing;
}

export function mergeObservation(
  existing: ObservationRecord | undefined,
  input: ObservationInput,
  now: number,
): ObservationRecord {
  if (!existing) {
    return {
      id: input.id,
      traceId: input.traceId ?? null,
      type: input.type ?? 'SPAN',
      name: input.name ?? null,
      startTime: toMillis(input.startTime) ?? now,
      endTime: toMillis(input.endTime),
      completionStartTime: toMillis(input.completionStartTime),
      model: input.model ?? null,
      modelParameters: input.modelParameters ?? null,
      input: toRaw(input.input),
      output: toRaw(input.output),
      metadata: toMetadata(input.metadata),
      level: input.level ?? 'DEFAULT',
      statusMessage: input.statusMessage ?? null,
      parentObservationId: input.parentObservationId ?? null,
      version: input.version ?? null,
      environment: input.environment ? normalizeEnvironment(input.environment) : 'default',
      usageDetails: withTotal(input.usageDetails ?? {}),
      costDetails: withTotal(input.costDetails ?? {}),
      promptName: input.promptName ?? null,
      promptVersion: input.promptVersion ?? null,
      isAppRoot: input.isAppRoot ?? false,
      userId: input.userId ?? null,
      sessionId: input.sessionId ?? null,
      experiment: input.experiment ?? null,
      createdAt: now,
      updatedAt: now,
      ingestedAt: input.ingestedAt ?? now,
      visibleAt: input.visibleAt ?? input.ingestedAt ?? now,
    };
  }
  existing.traceId = pick(input.traceId, existing.traceId);
  if (input.type) existing.type = input.type;
  existing.name = pick(input.name, existing.name);
  existing.startTime = toMillis(input.startTime) ?? existing.startTime;
  existing.endTime = toMillis(input.endTime) ?? existing.endTime;
  existing.completionStartTime = toMillis(input.completionStartTime) ?? existing.completionStartTime;
  existing.model = pick(input.model, existing.model);
  existing.modelParameters = pick(input.modelParameters, existing.modelParameters);
  existing.input = pick(toRaw(input.input), existing.input);
  existing.output = pick(toRaw(input.output), existing.output);
  existing.metadata = mergeMetadata(existing.metadata, input.metadata);
  existing.level = pick(input.level, existing.level);
  existing.statusMessage = pick(input.statusMessage, existing.statusMessage);
  existing.parentObservationId = pick(input.parentObservationId, existing.parentObservationId);
  existing.version = pick(input.version, existing.version);
  if (input.environment) existing.environment = normalizeEnvironment(input.environment);
  if (input.usageDetails && Object.keys(input.usageDetails).length > 0) {
    existing.usageDetails = withTotal(input.usageDetails);
  }
  if (input.costDetails && Object.keys(input.costDetails).length > 0) {
    existing.costDetails = withTotal(input.costDetails);
  }
  existing.promptName = pick(input.promptName, existing.promptName);
  existing.promptVersion = pick(input.promptVersion, existing.promptVersion);
  if (input.isAppRoot) existing.isAppRoot = true;
  existing.userId = pick(input.userId, existing.userId);
  existing.sessionId = pick(input.sessionId, existing.sessionId);
  existing.experiment = pick(input.experiment, existing.experiment);
  existing.updatedAt = now;
  return existing;
}

/** Langfuse adds `total` as the sum of the other keys when it was not given. */
function withTotal(details: Record<string, number>): Record<string, number> {
  const entries = Object.entries(details).filter(([, v]) => typeof v === 'number' && Number.isFinite(v));
  if (entries.length === 0) return {};
  const result = Object.fromEntries(entries);
  if (result.total === undefined) result.total = entries.reduce((sum, [, v]) => sum + v, 0);
  return result;
}
