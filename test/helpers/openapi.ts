import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

/**
 * Validates HTTP exchanges against an OpenAPI 3.0 document (by default the copy of Langfuse's public API spec
 * in test/fixtures/langfuse-api). The spec is converted to JSON Schema once per path: `nullable`, `$ref`s to components,
 * discriminated `oneOf`s (turned into if/then chains so one bad field gives one clear message) and undiscriminated
 * `oneOf`s (Fern's unions, validated as `anyOf`). Unknown or unreadable formats (`double`, `int64`, …) are dropped.
 */

export interface ExchangeToValidate {
  method: string;
  /** Path without query string, e.g. `/api/public/traces/abc`. */
  path: string;
  query?: Record<string, string | string[] | undefined> | URLSearchParams;
  requestBody?: unknown;
  /** 0 (a reset connection) skips response validation. */
  status?: number;
  responseBody?: unknown;
}

export interface OpenApiValidator {
  validate(exchange: ExchangeToValidate): string[];
  /** The operationId matched by a method + path, or undefined. */
  operationId(method: string, path: string): string | undefined;
}

type Json = Record<string, unknown>;

/** A copy of the shared spec kept in the repo, so a fresh clone validates against the same document. */
const DEFAULT_SPEC = fileURLToPath(new URL('../fixtures/langfuse-api/openapi.yml', import.meta.url));
const KEPT_FORMATS = new Set(['date-time', 'date', 'email', 'uri', 'uuid']);
const SPEC_ID = 'openapi-spec';
const cache = new Map<string, OpenApiValidator>();

export function defaultSpecPath(): string {
  return process.env.LANGFUSE_OPENAPI_SPEC ?? DEFAULT_SPEC;
}

export function createOpenApiValidator(specPath: string = defaultSpecPath()): OpenApiValidator {
  const cached = cache.get(specPath);
  if (cached) return cached;
  if (!existsSync(specPath)) throw new Error(`OpenAPI spec not found at ${specPath} (set LANGFUSE_OPENAPI_SPEC)`);
  const validator = buildValidator(readSpec(specPath));
  cache.set(specPath, validator);
  return validator;
}

/** Parsing the 500 KB YAML takes ~2 s; a JSON copy in the temp dir, keyed by path/size/mtime, makes reruns fast. */
function readSpec(specPath: string): Json {
  const stat = statSync(specPath);
  const key = createHash('sha256').update(`${specPath}:${stat.size}:${stat.mtimeMs}`).digest('hex').slice(0, 16);
  const cachePath = join(tmpdir(), `ragwatch-openapi-${key}.json`);
  if (existsSync(cachePath)) {
    try {
      return JSON.parse(readFileSync(cachePath, 'utf8')) as Json;
    } catch {
      // fall through and rebuild a damaged cache
    }
  }
  const spec = parseYaml(readFileSync(specPath, 'utf8'), { maxAliasCount: -1 }) as Json;
  const tmp = `${cachePath}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(spec));
  renameSync(tmp, cachePath);
  return spec;
}

// ── OpenAPI 3.0 schema → JSON Schema draft-07 ────────────────────────────────

function discriminatorOf(branches: Json[]): string | undefined {
  const candidates = branches.map((branch) => {
    const parts = [branch, ...((branch.allOf as Json[] | undefined) ?? [])];
    const found = new Map<string, unknown>();
    for (const part of parts) {
      for (const [name, prop] of Object.entries((part.properties as Record<string, Json> | undefined) ?? {})) {
        if (Array.isArray(prop.enum) && prop.enum.length === 1) found.set(name, prop.enum[0]);
      }
    }
    return found;
  });
  const first = candidates[0];
  if (!first) return undefined;
  for (const name of first.keys()) {
    const values = candidates.map((c) => c.get(name));
    if (values.every((v) => v !== undefined) && new Set(values).size === values.length) return name;
  }
  return undefined;
}

function convert(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(convert);
  if (typeof schema !== 'object' || schema === null) return schema;
  const source = schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'discriminator' || key === 'example' || key === 'deprecated') continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.replace('#/components/schemas/', `${SPEC_ID}#/definitions/`);
    } else if (key === 'format') {
      if (typeof value === 'string' && KEPT_FORMATS.has(value)) out.format = value;
    } else if (key === 'oneOf' && Array.isArray(value)) {
      const branches = value as Json[];
      const discriminator = discriminatorOf(branches);
      if (discriminator) {
        const values = branches.map((b) => {
          const parts = [b, ...((b.allOf as Json[] | undefined) ?? [])];
          for (const part of parts) {
            const prop = (part.properties as Record<string, Json> | undefined)?.[discriminator];
            if (prop?.enum) return (prop.enum as unknown[])[0];
          }
          return undefined;
        });
        out.required = [...new Set([...((out.required as string[]) ?? []), discriminator])];
        out.properties = { ...((out.properties as Json) ?? {}), [discriminator]: { enum: values } };
        out.allOf = [
          ...((out.allOf as unknown[]) ?? []),
          ...branches.map((b, i) => ({
            if: { properties: { [discriminator]: { const: values[i] } }, required: [discriminator] },
            then: convert(b),
          })),
        ];
      } else {
        out.anyOf = branches.map(convert);
      }
    } else if (key === 'properties' && typeof value === 'object' && value !== null) {
      const merged = { ...((out.properties as Json) ?? {}) };
      for (const [name, prop] of Object.entries(value as Json)) merged[name] = convert(prop);
      out.properties = merged;
    } else if (key === 'allOf' && Array.isArray(value)) {
      out.allOf = [...((out.allOf as unknown[]) ?? []), ...value.map(convert)];
    } else if (key === 'required' && Array.isArray(value)) {
      out.required = [...new Set([...((out.required as string[]) ?? []), ...(value as string[])])];
    } else {
      out[key] = convert(value);
    }
  }
  if (source.nullable === true) {
    if (typeof out.$ref === 'string') {
      const { $ref, ...rest } = out;
      return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
    }
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
  }
  return out;
}

// ── operations ───────────────────────────────────────────────────────────────

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: Json;
}

interface Operation {
  id: string;
  method: string;
  template: string;
  regex: RegExp;
  literalSegments: number;
  queryParams: Parameter[];
  requestBody: { required: boolean; schema: Json | undefined } | undefined;
  responses: Map<string, Json | undefined>;
}

function jsonSchemaOf(content: unknown): Json | undefined {
  const media = (content as Record<string, { schema?: Json }> | undefined)?.['application/json'];
  return media?.schema;
}

function buildValidator(spec: Json): OpenApiValidator {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  const components = ((spec.components as Json | undefined)?.schemas as Json | undefined) ?? {};
  const definitions: Json = {};
  for (const [name, schema] of Object.entries(components)) definitions[name] = convert(schema);
  ajv.addSchema({ $id: SPEC_ID, definitions });

  const operations: Operation[] = [];
  for (const [template, item] of Object.entries((spec.paths as Json | undefined) ?? {})) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const operation = op as Json;
      const params = [
        ...(((item as Json).parameters as Parameter[] | undefined) ?? []),
        ...((operation.parameters as Parameter[] | undefined) ?? []),
      ];
      const body = operation.requestBody as { required?: boolean; content?: unknown } | undefined;
      const responses = new Map<string, Json | undefined>();
      for (const [status, response] of Object.entries((operation.responses as Json | undefined) ?? {})) {
        responses.set(status, jsonSchemaOf((response as Json).content));
      }
      const segments = template.split('/');
      operations.push({
        id: String(operation.operationId ?? `${method} ${template}`),
        method: method.toUpperCase(),
        template,
        regex: new RegExp(
          `^${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
        ),
        literalSegments: segments.filter((s) => !/^\{.+\}$/.test(s)).length,
        queryParams: params.filter((p) => p.in === 'query'),
        requestBody: body ? { required: body.required === true, schema: jsonSchemaOf(body.content) } : undefined,
        responses,
      });
    }
  }
  // Prefer literal segments over parameters (`/v2/datasets` vs `/datasets/{name}`).
  operations.sort((a, b) => b.literalSegments - a.literalSegments);

  const compiled = new Map<Json, ValidateFunction>();
  const check = (schema: Json, data: unknown, where: string): string[] => {
    let fn = compiled.get(schema);
    if (!fn) {
      fn = ajv.compile(convert(schema) as Json);
      compiled.set(schema, fn);
    }
    return fn(data) ? [] : formatErrors(fn.errors ?? [], where);
  };

  const find = (method: string, path: string) =>
    operations.find((o) => o.method === method.toUpperCase() && o.regex.test(path));

  return {
    operationId: (method, path) => find(method, path)?.id,
    validate(exchange) {
      const operation = find(exchange.method, exchange.path);
      if (!operation) return [`${exchange.method.toUpperCase()} ${exchange.path}: no such operation in the spec`];
      const violations: string[] = [];
      violations.push(...validateQuery(operation, exchange.query, check));
      // A 413 answer means the body was refused unread: there is nothing to check.
      if (operation.requestBody && exchange.method.toUpperCase() !== 'GET' && exchange.status !== 413) {
        if (exchange.requestBody === undefined) {
          if (operation.requestBody.required) violations.push(`${operation.id}: request body is required`);
        } else if (operation.requestBody.schema) {
          violations.push(...check(operation.requestBody.schema, exchange.requestBody, `${operation.id} request body`));
        }
      }
      const status = exchange.status;
      if (status !== undefined && status !== 0) {
        const key = String(status);
        if (operation.responses.has(key)) {
          const schema = operation.responses.get(key);
          if (schema) violations.push(...check(schema, exchange.responseBody, `${operation.id} response ${key}`));
        } else if (operation.responses.has('default')) {
          const schema = operation.responses.get('default');
          if (schema) violations.push(...check(schema, exchange.responseBody, `${operation.id} response ${key}`));
        } else if (!isUndocumentedInfraStatus(status)) {
          violations.push(`${operation.id}: status ${key} is not declared in the spec`);
        }
      }
      return violations;
    },
  };
}

/** The spec leaves out statuses any deployment can produce in front of the app (size limit, rate limit, 5xx). */
function isUndocumentedInfraStatus(status: number): boolean {
  return status === 413 || status === 429 || status >= 500;
}

function validateQuery(
  operation: Operation,
  query: ExchangeToValidate['query'],
  check: (schema: Json, data: unknown, where: string) => string[],
): string[] {
  const values = new Map<string, string[]>();
  if (query instanceof URLSearchParams) {
    for (const key of new Set(query.keys())) values.set(key, query.getAll(key));
  } else if (query) {
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) values.set(key, Array.isArray(value) ? value : [value]);
    }
  }
  const violations: string[] = [];
  const declared = new Set(operation.queryParams.map((p) => p.name));
  for (const key of values.keys()) {
    if (!declared.has(key)) violations.push(`${operation.id}: unknown query parameter "${key}"`);
  }
  for (const param of operation.queryParams) {
    const raw = values.get(param.name);
    if (raw === undefined) {
      if (param.required) violations.push(`${operation.id}: query parameter "${param.name}" is required`);
      continue;
    }
    const type = param.schema.type;
    const coerce = (v: string, t: unknown): unknown =>
      t === 'integer' || t === 'number'
        ? v.trim() === '' || Number.isNaN(Number(v))
          ? v
          : Number(v)
        : t === 'boolean'
          ? v === 'true'
            ? true
            : v === 'false'
              ? false
              : v
          : v;
    const data =
      type === 'array'
        ? raw.map((v) => coerce(v, (param.schema.items as Json | undefined)?.type))
        : raw.length === 1
          ? coerce(raw[0]!, type)
          : raw;
    violations.push(...check(param.schema, data, `${operation.id} query "${param.name}"`));
  }
  return violations;
}

function formatErrors(errors: ErrorObject[], where: string): string[] {
  // if/then branches report a generic "must match then schema" next to the real error: keep the real one.
  const useful = errors.filter((e) => e.keyword !== 'if');
  return (useful.length > 0 ? useful : errors).map(
    (e) =>
      `${where}${e.instancePath || ''} ${e.message ?? 'is invalid'}${e.params && 'allowedValues' in e.params ? ` (${JSON.stringify(e.params.allowedValues)})` : ''}`,
  );
}

/** What `watchExchanges` collects: every exchange, and every OpenAPI violation among them. */
export interface WatchedExchanges<E> {
  exchanges: E[];
  violations: string[];
}

interface ExchangeSource<E> {
  onExchange(cb: (exchange: E) => void): unknown;
}

type ValidatableExchange = ExchangeToValidate & { fault?: string };

/**
 * Records a stand-in's exchanges and validates each against the spec. `skipFaulted` leaves out exchanges a fault
 * knob answered (they are answered before the request body is read).
 */
export function watchExchanges<E extends ValidatableExchange>(
  server: ExchangeSource<E>,
  options: { skipFaulted?: boolean } = {},
): WatchedExchanges<E> {
  const validator = createOpenApiValidator();
  const watched: WatchedExchanges<E> = { exchanges: [], violations: [] };
  server.onExchange((e) => {
    watched.exchanges.push(e);
    if (options.skipFaulted && e.fault !== undefined && e.fault !== 'none') return;
    watched.violations.push(
      ...validator.validate({
        method: e.method,
        path: e.path,
        query: e.query,
        requestBody: e.requestBody,
        status: e.status,
        responseBody: e.responseBody,
      }),
    );
  });
  return watched;
}
