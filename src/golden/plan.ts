import type { RagwatchConfig } from '../config/index.js';
import { allocate, drawOrder, sha256 } from './ids.js';
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
  /** Seeds drawn for multi-hop that had no related chunk, built as single-hop instead. */
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
  const want = strataCounts(selection.seeds.length, s.mix);

  // Multi-hop first, from the seeds that have related chunks; then adversarial; the rest single-hop.
  const order = drawOrder(selection.seeds, (c) => c.id, 'ragwatch-golden-strata', s.seed);
  const multi = order.filter((c) => related.get(c.id)!.length > 0).slice(0, want['multi-hop']);
  const taken = new Set(multi.map((c) => c.id));
  const adversarial = order.filter((c) => !taken.has(c.id)).slice(0, want.adversarial);
  for (const c of adversarial) taken.add(c.id);
  const multiIds = new Set(multi.map((c) => c.id));
  const adversarialIds = new Set(adversarial.map((c) => c.id));
  const stratumOf = (c: Chunk): Stratum =>
    multiIds.has(c.id) ? 'multi-hop' : adversarialIds.has(c.id) ? 'adversarial' : 'single-hop';

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
    multiHopWithoutNeighbours: Math.max(0, want['multi-hop'] - multi.length),
    withoutPartner: selection.seeds.filter((c) => related.get(c.id)!.length === 0).length,
    questions: seeds.length * s.questionsPerSeed,
    hash: sha256('ragwatch-golden-plan-v1', seeds.map((x) => x.key).sort()).slice(0, 16),
  };
}
