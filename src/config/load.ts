import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { withoutUrlCredentials } from './checks.js';
import { SECRET_KEY_PATTERN } from './mask.js';
import type { MetricCatalog } from './metric-catalog.js';
import { configSchemaFor, type RagwatchConfig } from './schema.js';

export const DEFAULT_CONFIG_FILE = 'ragwatch.yaml';

type EnvBinding = { path: string[]; kind: 'string' | 'int' };

/** Environment variables a deployment sets, and the key each one overrides. First name wins. */
export const ENV_BINDINGS: ReadonlyArray<[names: string[], binding: EnvBinding]> = [
  [['LANGFUSE_BASE_URL', 'LANGFUSE_HOST'], { path: ['langfuse', 'baseUrl'], kind: 'string' }],
  [['LANGFUSE_PUBLIC_KEY'], { path: ['langfuse', 'publicKey'], kind: 'string' }],
  [['LANGFUSE_SECRET_KEY'], { path: ['langfuse', 'secretKey'], kind: 'string' }],
  [['RAGWATCH_JUDGE_BASE_URL'], { path: ['judge', 'baseUrl'], kind: 'string' }],
  [['RAGWATCH_JUDGE_MODEL'], { path: ['judge', 'model'], kind: 'string' }],
  [['RAGWATCH_JUDGE_API_KEY'], { path: ['judge', 'apiKey'], kind: 'string' }],
  [['RAGWATCH_EMBEDDINGS_BASE_URL'], { path: ['embeddings', 'baseUrl'], kind: 'string' }],
  [['RAGWATCH_EMBEDDINGS_MODEL'], { path: ['embeddings', 'model'], kind: 'string' }],
  [['RAGWATCH_EMBEDDINGS_API_KEY'], { path: ['embeddings', 'apiKey'], kind: 'string' }],
  [['RAGWATCH_GENERATOR_API_KEY'], { path: ['golden', 'generator', 'apiKey'], kind: 'string' }],
  [['RAGWATCH_STATE_PATH'], { path: ['state', 'path'], kind: 'string' }],
  [['RAGWATCH_STATE_URL'], { path: ['state', 'url'], kind: 'string' }],
  [['RAGWATCH_LOG_LEVEL'], { path: ['log', 'level'], kind: 'string' }],
  [['RAGWATCH_HTTP_PORT'], { path: ['http', 'port'], kind: 'int' }],
  [['RAGWATCH_REPORTS_TOKEN'], { path: ['http', 'reportsToken'], kind: 'string' }],
  [['RAGWATCH_REPORTS_SIGNING_SECRET'], { path: ['http', 'reportsSigningSecret'], kind: 'string' }],
];

export type LoadedConfig =
  { ok: true; config: RagwatchConfig; file: string | null; envKeys: string[] } | { ok: false; problems: string[] };

export interface LoadOptions {
  /** The metrics the configuration may name: the registry's (`allMetrics()`), handed in by the caller. */
  metrics: MetricCatalog;
  /** Explicit `--config` path; when absent `RAGWATCH_CONFIG`, then `./ragwatch.yaml` if present. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function loadConfig(options: LoadOptions): LoadedConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const problems: string[] = [];

  const explicit = options.file ?? env.RAGWATCH_CONFIG;
  let file: string | null = null;
  let raw: unknown = {};
  if (explicit) {
    file = resolve(cwd, explicit);
    if (!existsSync(file)) return { ok: false, problems: [`config: file not found: ${file}`] };
  } else if (existsSync(resolve(cwd, DEFAULT_CONFIG_FILE))) {
    file = resolve(cwd, DEFAULT_CONFIG_FILE);
  }
  if (file) {
    // Nothing printed by the yaml library: its warnings (an unknown tag) quote the line, a secret included.
    const lines = new LineCounter();
    let doc;
    try {
      doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter: lines, logLevel: 'silent' });
    } catch (err) {
      return { ok: false, problems: [`config: ${file}: invalid YAML: ${firstLine(err)}`] };
    }
    const error = doc.errors[0];
    if (error) {
      const where = ` (line ${lines.linePos(error.pos[0]).line})`;
      return { ok: false, problems: [`config: ${file}: invalid YAML${where}: ${firstLine(error)}`] };
    }
    if (doc.warnings.length > 0) {
      return {
        ok: false,
        problems: doc.warnings.map((w) => {
          const what =
            w.code === 'TAG_RESOLVE_FAILED' ? 'an unknown YAML tag (ragwatch reads no tags)' : `YAML ${w.code}`;
          return `config: ${file}: line ${lines.linePos(w.pos[0]).line}: ${what}`;
        }),
      };
    }
    try {
      raw = doc.toJS() ?? {};
    } catch (err) {
      return { ok: false, problems: [`config: ${file}: invalid YAML: ${firstLine(err)}`] };
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      return { ok: false, problems: [`config: ${file}: must be a mapping of sections (langfuse, judge, ...)`] };
    }
  }

  const { merged, envKeys } = applyEnv(raw as Record<string, unknown>, env, problems);
  problems.push(...stateBackendProblems(merged, envKeys));
  const parsed = configSchemaFor(options.metrics).safeParse(merged, { reportInput: true });
  if (!parsed.success) problems.push(...formatIssues(parsed.error.issues, envKeys));
  if (problems.length > 0) return { ok: false, problems };
  if (!parsed.success) throw new Error('unreachable');
  return { ok: true, config: parsed.data, file, envKeys: [...envKeys.keys()] };
}

/** Parses a config object (no file, no environment) naming metrics of `metrics`: for tests and embedding. */
export function parseConfig(raw: unknown, metrics: MetricCatalog): RagwatchConfig {
  const parsed = configSchemaFor(metrics).safeParse(raw ?? {}, { reportInput: true });
  if (!parsed.success) throw new Error(formatIssues(parsed.error.issues, new Map()).join('\n'));
  return parsed.data;
}

function applyEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv, problems: string[]) {
  const merged: Record<string, unknown> = structuredClone(raw);
  /** key path → env var that set it, so errors can say where a bad value came from. */
  const envKeys = new Map<string, string>();
  for (const [names, binding] of ENV_BINDINGS) {
    const name = names.find((n) => env[n] !== undefined && env[n] !== '');
    if (!name) continue;
    const text = env[name] as string;
    const keyPath = binding.path.join('.');
    let value: unknown = text;
    if (binding.kind === 'int') {
      // Any whole number goes on to the schema, which names the range; only non-numbers stop here.
      if (!/^[+-]?\d+$/.test(text.trim())) {
        problems.push(`config: ${keyPath}: must be an integer (got ${JSON.stringify(text)} from ${name})`);
        continue;
      }
      value = Number(text.trim());
    }
    setPath(merged, binding.path, value, problems, keyPath);
    envKeys.set(keyPath, name);
  }
  return { merged, envKeys };
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown, problems: string[], keyPath: string) {
  let node: Record<string, unknown> = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === undefined || next === null) node[key] = {};
    else if (typeof next !== 'object' || Array.isArray(next)) {
      problems.push(`config: ${keyPath}: parent ${key} must be a mapping`);
      return;
    }
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
}

/** One line per key (its first problem: 1e20 is "out of range", not also "not an integer"), naming the key. */
export function formatIssues(issues: z.core.$ZodIssue[], envKeys: Map<string, string>): string[] {
  const lines: string[] = [];
  const reported = new Set<string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) lines.push(`config: ${[...issue.path, key].join('.')}: unknown key`);
      continue;
    }
    const keyPath = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    if (reported.has(keyPath)) continue;
    reported.add(keyPath);
    const input = (issue as { input?: unknown }).input;
    const from = envKeys.get(keyPath);
    const shown = input === undefined || isSecretPath(issue.path) ? '' : `got ${describe(input)}`;
    const got = shown || from ? ` (${[shown, from ? `from ${from}` : ''].filter(Boolean).join(' ')})` : '';
    let message = issue.message;
    if (issue.code === 'invalid_value' && 'values' in issue)
      message = `must be one of ${issue.values.map(String).join(', ')}`;
    if (issue.code === 'invalid_type' && input === undefined) message = `is required`;
    lines.push(`config: ${keyPath}: ${message}${got}`);
  }
  return lines;
}

/** `state.path` (SQLite) and `state.url` (PostgreSQL) name two different stores: one of them, not both. */
function stateBackendProblems(merged: Record<string, unknown>, envKeys: Map<string, string>): string[] {
  const state = merged.state as Record<string, unknown> | undefined;
  if (!state || typeof state !== 'object' || state.path === undefined || state.url === undefined) return [];
  const from = (key: string) => (envKeys.has(key) ? ` (from ${envKeys.get(key)})` : '');
  // Images and units set RAGWATCH_STATE_PATH for SQLite; an empty value unsets it.
  const unset = envKeys.has('state.path') ? ` (RAGWATCH_STATE_PATH='' unsets it)` : '';
  return [
    `config: state.path${from('state.path')}, state.url${from('state.url')}: set one of them, not both: ` +
      `state.path keeps the state in an SQLite file, state.url in PostgreSQL${unset}`,
  ];
}

/** Values never quoted in a problem line: secrets and every header sent to the RAG service. */
function isSecretPath(path: readonly PropertyKey[]): boolean {
  const key = String(path.at(-1) ?? '');
  return SECRET_KEY_PATTERN.test(key) || path.slice(0, -1).map(String).join('.') === 'experiment.target.headers';
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(withoutUrlCredentials(value));
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return 'a list';
  return 'a mapping';
}

function firstLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err).split('\n')[0] ?? '';
}
