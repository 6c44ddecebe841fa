import { drawOrder } from './ids.js';
import type { ReviewAnnotation } from './ports.js';
import { REVIEW_DECISIONS, emptyStrata, type RejectionReason, type ReviewDecision, type Stratum } from './types.js';

/**
 * Human review, pure: which accepted candidates people see (a stratified, seeded share, growing with the set but
 * never dropping an item already queued), and what their annotations decide when the review is applied.
 */

export const REVIEW_SCORE = 'golden-review';
export const REVIEW_NOTE_SCORE = 'golden-review-note';

export interface Reviewable {
  id: string;
  stratum: Stratum;
}

/** Per stratum, at least `share` of its candidates (one at least), keeping those already sampled. */
export function reviewSample(
  accepted: readonly Reviewable[],
  already: ReadonlySet<string>,
  share: number,
  seed: number,
): Set<string> {
  const out = new Set<string>();
  if (share <= 0) return out;
  for (const stratum of ['single-hop', 'multi-hop', 'adversarial'] as const) {
    const pool = accepted.filter((c) => c.stratum === stratum);
    if (pool.length === 0) continue;
    const target = Math.max(1, Math.ceil(share * pool.length));
    const kept = pool.filter((c) => already.has(c.id));
    for (const c of kept) out.add(c.id);
    const fresh = drawOrder(
      pool.filter((c) => !already.has(c.id)),
      (c) => c.id,
      'ragwatch-golden-review',
      seed,
      stratum,
    );
    for (const c of fresh.slice(0, Math.max(0, target - kept.length))) out.add(c.id);
  }
  return out;
}

export interface Decision {
  decision: ReviewDecision;
  comment: string | null;
  note: string | null;
}

/** The latest decision of each review trace; annotations with a label outside the categories are ignored. */
export function decisionsByTrace(annotations: readonly ReviewAnnotation[]): Map<string, Decision> {
  const latest = (name: string) => {
    const out = new Map<string, ReviewAnnotation>();
    for (const a of annotations) {
      if (a.name !== name) continue;
      if (name === REVIEW_SCORE && !REVIEW_DECISIONS.includes(a.label as ReviewDecision)) continue;
      const prev = out.get(a.traceId);
      if (!prev || a.timestamp > prev.timestamp) out.set(a.traceId, a);
    }
    return out;
  };
  const decisions = latest(REVIEW_SCORE);
  const notes = latest(REVIEW_NOTE_SCORE);
  const out = new Map<string, Decision>();
  for (const [traceId, a] of decisions) {
    out.set(traceId, {
      decision: a.label as ReviewDecision,
      comment: a.comment,
      note: notes.get(traceId)?.label ?? null,
    });
  }
  return out;
}

export const REJECTION_OF: Record<Exclude<ReviewDecision, 'accept'>, RejectionReason> = {
  'reject-trivial': 'review_trivial',
  'reject-parametric': 'review_parametric',
  'reject-ambiguous': 'review_ambiguous',
};

export interface ReviewCandidate extends Reviewable {
  /** The review trace, when the candidate was sampled. */
  reviewTraceId: string | null;
}

export interface StratumReview {
  candidates: number;
  sampled: number;
  reviewed: number;
  accepted: number;
  rejected: number;
  /** accepted / reviewed; null before any review. */
  acceptance: number | null;
  /** Below the floor: its unreviewed items stay out of this version. */
  heldBack: boolean;
}

export interface ReviewOutcome {
  perStratum: Record<Stratum, StratumReview>;
  /** Candidate ids published: accepted by people, or unreviewed in a stratum that is not held back. */
  publish: Array<{ id: string; review: 'accepted' | 'unreviewed' }>;
  /** Rejected by people, with the reason. */
  rejected: Map<string, RejectionReason>;
  /** Unreviewed candidates left out because their stratum is held back. */
  heldBack: string[];
}

export function applyReview(
  candidates: readonly ReviewCandidate[],
  decisions: ReadonlyMap<string, Decision>,
  minAcceptance: number,
): ReviewOutcome {
  const perStratum = emptyStrata<StratumReview>(() => ({
    candidates: 0,
    sampled: 0,
    reviewed: 0,
    accepted: 0,
    rejected: 0,
    acceptance: null,
    heldBack: false,
  }));
  const decisionOf = (c: ReviewCandidate) => (c.reviewTraceId ? decisions.get(c.reviewTraceId) : undefined);
  for (const c of candidates) {
    const row = perStratum[c.stratum];
    row.candidates += 1;
    if (c.reviewTraceId) row.sampled += 1;
    const d = decisionOf(c);
    if (!d) continue;
    row.reviewed += 1;
    if (d.decision === 'accept') row.accepted += 1;
    else row.rejected += 1;
  }
  for (const row of Object.values(perStratum)) {
    row.acceptance = row.reviewed === 0 ? null : row.accepted / row.reviewed;
    row.heldBack = row.acceptance !== null && row.acceptance < minAcceptance;
  }
  const publish: ReviewOutcome['publish'] = [];
  const rejected = new Map<string, RejectionReason>();
  const heldBack: string[] = [];
  for (const c of candidates) {
    const d = decisionOf(c);
    if (d && d.decision !== 'accept') rejected.set(c.id, REJECTION_OF[d.decision]);
    else if (d) publish.push({ id: c.id, review: 'accepted' });
    else if (perStratum[c.stratum].heldBack) heldBack.push(c.id);
    else publish.push({ id: c.id, review: 'unreviewed' });
  }
  return { perStratum, publish, rejected, heldBack };
}
