/**
 * What the judge server says it is, for the fingerprint recorded with every run and anchor set: the served
 * model's weights (`root` in `/v1/models`, as vLLM gives it) and the vLLM version — vLLM's `GET /version` at the
 * server's root, else an `x-vllm-version` or `server: vllm/…` response header. Missing answers are null, never a
 * failure: an OpenAI-compatible server other than vLLM says none of this.
 */
import { judgePromptVersions, type MetricName } from '../metrics/index.js';
import type { JudgeFingerprint } from './fingerprint.js';

export interface JudgeIdentity {
  model: string;
  /** The weights behind the served name (`/v1/models` `root`); null when the server does not say. */
  modelRoot: string | null;
  vllmVersion: string | null;
}

export interface IdentityOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}

function versionFromHeaders(headers: Headers): string | null {
  const explicit = headers.get('x-vllm-version');
  if (explicit) return explicit.trim();
  const server = /\bvllm\/([\w.+-]+)/i.exec(headers.get('server') ?? '');
  return server ? (server[1] as string) : null;
}

async function getJson(url: string, options: IdentityOptions): Promise<{ body: unknown; headers: Headers } | null> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  try {
    const res = await fetchFn(url, {
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    if (!res.ok) return { body: null, headers: res.headers };
    try {
      return { body: JSON.parse(text) as unknown, headers: res.headers };
    } catch {
      return { body: null, headers: res.headers };
    }
  } catch {
    return null;
  }
}

export async function probeJudgeIdentity(options: IdentityOptions): Promise<JudgeIdentity> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const models = await getJson(`${base}/models`, options);
  const data = (models?.body as { data?: unknown } | null)?.data;
  const entry = Array.isArray(data)
    ? (data as Array<Record<string, unknown>>).find((m) => m && m.id === options.model)
    : undefined;
  const modelRoot = typeof entry?.root === 'string' && entry.root !== '' ? entry.root : null;
  // vLLM serves /version at the root, beside /v1.
  const root = base.replace(/\/v1$/, '');
  const version = await getJson(`${root}/version`, options);
  const fromBody = (version?.body as { version?: unknown } | null)?.version;
  const vllmVersion =
    typeof fromBody === 'string' && fromBody !== ''
      ? fromBody
      : ((version && versionFromHeaders(version.headers)) ?? (models && versionFromHeaders(models.headers)) ?? null);
  return { model: options.model, modelRoot, vllmVersion };
}

/** The fingerprint of scores of `metrics`: the identity and the version of every prompt they use. */
export function judgeFingerprint(identity: JudgeIdentity, metrics: readonly MetricName[]): JudgeFingerprint {
  const model =
    identity.modelRoot && identity.modelRoot !== identity.model
      ? `${identity.model} (${identity.modelRoot})`
      : identity.model;
  return { model, vllmVersion: identity.vllmVersion, promptVersions: judgePromptVersions(metrics) };
}
