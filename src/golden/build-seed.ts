import { JudgeCallError } from '../judge/index.js';
import { LangfuseApiError } from '../langfuse/index.js';
import { judgeVerdict, type CheckDeps } from './checks.js';
import { textVerdict, type TextFilterSettings } from './filters.js';
import { generateForSeed } from './generate.js';
import { candidateFromItem, candidateItem, contentHash } from './items.js';
import type { Clock, GoldenDatasets, JudgeClient } from './ports.js';
import type { CandidateRecord, GoldenBuildStore, SeedRecord } from '../state/index.js';
import type { Candidate, Seed, Verdict } from './types.js';

/**
 * One seed, resumably: generate (unless a previous build did: then its candidates are read back from the
 * candidates dataset), write the candidates, filter each one not judged yet, write the verdicts, mark the seed
 * done. Every stage's output is in Langfuse before the state store records the stage, so an interruption
 * repeats no generation and no verdict.
 */

export interface SeedDeps {
  datasets: GoldenDatasets;
  store: GoldenBuildStore;
  generator: JudgeClient;
  checks: Omit<CheckDeps, 'signal'>;
  textFilters: TextFilterSettings;
  clock: Clock;
  candidatesDataset: string;
  buildId: string;
  questions: number;
  budgetTokens: number;
}

export interface SeedState {
  seeds: Map<string, SeedRecord>;
  candidates: Map<string, CandidateRecord>;
  /** Candidate texts met in this build (generated or read back), by id. */
  texts: Map<string, Candidate>;
}

const FINAL = new Set(['accepted', 'rejected']);

export async function processSeed(seed: Seed, deps: SeedDeps, state: SeedState, signal: AbortSignal): Promise<void> {
  const previous = state.seeds.get(seed.key);
  if (previous?.stage === 'done') return;
  const record: SeedRecord = {
    candidatesDataset: deps.candidatesDataset,
    seedKey: seed.key,
    stratum: seed.stratum,
    chunkIds: seed.chunks.map((c) => c.id),
    stage: previous?.stage ?? 'failed',
    candidateIds: previous?.candidateIds ?? [],
    lastError: previous?.lastError ?? null,
    attempts: (previous?.attempts ?? 0) + 1,
    updatedAt: deps.clock.now(),
  };
  try {
    let candidates = previous?.stage === 'generated' ? await readBack(previous.candidateIds, deps) : null;
    if (!candidates) {
      const generated = await generateForSeed(seed, {
        generator: deps.generator,
        questions: deps.questions,
        budgetTokens: deps.budgetTokens,
        signal,
      });
      candidates = generated.candidates;
      await save(candidates, generated.verdicts, deps, state, seed);
      Object.assign(record, {
        stage: 'generated',
        candidateIds: candidates.map((c) => c.id),
        lastError: null,
        updatedAt: deps.clock.now(),
      });
      await deps.store.putSeed(record);
      state.seeds.set(seed.key, { ...record });
    }
    for (const c of candidates) state.texts.set(c.id, c);
    const pending = candidates.filter((c) => !FINAL.has(state.candidates.get(c.id)?.status ?? ''));
    // A seed's candidates are checked at once: each check is its own, so the seed's judge calls queue together
    // instead of one candidate after another (the same calls, the same verdicts).
    signal.throwIfAborted();
    const judged = await Promise.all(
      pending.map(async (c): Promise<[string, Verdict]> => {
        const text = textVerdict(c, deps.textFilters);
        return [
          c.id,
          text.status === 'rejected' ? text : await judgeVerdict(c, seed.chunks, { ...deps.checks, signal }),
        ];
      }),
    );
    const verdicts = new Map<string, Verdict>(judged);
    await save(pending, verdicts, deps, state, seed);
    Object.assign(record, { stage: 'done', lastError: null, updatedAt: deps.clock.now() });
    await deps.store.putSeed(record);
    state.seeds.set(seed.key, { ...record });
  } catch (err) {
    Object.assign(record, { lastError: errorCode(err), updatedAt: deps.clock.now() });
    await deps.store.putSeed(record).catch(() => undefined);
    state.seeds.set(seed.key, { ...record });
    throw err;
  }
}

/** The seed's candidates from their dataset items; null (generate again) when one is missing or out of shape. */
async function readBack(ids: readonly string[], deps: SeedDeps): Promise<Candidate[] | null> {
  if (ids.length === 0) return null;
  const out: Candidate[] = [];
  for (const id of ids) {
    const item = await deps.datasets.get(id);
    const c = item ? candidateFromItem(item) : null;
    if (!c) return null;
    out.push(c);
  }
  return out;
}

/** Writes candidates to the candidates dataset (rejected ones archived), then their records to the state store. */
async function save(
  candidates: readonly Candidate[],
  verdicts: ReadonlyMap<string, Verdict>,
  deps: SeedDeps,
  state: SeedState,
  seed: Seed,
): Promise<void> {
  const records: CandidateRecord[] = [];
  for (const c of candidates) {
    const verdict = verdicts.get(c.id) ?? null;
    await deps.datasets.upsert(candidateItem(deps.candidatesDataset, c, { verdict, buildId: deps.buildId }));
    records.push({
      candidatesDataset: deps.candidatesDataset,
      candidateId: c.id,
      seedKey: seed.key,
      stratum: c.stratum,
      contentHash: contentHash(c),
      status: verdict?.status ?? 'generated',
      reason: verdict?.status === 'rejected' ? verdict.reason : null,
      reviewTraceId: state.candidates.get(c.id)?.reviewTraceId ?? null,
      updatedAt: deps.clock.now(),
    });
  }
  await deps.store.putCandidates(records);
  for (const r of records) state.candidates.set(r.candidateId, r);
}

/** A short code for the state store and the summary: never the error's text. */
export function errorCode(err: unknown): string {
  if (err instanceof JudgeCallError) return `judge:${err.kind}`;
  if (err instanceof LangfuseApiError) return `langfuse:${err.kind}${err.status ? `_${err.status}` : ''}`;
  if (err instanceof Error && err.name === 'AbortError') return 'aborted';
  return 'internal';
}

/** Failures that say a dependency is down rather than that this seed is trouble. */
export function isOutageLike(err: unknown): boolean {
  if (err instanceof LangfuseApiError) return err.unreachable;
  if (err instanceof JudgeCallError) return /^(connection|timeout|http_5\d\d|http_429)$/.test(err.kind);
  return false;
}
