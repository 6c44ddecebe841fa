/**
 * The generic answer: a JSON value valid against any (reasonable) schema, filled from lexical heuristics on
 * the prompt, keyed by property names. Lists of statements come from the prompt's statements or the answer's
 * sentences; 0/1 and boolean verdicts say whether a statement's words are covered by the contexts; questions
 * are built from the answer's words; "noncommittal" flags evasive answers; scores are word coverage scaled
 * into the allowed range. See README.md for the full table.
 */
import { coverage, fold, isNoncommittal, keywords, questionFor, splitSentences } from './lexical.js';
import { promptParts, type PromptParts } from './request-text.js';
import type { JudgeRequest } from './types.js';

type Schema = Record<string, unknown>;

interface Hint {
  /** Folded name of the property being filled. */
  name: string;
  /** The statement (or chunk) the current list row is about. */
  row?: string;
  rowIndex: number;
}

export const SUPPORT_THRESHOLD = 0.7;

export function fallbackAnswer(request: JudgeRequest): unknown {
  const parts = promptParts(request);
  const schema = request.schema ?? { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
  return new Generator(schema, parts).value(schema, { name: '', rowIndex: 0 }, 0);
}

/** Free-text answer for requests without a schema: a plain, clearly labelled summary. */
export function fallbackText(request: JudgeRequest): string {
  const parts = promptParts(request);
  const about = keywords(parts.answer ?? parts.question ?? parts.text, 8).join(', ');
  return parts.language === 'es'
    ? `Respuesta del sustituto de juez de ragwatch (reglas léxicas, no un juez de calidad). Palabras clave: ${about}.`
    : `Answer from ragwatch's judge stand-in (lexical rules, not a quality judge). Keywords: ${about}.`;
}

class Generator {
  constructor(
    private readonly root: Schema,
    private readonly parts: PromptParts,
  ) {}

  value(schemaIn: Schema, hint: Hint, depth: number): unknown {
    const schema = this.resolve(schemaIn);
    if (depth > 12) return null;
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return this.pickEnum(schema.enum, hint);
    const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (Array.isArray(options) && options.length > 0) {
      const nonNull = options.find((o) => this.resolve(o).type !== 'null') ?? options[0]!;
      return this.value(nonNull, hint, depth + 1);
    }
    if (Array.isArray(schema.allOf))
      return this.value(mergeAll(schema.allOf.map((s) => this.resolve(s as Schema))), hint, depth + 1);
    const type = pickType(schema);
    switch (type) {
      case 'object':
        return this.object(schema, hint, depth);
      case 'array':
        return this.array(schema, hint, depth);
      case 'string':
        return this.string(schema, hint);
      case 'integer':
      case 'number':
        return this.number(schema, hint, type === 'integer');
      case 'boolean':
        return this.verdict(hint) ?? false;
      case 'null':
        return null;
      default:
        return this.string(schema, hint);
    }
  }

  private object(schema: Schema, hint: Hint, depth: number): Record<string, unknown> {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(props)) {
      out[key] = this.value(sub, { ...hint, name: fold(key) }, depth + 1);
    }
    return out;
  }

  private array(schema: Schema, hint: Hint, depth: number): unknown[] {
    const items = this.resolve((schema.items ?? {}) as Schema);
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
    let rows = this.rowsFor(hint.name);
    if (rows.length < min)
      rows = [
        ...rows,
        ...Array.from({ length: min - rows.length }, (_, i) => rows[i % Math.max(rows.length, 1)] ?? this.parts.text),
      ];
    rows = rows.slice(0, max === Infinity ? rows.length : max);
    // Positional rows (`prefixItems`) take their own schema, e.g. `{chunk: {const: 2}, useful: …}` for row 2.
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
    return rows.map((row, rowIndex) =>
      this.value(prefix[rowIndex] ?? items, { name: hint.name, row, rowIndex }, depth + 1),
    );
  }

  /** What a list is a list of: questions, keywords, or statements (given, or the answer's sentences). */
  private rowsFor(name: string): string[] {
    const p = this.parts;
    if (/question|pregunta/.test(name)) {
      const n = 3;
      return Array.from({ length: n }, (_, i) => questionFor(p.answer ?? p.text, p.language, i));
    }
    if (/entit|keyword|term|palabra/.test(name)) return keywords(p.text, 10);
    if (/context|chunk|passage|document|fragment/.test(name) && p.contexts.length > 0) return p.contexts;
    if (/sentence|oracion|frase/.test(name) && p.contexts.length > 0) {
      // Sentences picked out of the contexts: those sharing words with the question (all when there is none).
      const all = p.contexts.flatMap((c) => splitSentences(c));
      return p.question === undefined
        ? all
        : all.filter((s) => coverage(s, p.question!) > 0 || coverage(p.question!, s) > 0);
    }
    if (p.statements && p.statements.length > 0 && !/reference|referencia/.test(name)) return p.statements;
    const source = /reference|referencia|ground/.test(name)
      ? (p.reference ?? p.answer ?? p.text)
      : (p.answer ?? p.reference ?? p.text);
    return splitSentences(source);
  }

  private string(schema: Schema, hint: Hint): string {
    const format = typeof schema.format === 'string' ? schema.format : undefined;
    if (format) return formatSample(format);
    const p = this.parts;
    let s: string;
    if (/question|pregunta/.test(hint.name))
      s = hint.row && /\?$/.test(hint.row) ? hint.row : questionFor(p.answer ?? p.text, p.language, hint.rowIndex);
    else if (/reason|explan|rational|justif|razon|motivo|analysis/.test(hint.name)) s = this.reason(hint);
    else if (hint.row !== undefined) s = hint.row;
    else if (/answer|respuesta/.test(hint.name)) s = p.answer ?? keywords(p.text, 12).join(' ');
    else if (/lang|idioma/.test(hint.name)) s = p.language;
    else s = keywords(p.text, 6).join(' ') || 'stand-in';
    const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
    if (s.length < minLength) s = s.padEnd(minLength, '.');
    if (s.length > maxLength) s = s.slice(0, maxLength);
    return s;
  }

  private number(schema: Schema, hint: Hint, integer: boolean): number {
    const step = integer ? 1 : 1e-6;
    const lo = num(schema.minimum) ?? plus(num(schema.exclusiveMinimum), step) ?? 0;
    const hi = num(schema.maximum) ?? plus(num(schema.exclusiveMaximum), -step) ?? Math.max(lo, 1);
    const verdict = this.verdict(hint);
    let v: number;
    if (verdict !== undefined) v = verdict ? Math.min(hi, Math.max(lo, 1)) : lo;
    else if (/score|rating|confidence|puntu|valor|probab/.test(hint.name))
      v = lo + (hi - lo) * this.evidenceCoverage(hint.row ?? this.parts.answer ?? this.parts.text);
    else v = lo;
    if (integer) v = Math.round(v);
    return Math.min(hi, Math.max(lo, v));
  }

  /** A yes/no decision for verdict-like names, or undefined when the name is not a verdict. */
  private verdict(hint: Hint): boolean | undefined {
    const n = hint.name;
    const p = this.parts;
    if (/noncommittal|evasiv|evasive|vague/.test(n)) return isNoncommittal(p.answer ?? p.text);
    if (/useful|relevan|util|pertinen/.test(n) && hint.row !== undefined) {
      const target = p.reference ?? p.answer ?? p.question ?? '';
      return coverage(hint.row, target) >= 0.3 || coverage(target, hint.row) >= 0.3;
    }
    if (/verdict|support|attribut|faithful|grounded|correct|entail|valid|respald|atribu|fiel|veredicto/.test(n)) {
      return this.evidenceCoverage(hint.row ?? p.answer ?? p.text) >= SUPPORT_THRESHOLD;
    }
    return undefined;
  }

  /** Coverage of a statement's words by the prompt's evidence (contexts, else everything but the answer). */
  private evidenceCoverage(statement: string): number {
    const p = this.parts;
    const evidence = p.contexts.length > 0 ? p.contexts.join('\n') : [p.reference ?? '', p.question ?? ''].join('\n');
    return coverage(statement, evidence);
  }

  private reason(hint: Hint): string {
    const es = this.parts.language === 'es';
    if (hint.row === undefined)
      return es ? 'Decisión del sustituto léxico de ragwatch.' : "Decision of ragwatch's lexical stand-in.";
    const pct = Math.round(this.evidenceCoverage(hint.row) * 100);
    return es
      ? `El ${pct} % de las palabras de contenido aparece en el contexto (umbral ${SUPPORT_THRESHOLD * 100} %).`
      : `${pct}% of the content words appear in the context (threshold ${SUPPORT_THRESHOLD * 100}%).`;
  }

  private pickEnum(values: unknown[], hint: Hint): unknown {
    const verdict = this.verdict(hint);
    if (verdict !== undefined) {
      const yes = values.find((v) => /^(yes|true|1|si|sí|supported|attributed|useful|relevant)$/i.test(String(v)));
      const no = values.find((v) =>
        /^(no|false|0|unsupported|not_supported|not_attributed|useless|irrelevant)$/i.test(String(v)),
      );
      if (verdict && yes !== undefined) return yes;
      if (!verdict && no !== undefined) return no;
    }
    return values[0];
  }

  private resolve(schema: Schema): Schema {
    return resolveSchema(this.root, schema);
  }
}

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`), keeping the referring schema's other keywords. */
export function resolveSchema(root: Schema, schema: Schema, seen = 0): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || seen > 20) return schema;
  if (!ref.startsWith('#')) return {};
  let target: unknown = root;
  for (const piece of ref
    .slice(1)
    .split('/')
    .filter((x) => x !== '')) {
    target = (target as Record<string, unknown> | undefined)?.[
      decodeURIComponent(piece.replace(/~1/g, '/').replace(/~0/g, '~'))
    ];
  }
  const { $ref: _ignored, ...siblings } = schema;
  return resolveSchema(root, { ...((target as Schema | undefined) ?? {}), ...siblings }, seen + 1);
}

export function pickType(schema: Schema): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') as string | undefined) ?? 'null';
  if (typeof t === 'string') return t;
  if (schema.properties) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  return undefined;
}

export function mergeAll(schemas: Schema[]): Schema {
  const merged: Schema = { type: 'object', properties: {}, required: [] };
  for (const s of schemas) {
    if (s.type && s.type !== 'object') return s;
    Object.assign(merged.properties as object, s.properties ?? {});
    (merged.required as unknown[]).push(...((s.required as unknown[]) ?? []));
  }
  return merged;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function plus(value: number | undefined, delta: number): number | undefined {
  return value === undefined ? undefined : value + delta;
}

export function formatSample(format: string): string {
  switch (format) {
    case 'date-time':
      return '2024-01-01T00:00:00Z';
    case 'date':
      return '2024-01-01';
    case 'time':
      return '00:00:00Z';
    case 'email':
      return 'standin@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    default:
      return 'stand-in';
  }
}
