import { InputError } from '../../errors.js';
import { LangfuseApiError, type LangfuseHttp } from '../core/http.js';
import { scoreConfigPageFrom } from '../core/shapes.js';

export type ScoreConfigDataType = 'NUMERIC' | 'CATEGORICAL' | 'BOOLEAN' | 'TEXT';

export interface ScoreConfigDef {
  /** At most 35 characters: letters, digits, `_`, ` `, `.`, `(`, `)`, `-`. */
  name: string;
  description: string;
  /** Default NUMERIC. */
  dataType?: ScoreConfigDataType;
  /** NUMERIC range. */
  min?: number;
  max?: number;
  /** CATEGORICAL: the labels people choose from, each with its number. */
  categories?: ReadonlyArray<{ value: number; label: string }>;
  /** The configuration key that gives this score another name (`metrics.scorePrefix`), named when a config clashes. */
  renameKey?: string;
}

export interface ScoreConfig {
  id: string;
  name: string;
  dataType: string;
  isArchived: boolean;
  minValue: number | null;
  maxValue: number | null;
  categories: Array<{ value: number; label: string }> | null;
  description: string | null;
}

const NAME_RE = /^[A-Za-z0-9_ .()-]{1,35}$/;

export function validateScoreConfigName(name: string): string | null {
  if (name.length === 0 || name.length > 35)
    return `score config name "${name}" must be 1 to 35 characters long (it has ${name.length})`;
  if (!NAME_RE.test(name))
    return `score config name "${name}" may only contain letters, numbers, underscores, spaces, periods, parentheses and hyphens`;
  return null;
}

/** Every score config of the project, all pages. */
export async function listScoreConfigs(http: LangfuseHttp, signal?: AbortSignal): Promise<ScoreConfig[]> {
  const out: ScoreConfig[] = [];
  const limit = 100;
  for (let page = 1; ; page++) {
    const route = 'GET /api/public/score-configs';
    const res = await http.request({
      method: 'GET',
      path: '/api/public/score-configs',
      route,
      query: { page, limit },
      signal,
    });
    const { data: rows, meta } = scoreConfigPageFrom(res.data, route, res.status);
    for (const row of rows) {
      const c = toConfig(row);
      if (c) out.push(c);
    }
    if (rows.length < limit || page >= meta.totalPages) return out;
  }
}

/**
 * A config of one of ragwatch's names already exists in Langfuse and differs from ragwatch's (data type, NUMERIC
 * range, categories): Langfuse validates each score against its config after answering 207 and drops what does
 * not fit, so nothing is written. Configuration, not an outage (exit 2).
 */
export class ScoreConfigMismatchError extends InputError {
  constructor(
    readonly configName: string,
    readonly difference: string,
    renameKey: string | undefined,
  ) {
    const wayOut = renameKey
      ? `set ${renameKey} to write ragwatch's scores under names of their own, or archive that config in Langfuse`
      : 'archive that config in Langfuse';
    super([
      `${renameKey ? `${renameKey}: ` : ''}score config "${configName}" in Langfuse ${difference}, ` +
        `so Langfuse would drop ragwatch's scores after accepting them; ${wayOut}`,
    ]);
  }
}

/**
 * What keeps an existing config from taking ragwatch's scores, or null when it takes them: another data type, a
 * NUMERIC bound other than ragwatch's (an unset bound drops nothing), CATEGORICAL categories missing.
 */
export function scoreConfigDifference(def: ScoreConfigDef, found: ScoreConfig): string | null {
  const dataType = def.dataType ?? 'NUMERIC';
  if (found.dataType !== dataType) return `is ${found.dataType} where ragwatch writes ${dataType}`;
  if (dataType === 'NUMERIC') {
    const differs = (have: number | null, want: number | undefined) =>
      have !== null && want !== undefined && have !== want;
    if (differs(found.minValue, def.min) || differs(found.maxValue, def.max)) {
      return `has the range ${rangeText(found.minValue, found.maxValue)} where ragwatch writes ${rangeText(def.min ?? null, def.max ?? null)}`;
    }
  }
  const missing = (def.categories ?? []).filter(
    (want) => !found.categories?.some((c) => c.label === want.label && c.value === want.value),
  );
  if (missing.length > 0) return `lacks the categories ${missing.map((c) => `${c.label} (${c.value})`).join(', ')}`;
  return null;
}

function rangeText(min: number | null, max: number | null): string {
  return `${min ?? '-∞'} to ${max ?? '∞'}`;
}

/**
 * Makes sure a config exists for every definition and returns name → config id, checking each existing,
 * non-archived config of the same name whole before anything is written: one that would drop ragwatch's scores
 * (`scoreConfigDifference`) throws `ScoreConfigMismatchError`; one that takes them is reused; missing ones are
 * created.
 */
export async function ensureScoreConfigs(
  http: LangfuseHttp,
  defs: ScoreConfigDef[],
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  for (const def of defs) {
    const problem = validateScoreConfigName(def.name);
    if (problem) throw new LangfuseApiError(problem, 'POST /api/public/score-configs', 'http', undefined, false, 0);
  }
  const existing = await listScoreConfigs(http, signal);
  const ids = new Map<string, string>();
  for (const def of defs) {
    if (ids.has(def.name)) continue;
    const sameName = existing.filter((c) => c.name === def.name && !c.isArchived);
    const fits = sameName.find((c) => scoreConfigDifference(def, c) === null);
    if (fits) {
      ids.set(def.name, fits.id);
      continue;
    }
    const clash = sameName[0];
    if (clash) throw new ScoreConfigMismatchError(def.name, scoreConfigDifference(def, clash)!, def.renameKey);
  }
  for (const def of defs) {
    if (ids.has(def.name)) continue;
    const dataType = def.dataType ?? 'NUMERIC';
    const body: Record<string, unknown> = { name: def.name, dataType, description: def.description };
    if (dataType === 'NUMERIC') Object.assign(body, { minValue: def.min, maxValue: def.max });
    if (dataType === 'CATEGORICAL') body.categories = def.categories ?? [];
    const res = await http.request<unknown>({
      method: 'POST',
      path: '/api/public/score-configs',
      route: 'POST /api/public/score-configs',
      body,
      signal,
    });
    const created = toConfig(res.data);
    if (!created)
      throw new LangfuseApiError(
        `creating score config "${def.name}" returned no id`,
        'POST /api/public/score-configs',
        'invalid_json',
        res.status,
        true,
        1,
      );
    ids.set(def.name, created.id);
  }
  return ids;
}

function toConfig(raw: unknown): ScoreConfig | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || typeof r.name !== 'string') return null;
  return {
    id: r.id,
    name: r.name,
    dataType: typeof r.dataType === 'string' ? r.dataType : 'NUMERIC',
    isArchived: r.isArchived === true,
    minValue: typeof r.minValue === 'number' ? r.minValue : null,
    maxValue: typeof r.maxValue === 'number' ? r.maxValue : null,
    categories: Array.isArray(r.categories)
      ? r.categories.flatMap((c) => {
          const cat = c as { value?: unknown; label?: unknown };
          return typeof cat.value === 'number' && typeof cat.label === 'string'
            ? [{ value: cat.value, label: cat.label }]
            : [];
        })
      : null,
    description: typeof r.description === 'string' ? r.description : null,
  };
}
