/**
 * From scores read back from Langfuse to what the calibration works on, pure: ragwatch's scores grouped per
 * trace (with what the strata need: origin, language, stratum, split, trace name), the queue's candidates, and
 * the (judge, human) pairs of the agreement tables.
 */
import { traceNameKey } from '../internal/index.js';
import type { EnqueueCandidate } from './sampling-plan.js';
import type { AnnotatedPair } from './pairs.js';

/** One of ragwatch's own scores (source API, a ragwatch score name, ragwatch's metadata). */
export interface JudgeScoreRow {
  traceId: string;
  metric: string;
  value: number;
  /** The judge's reason as ragwatch wrote it (already anonymized). */
  comment: string | null;
  metadata: Record<string, unknown> | null;
  /** ISO 8601. */
  timestamp: string;
}

/** A person's score of one trace: a metric's (0–1; null when off the scale) or the free comment. */
export interface HumanScoreRow {
  traceId: string;
  /** A calibrated metric, or null for the free comment (`human-comment`). */
  metric: string | null;
  value: number | null;
  comment: string | null;
  timestamp: string;
}

export interface ScoredTrace {
  traceId: string;
  origin: 'online' | 'experiment';
  language: string;
  /** The golden item's stratum; `online` for online traces. */
  stratum: string;
  /** The golden item's split (`dev`, `test`, `unknown`); null online. */
  split: string | null;
  runName: string | null;
  traceName: string;
  /** Per metric, the latest score. */
  scores: Map<string, { value: number; reason: string | null; timestamp: string }>;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The prompt language ragwatch scored in: `metadata.language`, else the prompt version's prefix (`es-1a2b…`). */
export function languageOf(metadata: Record<string, unknown> | null): string {
  const explicit = text(metadata?.language);
  if (explicit) return explicit;
  const version = text(metadata?.promptVersion);
  const m = version ? /^([a-z]{2,3})-/.exec(version) : null;
  return m ? (m[1] as string) : 'unknown';
}

/** Groups ragwatch's scores by trace; `traceNameOf` names a trace whose scores do not (online: the ledger). */
export function scoredTraces(
  rows: readonly JudgeScoreRow[],
  traceNameOf: (traceId: string, origin: ScoredTrace['origin']) => string | null = () => null,
): ScoredTrace[] {
  const byTrace = new Map<string, ScoredTrace>();
  for (const row of rows) {
    let trace = byTrace.get(row.traceId);
    if (!trace) {
      const m = row.metadata;
      const origin = text(m?.runName) ? 'experiment' : 'online';
      trace = {
        traceId: row.traceId,
        origin,
        language: languageOf(m),
        stratum: origin === 'online' ? 'online' : (text(m?.stratum) ?? 'unknown'),
        split: origin === 'online' ? null : (text(m?.split) ?? 'unknown'),
        runName: text(m?.runName),
        // A name is printed and stratified by: its key, never a careless name's text.
        traceName:
          traceNameKey(text(m?.traceName) ?? traceNameOf(row.traceId, origin)) ??
          (origin === 'experiment' ? 'ragwatch-experiment' : 'unknown'),
        scores: new Map(),
      };
      byTrace.set(row.traceId, trace);
    }
    const previous = trace.scores.get(row.metric);
    if (!previous || previous.timestamp < row.timestamp) {
      trace.scores.set(row.metric, { value: row.value, reason: row.comment, timestamp: row.timestamp });
    }
  }
  return [...byTrace.values()].sort((a, b) => (a.traceId < b.traceId ? -1 : a.traceId > b.traceId ? 1 : 0));
}

/** The queue's candidates: a trace counts as queued when it is in the queue or a person already scored it. */
export function enqueueCandidates(
  traces: readonly ScoredTrace[],
  queued: ReadonlySet<string>,
  annotated: ReadonlySet<string>,
): EnqueueCandidate[] {
  return traces.map((t) => ({
    traceId: t.traceId,
    traceName: t.traceName,
    language: t.language,
    origin: t.origin,
    scores: Object.fromEntries([...t.scores].map(([metric, s]) => [metric, s.value])),
    queued: queued.has(t.traceId) || annotated.has(t.traceId),
  }));
}

export interface PairOptions {
  /** Makes a person's comment safe to show (anonymized, one line, shortened); null drops it. */
  cleanComment: (text: string) => string | null;
}

/**
 * One pair per trace and metric that both the judge and a person scored (the person's latest answer). The
 * person's reason is the score's own comment, else their free comment on the trace.
 */
export function annotatedPairs(
  traces: readonly ScoredTrace[],
  humans: readonly HumanScoreRow[],
  options: PairOptions,
): AnnotatedPair[] {
  const latest = new Map<string, HumanScoreRow>();
  for (const h of humans) {
    const key = `${h.traceId}\u0000${h.metric ?? ''}`;
    const previous = latest.get(key);
    if (!previous || previous.timestamp < h.timestamp) latest.set(key, h);
  }
  const byId = new Map(traces.map((t) => [t.traceId, t]));
  const pairs: AnnotatedPair[] = [];
  for (const h of [...latest.values()].sort((a, b) => (a.traceId < b.traceId ? -1 : 1))) {
    if (h.metric === null) continue;
    const trace = byId.get(h.traceId);
    const judge = trace?.scores.get(h.metric);
    if (!trace || !judge) continue;
    const free = latest.get(`${h.traceId}\u0000`);
    const said = h.comment ?? free?.comment ?? null;
    pairs.push({
      traceId: trace.traceId,
      metric: h.metric,
      language: trace.language,
      stratum: trace.stratum,
      traceName: trace.traceName,
      origin: trace.origin,
      split: trace.split,
      judge: judge.value,
      // Off the scale: the table counts and excludes it.
      human: h.value ?? Number.NaN,
      judgeReason: judge.reason,
      humanComment: said === null ? null : options.cleanComment(said),
    });
  }
  return pairs;
}
