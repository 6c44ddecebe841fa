import { normalizeEnvironment } from '../values.js';
import { parseJson, type Attributes } from './attributes.js';

/** Field extraction from span attributes, following Langfuse's OtelIngestionProcessor. */

const asString = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function extractName(spanName: string, a: Attributes): string {
  if (a['gen_ai.tool.name']) return asString(a['gen_ai.tool.name']);
  if ('genkit:name' in a) return String(a['genkit:name']);
  if (a['logfire.msg']) return asString(a['logfire.msg']);
  if ('ai.toolCall.name' in a) return String(a['ai.toolCall.name']);
  if ('ai.operationId' in a) {
    const prefix = a['ai.telemetry.functionId'] ? `${String(a['ai.telemetry.functionId'])}:` : '';
    return prefix + String(a['ai.operationId']);
  }
  return spanName;
}

export function extractEnvironment(a: Attributes, resource: Attributes): string {
  for (const key of ['langfuse.environment', 'deployment.environment.name', 'deployment.environment']) {
    if (a[key]) return normalizeEnvironment(a[key]);
    if (resource[key]) return normalizeEnvironment(resource[key]);
  }
  return 'default';
}

function parseMetadataAttribute(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function prefixed(a: Attributes, prefixes: string[], excluded: Set<string> = new Set()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(a)) {
    for (const prefix of prefixes) {
      if (!key.startsWith(`${prefix}.`) || excluded.has(key)) continue;
      const sub = key.slice(prefix.length + 1);
      if (sub) out[sub] = value;
    }
  }
  return out;
}

export function extractMetadata(a: Attributes, domain: 'trace' | 'observation'): Record<string, unknown> {
  const prefix = domain === 'observation' ? 'langfuse.observation.metadata' : 'langfuse.trace.metadata';
  return {
    ...parseMetadataAttribute(a[prefix] || a['langfuse.metadata']),
    ...prefixed(
      a,
      [prefix, 'langfuse.metadata', 'ai.telemetry.metadata'],
      new Set([
        'ai.telemetry.metadata.userId',
        'ai.telemetry.metadata.sessionId',
        'ai.telemetry.metadata.tags',
        'ai.telemetry.metadata.langfusePrompt',
      ]),
    ),
  };
}

function firstString(a: Attributes, keys: string[]): string | undefined {
  for (const key of keys) if (a[key]) return asString(a[key]);
  return undefined;
}

export function extractUserId(a: Attributes): string | undefined {
  return firstString(a, [
    'langfuse.user.id',
    'user.id',
    'langfuse.observation.metadata.langfuse_user_id',
    'langfuse.trace.metadata.langfuse_user_id',
    'ai.telemetry.metadata.userId',
  ]);
}

export function extractSessionId(a: Attributes): string | undefined {
  return firstString(a, [
    'langfuse.session.id',
    'session.id',
    'gen_ai.conversation.id',
    'langfuse.observation.metadata.langfuse_session_id',
    'langfuse.trace.metadata.langfuse_session_id',
    'ai.telemetry.metadata.sessionId',
  ]);
}

export function extractTags(a: Attributes): string[] {
  const v =
    a['langfuse.trace.tags'] ||
    a['langfuse.tags'] ||
    a['langfuse.observation.metadata.langfuse_tags'] ||
    a['langfuse.trace.metadata.langfuse_tags'] ||
    a['ai.telemetry.metadata.tags'] ||
    a['tag.tags'];
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v.trim().startsWith('[')) {
    const parsed = parseJson(v);
    if (Array.isArray(parsed)) return parsed.map(String);
  }
  if (typeof v === 'string' && v.includes(',')) return v.split(',').map((t) => t.trim());
  return typeof v === 'string' ? [v] : [];
}

export function extractPublic(a: Attributes): boolean | undefined {
  const v = a['langfuse.trace.public'] ?? a['langfuse.public'];
  if (v === null || v === undefined) return undefined;
  return v === true || v === 'true';
}

export function hasTraceUpdates(a: Attributes): boolean {
  const exact = [
    'langfuse.trace.name',
    'langfuse.trace.input',
    'langfuse.trace.output',
    'langfuse.trace.metadata',
    'user.id',
    'session.id',
    'langfuse.trace.public',
    'langfuse.trace.tags',
    'langfuse.user.id',
    'langfuse.session.id',
    'langfuse.observation.metadata.langfuse_user_id',
    'langfuse.observation.metadata.langfuse_session_id',
    'langfuse.observation.metadata.langfuse_tags',
    'langfuse.trace.metadata.langfuse_session_id',
    'langfuse.trace.metadata.langfuse_user_id',
    'langfuse.trace.metadata.langfuse_tags',
    'ai.telemetry.metadata.sessionId',
    'ai.telemetry.metadata.userId',
    'ai.telemetry.metadata.tags',
    'tag.tags',
  ].some((k) => Boolean(a[k]));
  return exact || Object.keys(a).some((k) => k.startsWith('langfuse.trace.metadata'));
}

export function extractModelName(a: Attributes): string | undefined {
  return firstString(a, [
    'langfuse.observation.model.name',
    'gen_ai.response.model',
    'ai.model.id',
    'gen_ai.request.model',
    'llm.response.model',
    'llm.model_name',
    'model',
  ]);
}

function sanitize(params: unknown): Record<string, unknown> {
  if (!params || typeof params !== 'object') return {};
  return Object.fromEntries(
    Object.entries(params as Record<string, unknown>).map(([k, v]) => [
      k,
      typeof v === 'string' || typeof v === 'number' ? v : JSON.stringify(v),
    ]),
  );
}

export function extractModelParameters(a: Attributes): Record<string, unknown> {
  const explicit = a['langfuse.observation.model.parameters'];
  if (explicit) {
    const parsed = parseJson(explicit);
    if (parsed !== undefined) return sanitize(parsed);
  }
  for (const key of ['llm.invocation_parameters', 'model_config']) {
    if (a[key]) {
      const parsed = parseJson(a[key]);
      if (parsed !== undefined) return sanitize(parsed);
    }
  }
  const out: Record<string, unknown> = {};
  for (const prefix of ['gen_ai.request.', 'llm.invocation_parameters.']) {
    for (const key of Object.keys(a)) {
      if (key.startsWith(prefix) && key.slice(prefix.length) !== 'model') out[key.slice(prefix.length)] = a[key];
    }
  }
  return sanitize(out);
}

function numericRecord(value: unknown): Record<string, number> | undefined {
  const parsed = typeof value === 'string' ? parseJson(value) : value;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
    const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
    if (Number.isFinite(n)) out[k] = n;
  }
  return out;
}

export function extractUsageDetails(a: Attributes): Record<string, number> {
  const explicit = a['langfuse.observation.usage_details']
    ? numericRecord(a['langfuse.observation.usage_details'])
    : undefined;
  if (explicit) return explicit;
  const out: Record<string, number> = {};
  const num = (k: string) =>
    typeof a[k] === 'number' ? (a[k] as number) : typeof a[k] === 'string' ? Number(a[k]) : undefined;
  const input = num('gen_ai.usage.input_tokens') ?? num('gen_ai.usage.prompt_tokens') ?? num('llm.token_count.prompt');
  const output =
    num('gen_ai.usage.output_tokens') ?? num('gen_ai.usage.completion_tokens') ?? num('llm.token_count.completion');
  const total = num('gen_ai.usage.total_tokens') ?? num('llm.token_count.total');
  if (input !== undefined && Number.isFinite(input)) out.input = input;
  if (output !== undefined && Number.isFinite(output)) out.output = output;
  if (total !== undefined && Number.isFinite(total)) out.total = total;
  return out;
}

export function extractCostDetails(a: Attributes): Record<string, number> {
  const explicit = a['langfuse.observation.cost_details']
    ? numericRecord(a['langfuse.observation.cost_details'])
    : undefined;
  if (explicit) return explicit;
  for (const key of ['gen_ai.usage.cost', 'llm.cost.total']) {
    const v = a[key];
    if (v !== null && v !== undefined && v !== '' && Number.isFinite(Number(v))) return { total: Number(v) };
  }
  return {};
}

export function extractCompletionStartTime(a: Attributes, startMs: number): number | null {
  const raw = a['langfuse.observation.completion_start_time'];
  for (const candidate of [raw, parseJson(raw)]) {
    if (typeof candidate === 'string' && !Number.isNaN(Date.parse(candidate))) return Date.parse(candidate);
  }
  const ms = a['ai.response.msToFirstChunk'] ?? a['ai.stream.msToFirstChunk'];
  if (ms) return startMs + Math.ceil(Number(ms));
  return null;
}
