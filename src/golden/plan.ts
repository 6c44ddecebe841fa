import type { RagwatchConfig } from '../config/index.js';
import { allocate, sha256, uniform } from './ids.js';
import type { PersonalDataCheck } from './ports.js';
import { goldenPromptVersion } from './prompts/build.js';
import { relatedChunks, relatedIndex } from './related.js';
import { bucketOf, eligibility, seedCount, selectSeeds, type ExclusionReason, type StratumRow } from './seeds.js';
import { chooseStrataKey, type StrataKeyChoice } from './strata-key.js';
import { emptyStrata, type Chunk, type Seed, type Stratum } from './types.js';

/**
 * The build plan, decided before any judge call (and all that `--dry-run` shows): which chunks are eligible,
 * the stratified seed sample, each seed's question stratum (the mix, multi-hop only where related chunks exist)
 * and its key. Pure: the same corpus and settings give the same plan.
 */

export type GoldenSettings = RagwatchConfig['golden'];

export interface PlanInput {
  chunks: readonly Chunk[];
  settings: GoldenSettings;
  candidatesDataset: string;
  generatorModel: string;
  personalData: PersonalDataCheck;
}

export interface BuildPlan {
  chunks: number;
  excluded: Record<ExclusionReason, number>;
  /** Chunks that may seed or be shown to the judge as they are. */
  eligible: Chunk[];
  /** Chunks with personal data (shown to the judge only redacted, as adversarial neighbours). */
  personal: Set<string>;
  /** The sampling key: as configured, or chosen from the corpus (`auto`; null: none suits, one stratum). */
  strataKey: PlanStrataKey;
  strata: StratumRow[];
  seeds: Seed[];
  byStratum: Record<Stratum, number>;
  /**
   * How far each stratum's share of the seeds may stray from golden.mix by the draw alone (two standard deviations
   * of a seed-by-seed draw, plus one seed), before multi-hop seeds without a related chunk become single-hop.
   */
  mixTolerance: Record<Stratum, number>;
  /** Seeds drawn for multi-hop that had no related chunk, built as single-hop or adversarial instead. */
  multiHopWithoutNeighbours: number;
  /** Seeds that found no related chunk at all (neither in their document nor by rare shared entities). */
  withoutPartner: number;
  questions: number;
  /** Hash of every seed key: equal plans are the same build. */
  hash: string;
}

export interface PlanStrataKey extends StrataKeyChoice {
  /** Chosen from the corpus (`golden.seeds.strataKey: auto`). */
  auto: boolean;
}

/** How many seeds of each stratum: the mix over the seed count, every stratum with a share getting one. */
export function strataCounts(seeds: number, mix: GoldenSettings['mix']): Record<Stratum, number> {
  const weights = { 'single-hop': mix['single-hop'], 'multi-hop': mix['multi-hop'], adversarial: mix.adversarial };
  const caps = { 'single-hop': seeds, 'multi-hop': seeds, adversarial: seeds };
  return allocate(seeds, weights, caps, true) as Record<Stratum, number>;
}

/** The mix as shares summing to 1. */
export function mixShares(mix: GoldenSettings['mix']): Record<Stratum, number> {
  const total = mix['single-hop'] + mix['multi-hop'] + mix.adversarial;
  return {
    'single-hop': mix['single-hop'] / total,
    'multi-hop': mix['multi-hop'] / total,
    adversarial: mix.adversarial / total,
  };
}

export function mixTolerance(seeds: number, mix: GoldenSettings['mix']): Record<Stratum, number> {
  const shares = mixShares(mix);
  const tol = (p: number) => (seeds === 0 ? 1 : Math.min(1, 2 * Math.sqrt((p * (1 - p)) / seeds) + 1 / seeds));
  return {
    'single-hop': tol(shares['single-hop']),
    'multi-hop': tol(shares['multi-hop']),
    adversarial: tol(shares.adversarial),
  };
}

export function seedKey(input: {
  candidatesDataset: string;
  stratum: Stratum;
  chunks: readonly Chunk[];
  questions: number;
  generatorModel: string;
}): string {
  const language = input.chunks[0]!.language;
  const task = input.stratum === 'adversarial' ? 'adversarial' : 'questions';
  return sha256(
    'ragwatch-golden-seed-v1',
    input.candidatesDataset,
    input.stratum,
    input.chunks.map((c) => [c.id, sha256(c.text)]),
    input.questions,
    input.generatorModel,
    goldenPromptVersion(task, language),
    goldenPromptVersion('references', language),
  ).slice(0, 40);
}

export function planBuild(input: PlanInput): BuildPlan {
  const s = input.settings;
  const { eligible, excluded, personal } = eligibility(input.chunks, {
    minChars: s.seeds.minChars,
    personalData: input.personalData,
  });
  const count = seedCount(eligible.length, s.seeds);
  const auto = s.seeds.strataKey === 'auto';
  const strataKey: PlanStrataKey = auto
    ? { ...chooseStrataKey(eligible, s.seeds.dateBucket), auto }
    : { key: s.seeds.strataKey, auto, values: 0, coverage: 0 };
  const selection = selectSeeds(eligible, {
    count,
    strataKey: strataKey.key,
    dateBucket: s.seeds.dateBucket,
    seed: s.seed,
    minPerStratum: s.seeds.minPerStratum,
    max: s.seeds.max,
  });
  if (!auto) {
    const rows = selection.strata.filter((r) => r.bucket !== '(none)');
    strataKey.values = rows.length;
    strataKey.coverage = eligible.length === 0 ? 0 : rows.reduce((n, r) => n + r.chunks, 0) / eligible.length;
  }
  const index = relatedIndex(eligible);
  const related = new Map(selection.seeds.map((c) => [c.id, relatedChunks(index, c, s.multiHopChunks)]));

  // Each seed's stratum is drawn from its own chunk (id and golden.seed) against the mix's shares, so a chunk seeding
  // two versions keeps its stratum whatever else the corpus gains or loses; multi-hop needs a related chunk, a seed
  // drawn for it without one is single-hop or adversarial in their proportion. The mix holds approximately.
  let multiHopWithoutNeighbours = 0;
  const shares = mixShares(s.mix);
  const stratumOf = (c: Chunk): Stratum => {
    const u = uniform('ragwatch-golden-stratum-v2', s.seed, c.id);
    const rest = shares.adversarial + shares['single-hop'];
    if (u < shares['multi-hop']) {
      if (related.get(c.id)!.length > 0) return 'multi-hop';
      multiHopWithoutNeighbours += 1;
      // No related chunk: the same draw, rescaled, between the other two strata in their proportion.
      const v = u / shares['multi-hop'];
      return rest > 0 && v < shares.adversarial / rest ? 'adversarial' : 'single-hop';
    }
    return u < shares['multi-hop'] + shares.adversarial ? 'adversarial' : 'single-hop';
  };

  const seeds: Seed[] = selection.seeds.map((chunk) => {
    const stratum = stratumOf(chunk);
    const chunks = stratum === 'multi-hop' ? [chunk, ...related.get(chunk.id)!] : [chunk];
    const key = seedKey({
      candidatesDataset: input.candidatesDataset,
      stratum,
      chunks,
      questions: s.questionsPerSeed,
      generatorModel: input.generatorModel,
    });
    return { key, stratum, chunks, bucket: bucketOf(chunk, strataKey.key, s.seeds.dateBucket) };
  });
  const byStratum = emptyStrata(() => 0);
  for (const seed of seeds) byStratum[seed.stratum] += 1;
  return {
    chunks: input.chunks.length,
    excluded,
    eligible,
    personal,
    strataKey,
    strata: selection.strata,
    seeds,
    byStratum,
    multiHopWithoutNeighbours,
    mixTolerance: mixTolerance(seeds.length, s.mix),
    withoutPartner: selection.seeds.filter((c) => related.get(c.id)!.length === 0).length,
    questions: seeds.length * s.questionsPerSeed,
    hash: sha256('ragwatch-golden-plan-v1', seeds.map((x) => x.key).sort()).slice(0, 16),
  };
}
