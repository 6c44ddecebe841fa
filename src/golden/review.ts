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
  /**
   * Set when an earlier `--apply` archived the candidate on people's rejection: the decision stands (it still
   * counts toward its stratum's acceptance) even if the annotation is gone, and the candidate is never published.
   */
  archivedFor?: RejectionReason;
}

/** The acceptance floor: below `minAcceptance`, on at least `minDecisions` decisions, a stratum is held back. */
export interface ReviewFloor {
  minAcceptance: number;
  minDecisions: number;
}

export interface StratumReview {
  candidates: number;
  sampled: number;
  /** Decisions made, archived rejections included. */
  reviewed: number;
  accepted: number;
  rejected: number;
  /** accepted / reviewed; null before any review. */
  acceptance: number | null;
  /** Below the floor on enough decisions: its unreviewed items stay out of this version. */
  heldBack: boolean;
  /** Below the floor on fewer than `minDecisions` decisions: not enough evidence to hold the stratum back. */
  tooFewDecisions: boolean;
}

export interface ReviewOutcome {
  perStratum: Record<Stratum, StratumReview>;
  /** Decisions made across the strata (archived rejections included). */
  decisions: number;
  /** Candidate ids published: accepted by people, or unreviewed in a stratum that is not held back. */
  publish: Array<{ id: string; review: 'accepted' | 'unreviewed' }>;
  /** Rejected by people and not archived yet, with the reason. */
  rejected: Map<string, RejectionReason>;
  /** Unreviewed candidates left out because their stratum is held back. */
  heldBack: string[];
}

export function applyReview(
  candidates: readonly ReviewCandidate[],
  decisions: ReadonlyMap<string, Decision>,
  floor: ReviewFloor,
): ReviewOutcome {
  const perStratum = emptyStrata<StratumReview>(() => ({
    candidates: 0,
    sampled: 0,
    reviewed: 0,
    accepted: 0,
    rejected: 0,
    acceptance: null,
    heldBack: false,
    tooFewDecisions: false,
  }));
  const decisionOf = (c: ReviewCandidate): ReviewDecision | undefined => {
    if (c.archivedFor) return REVIEW_DECISION_OF[c.archivedFor] ?? 'reject-ambiguous';
    return c.reviewTraceId ? decisions.get(c.reviewTraceId)?.decision : undefined;
  };
  let made = 0;
  for (const c of candidates) {
    const row = perStratum[c.stratum];
    row.candidates += 1;
    if (c.reviewTraceId) row.sampled += 1;
    const d = decisionOf(c);
    if (!d) continue;
    made += 1;
    row.reviewed += 1;
    if (d === 'accept') row.accepted += 1;
    else row.rejected += 1;
  }
  for (const row of Object.values(perStratum)) {
    row.acceptance = row.reviewed === 0 ? null : row.accepted / row.reviewed;
    const below = row.acceptance !== null && row.acceptance < floor.minAcceptance;
    row.heldBack = below && row.reviewed >= floor.minDecisions;
    row.tooFewDecisions = below && !row.heldBack;
  }
  const publish: ReviewOutcome['publish'] = [];
  const rejected = new Map<string, RejectionReason>();
  const heldBack: string[] = [];
  for (const c of candidates) {
    if (c.archivedFor) continue;
    const d = decisionOf(c);
    if (d && d !== 'accept') rejected.set(c.id, REJECTION_OF[d]);
    else if (d) publish.push({ id: c.id, review: 'accepted' });
    else if (perStratum[c.stratum].heldBack) heldBack.push(c.id);
    else publish.push({ id: c.id, review: 'unreviewed' });
  }
  return { perStratum, decisions: made, publish, rejected, heldBack };
}

const REVIEW_DECISION_OF: Partial<Record<RejectionReason, Exclude<ReviewDecision, 'accept'>>> = Object.fromEntries(
  Object.entries(REJECTION_OF).map(([decision, reason]) => [reason, decision]),
);

/** A rejection reason given in review (`review_trivial`, …), as opposed to an automatic filter's. */
export const isReviewRejection = (reason: unknown): reason is RejectionReason =>
  typeof reason === 'string' && reason in REVIEW_DECISION_OF;
