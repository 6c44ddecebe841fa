/**
 * Seeded random instances of a JSON Schema, drawn from the whole space the schema allows rather than from what
 * a sensible model would say: arrays at their minimum (empty where allowed), their maximum or long, with
 * repeated items; numbers at their bounds or at the far end of an unbounded side; strings empty, blank, at
 * their length limits, long, or full of odd Unicode and markup. What a judge under vLLM's structured output
 * can send, and so what ragwatch must turn into a score or an explicit result. Each draw names the edge
 * classes it hit, so tests can check that every class occurred.
 */
import { formatSample, mergeAll, pickType, resolveSchema } from '../schema-fallback.js';
import { BLANKS, MARKUP, ODD_UNICODE, WORDS } from './strings.js';

type Schema = Record<string, unknown>;

export const FUZZ_EDGES = [
  'empty_array',
  'min_items',
  'max_items',
  'long_array',
  'duplicate_items',
  'number_min',
  'number_max',
  'number_extreme',
  'empty_string',
  'blank_string',
  'min_length',
  'max_length',
  'long_string',
  'odd_unicode',
  'markup_string',
  'optional_omitted',
] as const;
export type FuzzEdge = (typeof FUZZ_EDGES)[number];

/** Rows added past `minItems` when an array has no `maxItems`, for the "long" draw. */
const LONG_ARRAY = 40;
/** Code points of a "long" string when the schema sets no `maxLength`. */
const LONG_STRING = 1200;
const MAX_DEPTH = 12;

export interface FuzzDraw {
  value: unknown;
  edges: FuzzEdge[];
}

export class SchemaFuzzer {
  private edges = new Set<FuzzEdge>();
  private root: Schema = {};

  constructor(private readonly random: () => number) {}

  draw(schema: Schema): FuzzDraw {
    this.edges = new Set();
    this.root = schema;
    const value = this.value(schema, 0);
    return { value, edges: [...this.edges] };
  }

  private value(schemaIn: Schema, depth: number): unknown {
    const schema = resolveSchema(this.root, schemaIn);
    if (depth > MAX_DEPTH) return null;
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return this.pick(schema.enum);
    const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (Array.isArray(options) && options.length > 0) return this.value(this.pick(options), depth + 1);
    if (Array.isArray(schema.allOf))
      return this.value(mergeAll(schema.allOf.map((s) => resolveSchema(this.root, s as Schema))), depth + 1);
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [pickType(schema) ?? 'string'];
    switch (this.pick(types)) {
      case 'object':
        return this.object(schema, depth);
      case 'array':
        return this.array(schema, depth);
      case 'integer':
        return this.number(schema, true);
      case 'number':
        return this.number(schema, false);
      case 'boolean':
        return this.random() < 0.5;
      case 'null':
        return null;
      default:
        return this.string(schema);
    }
  }

  private object(schema: Schema, depth: number): Record<string, unknown> {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(props)) {
      if (!required.has(key) && this.random() < 0.5) {
        this.edges.add('optional_omitted');
        continue;
      }
      out[key] = this.value(sub, depth + 1);
    }
    return out;
  }

  private array(schema: Schema, depth: number): unknown[] {
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
    const rest: Schema | false = schema.items === false ? false : ((schema.items ?? {}) as Schema);
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    let max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
    if (rest === false) max = Math.min(max, prefix.length);
    const length = this.arrayLength(min, max);
    const out: unknown[] = [];
    for (let i = 0; i < length; i++) {
      const itemSchema = prefix[i] ?? (rest === false ? {} : rest);
      // Past the positional part, sometimes repeat an earlier row instead of drawing a new one.
      const canRepeat = i >= prefix.length && out.length > prefix.length && schema.uniqueItems !== true;
      if (canRepeat && this.random() < 0.3) {
        out.push(structuredClone(out[prefix.length + Math.floor(this.random() * (out.length - prefix.length))]));
        this.edges.add('duplicate_items');
      } else out.push(this.value(itemSchema, depth + 1));
    }
    return out;
  }

  private arrayLength(min: number, max: number): number {
    const r = this.random();
    if (r < 0.25) {
      this.edges.add(min === 0 ? 'empty_array' : 'min_items');
      return min;
    }
    if (r < 0.45) {
      if (Number.isFinite(max)) {
        this.edges.add('max_items');
        return max;
      }
      this.edges.add('long_array');
      return min + LONG_ARRAY;
    }
    const hi = Math.min(max, min + 8);
    return min + Math.floor(this.random() * (hi - min + 1));
  }

  private number(schema: Schema, integer: boolean): number {
    const step = integer ? 1 : Number.EPSILON;
    const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
    const exMin = num(schema.exclusiveMinimum);
    const exMax = num(schema.exclusiveMaximum);
    const lo = num(schema.minimum) ?? (exMin !== undefined ? exMin + step : undefined);
    const hi = num(schema.maximum) ?? (exMax !== undefined ? exMax - step : undefined);
    const far = integer ? Number.MAX_SAFE_INTEGER : 1e308;
    const r = this.random();
    let v: number;
    if (r < 0.25) {
      v = lo ?? -far;
      this.edges.add(lo === undefined ? 'number_extreme' : 'number_min');
    } else if (r < 0.5) {
      v = hi ?? far;
      this.edges.add(hi === undefined ? 'number_extreme' : 'number_max');
    } else {
      const a = lo ?? Math.min(-1000, hi ?? 0);
      const b = hi ?? Math.max(1000, lo ?? 0);
      v = a + (b - a) * this.random();
    }
    if (integer) v = lo !== undefined && v < lo + 0.5 ? Math.ceil(v) : Math.floor(v);
    return v;
  }

  private string(schema: Schema): string {
    if (typeof schema.format === 'string') return formatSample(schema.format);
    const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
    const r = this.random();
    let points: string[];
    if (r < 0.1 && minLength === 0) {
      this.edges.add('empty_string');
      return '';
    } else if (r < 0.2) {
      points = this.pieces(BLANKS, 1 + Math.floor(this.random() * 4));
      this.edges.add('blank_string');
    } else if (r < 0.35) {
      points = this.pieces(ODD_UNICODE, 1 + Math.floor(this.random() * 6), ' ');
      this.edges.add('odd_unicode');
    } else if (r < 0.5) {
      points = this.pieces(MARKUP, 1 + Math.floor(this.random() * 3), ' ');
      this.edges.add('markup_string');
    } else if (r < 0.6) {
      const target = Number.isFinite(maxLength) ? maxLength : LONG_STRING;
      points = this.pieces([...WORDS, ...ODD_UNICODE], target, ' ').slice(0, target);
      this.edges.add(Number.isFinite(maxLength) ? 'max_length' : 'long_string');
    } else if (r < 0.65 && minLength > 0) {
      points = this.pieces(WORDS, minLength).slice(0, minLength);
      this.edges.add('min_length');
    } else points = this.pieces(WORDS, 1 + Math.floor(this.random() * 12), ' ');
    while (points.length < minLength) points.push('x');
    return points.slice(0, Math.min(points.length, maxLength)).join('');
  }

  /** The code points of `count` whole pieces of the pool, `separator` between them. */
  private pieces(pool: readonly string[], count: number, separator = ''): string[] {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      if (separator && i > 0) out.push(separator);
      for (const ch of this.pick(pool)) out.push(ch);
    }
    return out;
  }

  private pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.random() * values.length)] as T;
  }
}
