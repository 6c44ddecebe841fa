/** Whether the judge answers at all, and whether it refuses our key: its OpenAI-compatible `/models`. */
import type { RagwatchConfig } from '../config/index.js';

type JudgeSettings = Pick<RagwatchConfig, 'judge'>;

async function modelsStatus(config: JudgeSettings, fetchImpl: typeof globalThis.fetch, signal: AbortSignal) {
  const url = `${config.judge.baseUrl.replace(/\/+$/, '')}/models`;
  const res = await fetchImpl(url, { headers: { authorization: `Bearer ${config.judge.apiKey}` }, signal });
  await res.body?.cancel();
  return res.status;
}

/**
 * The judge is up when its OpenAI-compatible `/models` answers with anything but a 5xx, a 429 or a refusal of
 * our key (401/403: up for others, down for us).
 */
export function judgeProbe(
  config: JudgeSettings,
  fetchImpl: typeof globalThis.fetch,
): (signal: AbortSignal) => Promise<boolean> {
  return async (signal) => {
    try {
      const status = await modelsStatus(config, fetchImpl, AbortSignal.any([signal, AbortSignal.timeout(10_000)]));
      return status < 500 && status !== 429 && status !== 401 && status !== 403;
    } catch {
      return false;
    }
  };
}

/** The status of the judge's `/models` when it refuses our key (401/403), else null (accepted, or unreachable). */
export async function judgeCredentialsRefused(
  config: JudgeSettings,
  fetchImpl: typeof globalThis.fetch,
  signal?: AbortSignal,
): Promise<number | null> {
  try {
    const timeout = AbortSignal.timeout(10_000);
    const status = await modelsStatus(config, fetchImpl, signal ? AbortSignal.any([signal, timeout]) : timeout);
    return status === 401 || status === 403 ? status : null;
  } catch {
    return null;
  }
}
