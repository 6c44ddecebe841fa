import type { LangfuseStore } from '../store.js';
import type { ExperimentFields, ObservationLevel } from '../types.js';
import { nanosToMillis, parseId, toAttributes, type Attributes } from './attributes.js';
import {
  extractCompletionStartTime,
  extractCostDetails,
  extractEnvironment,
  extractMetadata,
  extractModelName,
  extractModelParameters,
  extractName,
  extractPublic,
  extractSessionId,
  extractTags,
  extractUsageDetails,
  extractUserId,
  hasTraceUpdates,
} from './fields.js';
import { extractIo } from './io.js';
import { mapObservationType } from './observation-type.js';

/** Maps OTLP resource spans onto traces and observations the way Langfuse's OtelIngestionProcessor does. */

export class InvalidOtlpError extends Error {}

interface OtlpSpan {
  traceId?: unknown;
  spanId?: unknown;
  parentSpanId?: unknown;
  name?: string;
  startTimeUnixNano?: unknown;
  endTimeUnixNano?: unknown;
  attributes?: unknown;
  events?: unknown;
  status?: { code?: number; message?: string };
}

interface ScopeSpans {
  scope?: { name?: string; version?: string; attributes?: unknown } | null;
  spans?: OtlpSpan[] | null;
}

interface ResourceSpans {
  resource?: { attributes?: unknown } | null;
  scopeSpans?: ScopeSpans[] | null;
}

const LEVELS: Record<string, ObservationLevel> = {
  DEBUG: 'DEBUG',
  DEFAULT: 'DEFAULT',
  WARNING: 'WARNING',
  WARN: 'WARNING',
  ERROR: 'ERROR',
};

function isValidId(id: unknown): boolean {
  return typeof id === 'string'
    ? id.length > 0
    : Array.isArray(id) || id instanceof Uint8Array || (typeof id === 'object' && id !== null && 'data' in id);
}

/** Langfuse rejects the whole export (400) when any span lacks ids or a collection is not an array. */
export function validateResourceSpans(resourceSpans: unknown): ResourceSpans[] {
  if (!Array.isArray(resourceSpans)) throw new InvalidOtlpError('resourceSpans must be an array');
  let invalid = 0;
  let total = 0;
  for (const rs of resourceSpans as ResourceSpans[]) {
    if (rs?.scopeSpans != null && !Array.isArray(rs.scopeSpans))
      throw new InvalidOtlpError('scopeSpans must be an array');
    for (const ss of rs?.scopeSpans ?? []) {
      if (ss?.spans != null && !Array.isArray(ss.spans)) throw new InvalidOtlpError('spans must be an array');
      for (const span of ss?.spans ?? []) {
        total++;
        if (span?.attributes != null && !Array.isArray(span.attributes)) {
          throw new InvalidOtlpError('attributes must be a list of {key, value} entries, not a JSON object');
        }
        if (!isValidId(span?.traceId) || !isValidId(span?.spanId)) invalid++;
      }
    }
  }
  if (invalid > 0) {
    throw new InvalidOtlpError(
      `Invalid OTLP trace export: ${invalid} of ${total} span(s) cannot be processed. traceId and spanId are required on every span, and each must be a string or a byte array. The entire export was rejected and no spans were ingested.`,
    );
  }
  return resourceSpans as ResourceSpans[];
}

function experimentFields(a: Attributes): ExperimentFields | null {
  const id = a['langfuse.experiment.id'];
  if (!id) return null;
  const str = (k: string) => (a[k] === undefined || a[k] === null || a[k] === '' ? null : String(a[k]));
  const meta = (prefix: string) => {
    const out = { ...(typeof a[prefix] === 'string' ? objectOrEmpty(a[prefix]) : {}) };
    for (const [k, v] of Object.entries(a)) if (k.startsWith(`${prefix}.`)) out[k.slice(prefix.length + 1)] = v;
    return Object.keys(out).length > 0 ? out : null;
  };
  const version = str('langfuse.experiment.item.version');
  return {
    id: String(id),
    name: str('langfuse.experiment.name'),
    description: str('langfuse.experiment.description'),
    datasetId: str('langfuse.experiment.dataset.id'),
    itemId: str('langfuse.experiment.item.id'),
    itemVersion: version !== null && !Number.isNaN(Date.parse(version)) ? new Date(version).toISOString() : null,
    itemRootObservationId: str('langfuse.experiment.item.root_observation_id'),
    itemExpectedOutput: str('langfuse.experiment.item.expected_output'),
    metadata: meta('langfuse.experiment.metadata'),
    itemMetadata: meta('langfuse.experiment.item.metadata'),
  };
}

function objectOrEmpty(text: unknown): Record<string, unknown> {
  try {
    const parsed = JSON.parse(String(text));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : { value: parsed };
  } catch {
    return {};
  }
}

/** Writes every span of an (already validated) export into the store; returns the number of spans. */
export function ingestResourceSpans(store: LangfuseStore, resourceSpans: ResourceSpans[]): number {
  let count = 0;
  for (const rs of resourceSpans) {
    const resourceAttributes = toAttributes(rs?.resource?.attributes);
    const resourceTraceMetadata = extractMetadata(resourceAttributes, 'trace');
    for (const ss of rs?.scopeSpans ?? []) {
      const scopeName = ss?.scope?.name ?? '';
      const isLangfuseSdk = scopeName.startsWith('langfuse-sdk');
      const scope = { ...(ss?.scope ?? {}), attributes: toAttributes(ss?.scope?.attributes) };
      for (const span of ss?.spans ?? []) {
        ingestSpan(store, span, resourceAttributes, resourceTraceMetadata, scope, isLangfuseSdk, scopeName);
        count++;
      }
    }
  }
  return count;
}

function ingestSpan(
  store: LangfuseStore,
  span: OtlpSpan,
  resourceAttributes: Attributes,
  resourceTraceMetadata: Record<string, unknown>,
  scope: Record<string, unknown>,
  isLangfuseSdk: boolean,
  scopeName: string,
): void {
  const a = toAttributes(span.attributes);
  const events = Array.isArray(span.events) ? (span.events as { name?: string; attributes?: unknown }[]) : [];
  const traceId = parseId(span.traceId);
  const spanId = parseId(span.spanId);
  const parentId = span.parentSpanId ? parseId(span.parentSpanId) : null;
  const startRaw = nanosToMillis(span.startTimeUnixNano);
  const endRaw = nanosToMillis(span.endTimeUnixNano);
  const start = startRaw ?? endRaw ?? store.now();
  const end = endRaw ?? startRaw ?? start;
  const isRoot = !parentId || String(a['langfuse.internal.as_root']) === 'true';
  const traceUpdates = hasTraceUpdates(a);
  const environment = extractEnvironment(a, resourceAttributes);
  const observationMetadata = extractMetadata(a, 'observation');
  const sharedTraceFields = {
    version:
      (a['langfuse.version'] as string | undefined) ??
      (resourceAttributes['service.version'] as string | undefined) ??
      null,
    release:
      (a['langfuse.release'] as string | undefined) ??
      (resourceAttributes['langfuse.release'] as string | undefined) ??
      null,
    userId: extractUserId(a),
    sessionId: extractSessionId(a),
    public: extractPublic(a),
    tags: extractTags(a),
    environment,
  };

  if (isRoot) {
    const io = extractIo(a, events, 'trace', scopeName);
    store.upsertTrace({
      id: traceId,
      timestamp: start,
      name: (a['langfuse.trace.name'] as string | undefined) ?? extractName(span.name ?? '', a),
      metadata: {
        ...resourceTraceMetadata,
        ...extractMetadata(a, 'trace'),
        ...observationMetadata,
        ...(isLangfuseSdk ? {} : { attributes: io.filteredAttributes }),
        resourceAttributes,
        scope,
      },
      input: io.input,
      output: io.output,
      ...sharedTraceFields,
    });
  } else if (traceUpdates) {
    store.upsertTrace({
      id: traceId,
      timestamp: store.getTrace(traceId) ? undefined : start,
      name: a['langfuse.trace.name'] as string | undefined,
      metadata: { ...resourceTraceMetadata, ...extractMetadata(a, 'trace'), resourceAttributes, scope },
      input: a['langfuse.trace.input'],
      output: a['langfuse.trace.output'],
      ...sharedTraceFields,
    });
  } else if (!store.getTrace(traceId)) {
    store.upsertTrace({ id: traceId, timestamp: start, environment });
  }

  const type = mapObservationType(a);
  const io = extractIo(a, events, 'observation', scopeName);
  const levelAttr =
    typeof a['langfuse.observation.level'] === 'string'
      ? LEVELS[(a['langfuse.observation.level'] as string).trim().toUpperCase()]
      : undefined;
  const promptVersion = a['langfuse.observation.prompt.version'] ?? a['langfuse.prompt.version'];
  store.upsertObservation({
    id: spanId,
    traceId,
    type,
    parentObservationId: parentId,
    name: extractName(span.name ?? '', a),
    startTime: start,
    endTime: end,
    environment,
    completionStartTime: extractCompletionStartTime(a, start),
    metadata: {
      ...resourceTraceMetadata,
      ...observationMetadata,
      ...(isLangfuseSdk ? {} : { attributes: io.filteredAttributes }),
      resourceAttributes,
      scope,
    },
    level: levelAttr ?? (span.status?.code === 2 ? 'ERROR' : 'DEFAULT'),
    statusMessage: (a['langfuse.observation.status_message'] as string | undefined) ?? span.status?.message ?? null,
    version: sharedTraceFields.version,
    modelParameters: extractModelParameters(a),
    model: extractModelName(a) ?? null,
    promptName:
      type === 'GENERATION'
        ? ((a['langfuse.observation.prompt.name'] ?? a['langfuse.prompt.name'] ?? null) as string | null)
        : null,
    promptVersion: type === 'GENERATION' && promptVersion !== undefined ? Number(promptVersion) : null,
    usageDetails: extractUsageDetails(a),
    costDetails: extractCostDetails(a),
    input: io.input,
    output: io.output,
    isAppRoot: a['langfuse.internal.is_app_root'] === true || a['langfuse.internal.is_app_root'] === 'true',
    userId: sharedTraceFields.userId ?? null,
    sessionId: sharedTraceFields.sessionId ?? null,
    experiment: experimentFields(a),
  });
}
