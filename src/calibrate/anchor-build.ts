/**
 * Building the anchor set (`ragwatch calibrate anchors build`): samples supplied by the team (the JSONL of
 * `ragwatch evaluate`), or built from the golden set — each question asked once of the RAG service
 * (`experiment.target`), its answer and contexts frozen in the file — anonymized once, scored by the current
 * judge, and stored with the judge's fingerprint. Later weeks re-score exactly these inputs.
 */
import type { RagwatchConfig } from '../config/index.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/index.js';
import type { MetricName } from '../metrics/index.js';
import type { SampleAnonymizer } from '../anonymize/index.js';
import { samplingPoint } from '../random.js';
import type { RagSample } from '../sample.js';
import { anchorSetVersion, ANCHOR_FILE_KIND, type AnchorFile, type AnchorSample } from './anchor-file.js';
import { anonymizedAnchors, scoreAnchors } from './anchors.js';
import { judgeFingerprint, type JudgeIdentity } from './judge-identity.js';

type Sample = Omit<AnchorSample, 'scores'>;

export function samplesFromInput(samples: readonly RagSample[]): Sample[] {
  return samples.map((s) => ({
    id: s.traceId,
    question: s.question,
    answer: s.answer,
    contexts: s.contexts,
    language: s.language ?? null,
  }));
}

/** A golden item as the anchor build reads it (the experiment's `GoldenItem` is one). */
export interface AnchorSourceItem {
  id: string;
  question: string;
  adversarial: boolean;
}

/** The RAG service the anchors' answers come from (the experiment's `Target` is one). */
export interface AnchorTarget {
  ask(
    request: { itemId: string; question: string; distractors: string[]; runName: string },
    signal?: AbortSignal,
  ): Promise<{ answer: string; contexts: string[] }>;
}

/** The experiment's reader and target, handed in by `calibrate anchors build` (the two jobs do not import each other). */
export interface GoldenAnchorDeps {
  /** The golden dataset's items in the split (the experiment's reader, experiment/items.ts). */
  loadItems(
    dataset: string,
    split: 'dev' | 'test' | 'all',
    signal?: AbortSignal,
  ): Promise<{ items: readonly AnchorSourceItem[] }>;
  config: Pick<RagwatchConfig, 'calibrate'>;
  target: AnchorTarget;
  signal?: AbortSignal;
}

/** Up to `limit` non-adversarial items of the dataset (a seeded, stable choice), answered once by the RAG. */
export async function samplesFromGolden(
  deps: GoldenAnchorDeps,
  dataset: string,
  split: 'dev' | 'test' | 'all',
  limit: number,
): Promise<{ samples: Sample[]; failed: number }> {
  const loaded = await deps.loadItems(dataset, split, deps.signal);
  const salt = `ragwatch-anchors-v1:${deps.config.calibrate.seed}`;
  const chosen = loaded.items
    .filter((i) => !i.adversarial)
    .sort((a, b) => samplingPoint(a.id, salt) - samplingPoint(b.id, salt))
    .slice(0, limit);
  const samples: Sample[] = [];
  let failed = 0;
  for (const item of chosen) {
    try {
      const request = { itemId: item.id, question: item.question, distractors: [], runName: 'ragwatch-anchors' };
      const answer = await deps.target.ask(request, deps.signal);
      samples.push({
        id: item.id,
        question: item.question,
        answer: answer.answer,
        contexts: answer.contexts,
        language: null,
      });
    } catch (err) {
      if (deps.signal?.aborted) throw err;
      failed++;
    }
  }
  return { samples: samples.sort((a, b) => (a.id < b.id ? -1 : 1)), failed };
}

export interface BuildAnchorsDeps {
  config: Pick<RagwatchConfig, 'calibrate' | 'metrics' | 'judge'>;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  anonymizer: SampleAnonymizer;
  identity: JudgeIdentity;
  now: number;
  signal?: AbortSignal;
}

export interface BuiltAnchors {
  file: AnchorFile;
  /** Samples left out: personal data after anonymization, and judge calls that failed. */
  personalData: number;
  failed: Record<string, number>;
}

export async function buildAnchorSet(
  samples: readonly Sample[],
  source: string,
  deps: BuildAnchorsDeps,
): Promise<BuiltAnchors> {
  const ids = new Set<string>();
  const unique = samples.filter((s) => (ids.has(s.id) ? false : (ids.add(s.id), true)));
  const { kept, personalData } = anonymizedAnchors(unique, deps.anonymizer);
  const metrics = deps.config.calibrate.metrics as MetricName[];
  const scored = await scoreAnchors(kept, metrics, {
    judge: deps.judge,
    embeddings: deps.embeddings,
    options: deps.config.metrics,
    concurrency: Math.max(1, Math.ceil(deps.config.judge.concurrency / 2)),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  // An anchor is kept only with a stored answer for every metric: a failed call is no stored verdict.
  const byAnchor = new Map<string, Record<string, number | null>>();
  for (const s of scored.scores) byAnchor.set(s.anchorId, { ...(byAnchor.get(s.anchorId) ?? {}), [s.metric]: s.score });
  const anchors = kept.flatMap((s): AnchorSample[] => {
    const scores = byAnchor.get(s.id) ?? {};
    return metrics.every((m) => m in scores) ? [{ ...s, scores }] : [];
  });
  const file: AnchorFile = {
    kind: ANCHOR_FILE_KIND,
    version: anchorSetVersion(anchors),
    createdAt: new Date(deps.now).toISOString(),
    source,
    metrics: [...metrics],
    judge: judgeFingerprint(deps.identity, metrics),
    anchors,
  };
  return { file, personalData, failed: scored.failed };
}
