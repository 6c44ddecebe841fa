/**
 * The weekly experiment's first stage, before any item is run: who the judge is (model, vLLM version, prompt
 * versions: recorded with the run), whether it changed (the anchor set re-scored and compared with its stored
 * scores), and how well it agrees with people (the calibration section). A drift that cannot be measured — no
 * anchor set configured, an unreadable file, too few anchors scored — is said in the report, never guessed and
 * never a failed run.
 */
import type { RagwatchConfig } from '../config/index.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/index.js';
import type { MetricName } from '../metrics/index.js';
import type { Logger } from '../runtime/index.js';
import { AnchorFileError, readAnchorFile, storedAnchorSet } from './anchor-file.js';
import { scoreAnchors } from './anchors.js';
import { judgeDrift, type DriftReport } from './drift.js';
import type { JudgeFingerprint } from './fingerprint.js';
import { judgeFingerprint, probeJudgeIdentity, type JudgeIdentity } from './judge-identity.js';

export interface JudgeCheck {
  identity: JudgeIdentity;
  fingerprint: JudgeFingerprint;
  drift: DriftReport | null;
  /** Why drift was not measured (null when it was). */
  driftNote: string | null;
  anchorSet: { path: string; version: string; anchors: number; failed: Record<string, number> } | null;
}

export interface JudgeCheckDeps {
  config: Pick<RagwatchConfig, 'calibrate' | 'judge' | 'metrics'>;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  logger: Logger;
  fetch?: typeof globalThis.fetch;
  /** Resolves `calibrate.anchors.path`. */
  resolvePath: (path: string) => string;
  signal?: AbortSignal;
}

export async function checkJudge(deps: JudgeCheckDeps): Promise<JudgeCheck> {
  const { config } = deps;
  const identity = await probeJudgeIdentity({
    baseUrl: config.judge.baseUrl,
    model: config.judge.model,
    apiKey: config.judge.apiKey,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  const metrics = config.calibrate.metrics as MetricName[];
  const fingerprint = judgeFingerprint(identity, metrics);
  const base = { identity, fingerprint };
  const configured = config.calibrate.anchors.path;
  if (!configured) {
    const driftNote = 'no anchor set (calibrate.anchors.path): judge drift is not measured';
    return { ...base, drift: null, driftNote, anchorSet: null };
  }
  const path = deps.resolvePath(configured);
  let file;
  try {
    file = await readAnchorFile(path);
  } catch (err) {
    if (!(err instanceof AnchorFileError)) throw err;
    deps.logger.warn({ error: err.message }, 'judge drift not measured');
    return { ...base, drift: null, driftNote: err.message, anchorSet: null };
  }
  const wanted = file.metrics.filter((m) => (config.calibrate.metrics as string[]).includes(m)) as MetricName[];
  const rescored = await scoreAnchors(file.anchors, wanted, {
    judge: deps.judge,
    embeddings: deps.embeddings,
    options: config.metrics,
    concurrency: Math.max(1, Math.ceil(config.judge.concurrency / 2)),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const stored = storedAnchorSet(file);
  const drift = judgeDrift(
    { ...stored, scores: stored.scores.filter((s) => (wanted as string[]).includes(s.metric)) },
    { anchorSetVersion: file.version, scores: rescored.scores, judge: fingerprint },
    {
      tolerance: config.calibrate.anchors.tolerance,
      minAnchors: config.calibrate.anchors.minAnchors,
      bootstrap: { resamples: config.calibrate.bootstrapSamples, seed: config.calibrate.seed },
    },
  );
  const level = drift.judgeChanged ? 'warn' : 'info';
  deps.logger[level]({ anchorSet: file.version, judgeChanged: drift.judgeChanged }, 'judge drift on the anchor set');
  const anchorSet = { path, version: file.version, anchors: file.anchors.length, failed: rescored.failed };
  return { ...base, drift, driftNote: null, anchorSet };
}

/** The line the gate verdict and the report open with when the judge changed; null when it did not. */
export function judgeChangedWarning(check: Pick<JudgeCheck, 'drift'> | null | undefined): string | null {
  const drift = check?.drift;
  if (!drift?.judgeChanged) return null;
  const changed = drift.metrics.filter((m) => m.status === 'changed').map((m) => m.metric);
  const cause = drift.fingerprintChanges.length > 0 ? ` (${drift.fingerprintChanges.join('; ')})` : '';
  return (
    `its scores on the anchor set ${drift.anchorSetVersion} moved beyond the tolerance ` +
    `${drift.tolerance} for ${changed.join(', ')}${cause}; read no regression of this run before the cause is known`
  );
}
