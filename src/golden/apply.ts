import type { GoldenNames } from './build.js';
import { sha256 } from './ids.js';
import {
  candidateFromItem,
  candidateItem,
  contentHash,
  goldenItem,
  goldenItemView,
  type GoldenItemView,
} from './items.js';
import type { GoldenSettings } from './plan.js';
import type { Clock, GoldenDatasets, Progress, ReviewQueue } from './ports.js';
import type { CandidateRecord, GoldenBuildStore } from '../state/index.js';
import {
  applyReview,
  decisionsByTrace,
  isReviewRejection,
  type ReviewCandidate,
  type ReviewOutcome,
} from './review.js';
import { assignSplits, earlierSplits } from './splits.js';
import { STRATA, emptyStrata, type Candidate, type RejectionReason, type Split, type Stratum } from './types.js';

/**
 * `ragwatch golden review [--apply]`: reads people's decisions from the annotation queue and, with `--apply`,
 * archives the candidates they rejected and publishes the golden set as a new version (`<prefix>-v<N>`):
 * accepted and unreviewed candidates in (a stratum below the acceptance floor keeps its unreviewed ones out),
 * splits assigned stratified and seeded, each item keeping the split it had in any earlier version. The
 * candidates dataset in Langfuse is the source: the state store is not needed to apply a review.
 */

export interface ApplyDeps {
  datasets: GoldenDatasets;
  queue: ReviewQueue;
  store: GoldenBuildStore;
  clock: Clock;
  progress: Progress;
}

export interface ApplyOptions {
  settings: GoldenSettings;
  names: GoldenNames;
  /** False: report the review's state only, write nothing. */
  apply: boolean;
  /**
   * Publish even though nobody has decided on any candidate yet; the version is marked as published without
   * review (its items' metadata, the dataset's, and `golden diff`).
   */
  unreviewed?: boolean;
}

export interface Publication {
  datasetName: string;
  version: number;
  items: number;
  /** Same content as the latest version: nothing was written. */
  unchanged: boolean;
}

export interface ApplyResult {
  candidates: number;
  /** Why `--apply` published nothing although it could have (no decision at all, without `--unreviewed`). */
  refused: string | null;
  queueId: string | null;
  outcome: ReviewOutcome;
  archived: number;
  published: Publication | null;
  sizes: Record<Stratum, Record<Split, number>>;
  warnings: string[];
}

const VERSION = (prefix: string) => new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-v(\\d+)$`);

interface Accepted {
  candidate: Candidate;
  reviewTraceId: string | null;
}

/** A candidate an earlier apply archived on people's rejection: its decision still counts. */
interface ArchivedInReview {
  id: string;
  stratum: Stratum;
  reviewTraceId: string | null;
  reason: RejectionReason;
}

/**
 * The candidates the filters accepted, and those an earlier apply archived on people's rejection: read from the
 * candidates dataset (Langfuse lists archived items with their status) and, where a server leaves archived items
 * out, from the build state's record of them.
 */
async function reviewedCandidates(
  deps: ApplyDeps,
  names: GoldenNames,
): Promise<{ accepted: Accepted[]; archived: ArchivedInReview[] }> {
  const accepted: Accepted[] = [];
  const archived = new Map<string, ArchivedInReview>();
  for (const item of await deps.datasets.items(names.candidatesDataset)) {
    const meta = (item.metadata ?? {}) as { status?: unknown; reason?: unknown; review?: { trace_id?: unknown } };
    const active = item.status === 'ACTIVE' && meta.status === 'accepted';
    const rejected = item.status === 'ARCHIVED' && meta.status === 'rejected' && isReviewRejection(meta.reason);
    if (!active && !rejected) continue;
    const candidate = candidateFromItem(item);
    if (!candidate) continue;
    const reviewTraceId = typeof meta.review?.trace_id === 'string' ? meta.review.trace_id : null;
    if (active) accepted.push({ candidate, reviewTraceId });
    else archived.set(candidate.id, { ...candidate, reviewTraceId, reason: meta.reason as RejectionReason });
  }
  for (const r of await deps.store.candidates(names.candidatesDataset)) {
    if (archived.has(r.candidateId) || r.status !== 'rejected' || !isReviewRejection(r.reason)) continue;
    if (!STRATA.includes(r.stratum as Stratum)) continue;
    archived.set(r.candidateId, {
      id: r.candidateId,
      stratum: r.stratum as Stratum,
      reviewTraceId: r.reviewTraceId,
      reason: r.reason,
    });
  }
  const byId =
    <T>(id: (x: T) => string) =>
    (x: T, y: T) =>
      id(x) < id(y) ? -1 : 1;
  return {
    accepted: accepted.sort(byId((a) => a.candidate.id)),
    archived: [...archived.values()].sort(byId((a) => a.id)),
  };
}

export async function applyGoldenReview(deps: ApplyDeps, options: ApplyOptions): Promise<ApplyResult> {
  const { names, settings } = options;
  deps.progress.stage('golden: reading candidates and annotations', { unit: 'steps', total: 2 });
  const { accepted, archived } = await reviewedCandidates(deps, names);
  deps.progress.advance();
  const queueId = (await deps.store.reviewQueue(names.candidatesDataset)) ?? (await deps.queue.find(names.queueName));
  const decisions = decisionsByTrace(queueId ? await deps.queue.annotations(queueId) : []);
  deps.progress.advance();
  const reviewable: ReviewCandidate[] = [
    ...accepted.map((a) => ({ id: a.candidate.id, stratum: a.candidate.stratum, reviewTraceId: a.reviewTraceId })),
    ...archived.map((a) => ({ id: a.id, stratum: a.stratum, reviewTraceId: a.reviewTraceId, archivedFor: a.reason })),
  ];
  const floor = { minAcceptance: settings.review.minAcceptance, minDecisions: settings.review.minDecisions };
  const outcome = applyReview(reviewable, decisions, floor);
  const warnings: string[] = [];
  if (accepted.length === 0)
    warnings.push(`no accepted candidates in ${names.candidatesDataset}: run \`ragwatch golden build\` first`);
  for (const [stratum, row] of Object.entries(outcome.perStratum)) {
    if (row.candidates > 0 && row.sampled > 0 && row.reviewed === 0)
      warnings.push(`${stratum}: none of its ${row.sampled} review items has been annotated yet`);
    if (row.tooFewDecisions)
      warnings.push(
        `${stratum}: acceptance ${Math.round(100 * row.acceptance!)} % is below the floor ${floor.minAcceptance} ` +
          `on ${row.reviewed} decision(s), fewer than the ${floor.minDecisions} (golden.review.minDecisions) it ` +
          'takes to hold a stratum back: its unreviewed items stay in; review more of it',
      );
  }
  const refused =
    options.apply && accepted.length > 0 && outcome.decisions === 0 && !options.unreviewed
      ? `nobody has decided on any candidate in the review queue ${names.queueName} yet: nothing published. ` +
        'Review in Langfuse first, or publish without review with --unreviewed (the version says so)'
      : null;
  const result: ApplyResult = {
    candidates: accepted.length,
    refused,
    queueId,
    outcome,
    archived: 0,
    published: null,
    sizes: emptyStrata(() => ({ dev: 0, test: 0 })),
    warnings,
  };
  if (!options.apply || accepted.length === 0 || refused) return result;

  result.archived = await archiveRejected(accepted, outcome, deps, names);
  const withoutReview = outcome.decisions === 0;
  const byId = new Map(accepted.map((a) => [a.candidate.id, a.candidate]));
  const publish = outcome.publish.map((p) => ({ candidate: byId.get(p.id)!, review: p.review }));
  const versions = await publishedVersions(deps, names.prefix);
  const previous = earlierSplits(versions.map((v) => v.items));
  const splits = assignSplits(
    publish.map((p) => ({ id: p.candidate.id, stratum: p.candidate.stratum })),
    previous,
    settings.testShare,
    settings.seed,
  );
  for (const p of publish) result.sizes[p.candidate.stratum][splits.get(p.candidate.id)!] += 1;
  const hash = sha256(
    'golden-set-v1',
    publish.map((p) => [p.candidate.id, contentHash(p.candidate), splits.get(p.candidate.id), p.review]).sort(),
    ...(withoutReview ? ['published without review'] : []),
  ).slice(0, 16);

  const latest = versions.at(-1);
  if (latest && latest.metadata.content_hash === hash) {
    result.published = { datasetName: latest.name, version: latest.version, items: publish.length, unchanged: true };
    return result;
  }
  // A version whose upload did not finish (no content hash yet) is completed rather than skipped.
  const version = latest && latest.metadata.content_hash === undefined ? latest.version : (latest?.version ?? 0) + 1;
  const datasetName = `${names.prefix}-v${version}`;
  const description = `Golden set v${version}: generated from the corpus, filtered, reviewed by people (${names.queueName}).`;
  const reviewMark = withoutReview ? { reviewed: false } : {};
  await deps.datasets.ensure(datasetName, description, {
    ragwatch: 'golden',
    version,
    status: 'publishing',
    ...reviewMark,
  });
  deps.progress.stage(`golden: publishing ${datasetName}`, { unit: 'items', total: publish.length });
  for (const p of publish) {
    await deps.datasets.upsert(
      goldenItem(
        datasetName,
        p.candidate,
        splits.get(p.candidate.id)!,
        withoutReview ? { status: p.review, published_without_review: true } : { status: p.review },
        names.candidatesDataset,
      ),
    );
    deps.progress.advance();
  }
  const publishedAt = deps.clock.now();
  await deps.datasets.ensure(datasetName, description, {
    ragwatch: 'golden',
    version,
    content_hash: hash,
    candidates: names.candidatesDataset,
    test_share: settings.testShare,
    published_at: new Date(publishedAt).toISOString(),
    sizes: result.sizes,
    ...reviewMark,
  });
  await deps.store.recordPublication({
    prefix: names.prefix,
    datasetName,
    version,
    candidatesDataset: names.candidatesDataset,
    contentHash: hash,
    items: publish.length,
    publishedAt,
  });
  result.published = { datasetName, version, items: publish.length, unchanged: false };
  return result;
}

/** Candidates people rejected leave the candidates set, archived with the review's reason. */
async function archiveRejected(
  accepted: readonly Accepted[],
  outcome: ReviewOutcome,
  deps: ApplyDeps,
  names: GoldenNames,
): Promise<number> {
  const records = new Map((await deps.store.candidates(names.candidatesDataset)).map((r) => [r.candidateId, r]));
  const changed: CandidateRecord[] = [];
  for (const a of accepted) {
    const reason = outcome.rejected.get(a.candidate.id);
    if (!reason) continue;
    const verdict = { status: 'rejected' as const, reason, detail: 'rejected in review' };
    const review = a.reviewTraceId ? { traceId: a.reviewTraceId, queue: names.queueName } : undefined;
    await deps.datasets.upsert(
      candidateItem(names.candidatesDataset, a.candidate, {
        verdict,
        buildId: 'review',
        ...(review ? { review } : {}),
      }),
    );
    const previous = records.get(a.candidate.id);
    if (previous) changed.push({ ...previous, status: 'rejected', reason, updatedAt: deps.clock.now() });
  }
  await deps.store.putCandidates(changed);
  return outcome.rejected.size;
}

export interface PublishedVersion {
  name: string;
  version: number;
  metadata: Record<string, unknown>;
  items: GoldenItemView[];
}

/** Every published version of the prefix, oldest first, with its items. */
export async function publishedVersions(
  deps: Pick<ApplyDeps, 'datasets'>,
  prefix: string,
): Promise<PublishedVersion[]> {
  const re = VERSION(prefix);
  const out: PublishedVersion[] = [];
  for (const name of await deps.datasets.names()) {
    const m = re.exec(name);
    if (!m) continue;
    const metadata = (await deps.datasets.metadata(name)) ?? {};
    out.push({ name, version: Number(m[1]), metadata, items: (await deps.datasets.items(name)).map(goldenItemView) });
  }
  return out.sort((a, b) => a.version - b.version);
}
