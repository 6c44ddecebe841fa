/**
 * What identifies the judge a score came from: the served model, the vLLM version (from `/v1/models` or
 * response headers where the server says), and the version of each prompt. Recorded with every run and every
 * anchor set, so a drift finding can say what changed beside the scores.
 */
export interface JudgeFingerprint {
  model: string;
  /** Null when the server does not say. */
  vllmVersion: string | null;
  /** Prompt version per prompt (`faithfulness/es` → hash), as the run metadata records them. */
  promptVersions: Readonly<Record<string, string>>;
}

/** One line per difference between two fingerprints, e.g. `model: llama-3.1-70b → qwen2.5-72b`; empty when equal. */
export function fingerprintChanges(before: JudgeFingerprint, after: JudgeFingerprint): string[] {
  const changes: string[] = [];
  if (before.model !== after.model) changes.push(`model: ${before.model} → ${after.model}`);
  if (before.vllmVersion !== after.vllmVersion) {
    changes.push(`vLLM version: ${before.vllmVersion ?? 'unknown'} → ${after.vllmVersion ?? 'unknown'}`);
  }
  const prompts = [...new Set([...Object.keys(before.promptVersions), ...Object.keys(after.promptVersions)])].sort();
  for (const prompt of prompts) {
    const a = before.promptVersions[prompt];
    const b = after.promptVersions[prompt];
    if (a !== b) changes.push(`prompt ${prompt}: ${a ?? 'none'} → ${b ?? 'none'}`);
  }
  return changes;
}
