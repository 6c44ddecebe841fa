import {
  type ApplyResult,
  type BuildResult,
  type GoldenNames,
  costLine,
  type GoldenDiff,
  type GoldenSettings,
  STRATA,
  AUTO_STRATA,
  mixShares,
} from '../golden/index.js';
import { textTable } from '../state/index.js';

/** What the `golden` commands print: plans, build summaries, review state, version diffs. */

const pct = (x: number | null) => (x === null ? '-' : `${Math.round(x * 100)} %`);

export function formatPlan(
  result: BuildResult,
  settings: GoldenSettings,
  names: GoldenNames,
  source: string,
): string[] {
  const p = result.plan;
  const lines = [
    `source: ${source}`,
    chunksLine(result, settings),
    `seeds: ${p.seeds.length} (rate ${settings.seeds.rate}, min ${settings.seeds.min}, max ${settings.seeds.max}, at least ${settings.seeds.minPerStratum} per stratum), ${strataLine(result, settings)}:`,
    ...textTable(
      ['bucket', 'chunks', 'seeds'],
      p.strata.map((r) => [r.bucket, String(r.chunks), String(r.seeds)]),
      ['left', 'right', 'right'],
    ).map((l) => `  ${l}`),
    `questions: ${settings.questionsPerSeed} per seed, ${p.questions} in all: ${STRATA.map((s) => `${p.byStratum[s]} ${s} seeds`).join(', ')}${p.multiHopWithoutNeighbours > 0 ? ` (${p.multiHopWithoutNeighbours} multi-hop seeds had no related chunk: single-hop or adversarial)` : ''}`,
    `mix: ${STRATA.map((s) => `${s} ${pct(p.seeds.length === 0 ? 0 : p.byStratum[s] / p.seeds.length)}`).join(', ')} of the seeds (golden.mix ${STRATA.map((s) => pct(mixShares(settings.mix)[s])).join(' / ')}; each seed's stratum is drawn from its own chunk, so at ${p.seeds.length} seeds a share may stray by up to ${STRATA.map((s) => `±${Math.round(p.mixTolerance[s] * 100)}`).join(' / ')} points)`,
    `related chunks (multi-hop): ${p.seeds.length - p.withoutPartner} of ${p.seeds.length} seeds have one (a neighbour in their document, else rare shared names), ${p.withoutPartner} found no partner`,
    `judge requests: at most ${estimateRequests(result, settings)} (generation, references, and per candidate the reference check and the closed-book test), plus embeddings`,
    `review: ${pct(settings.review.share)} of the accepted candidates per stratum, in the annotation queue "${names.queueName}"`,
    `writes: candidates to dataset ${names.candidatesDataset}; \`golden review --apply\` publishes ${names.prefix}-v<N> (test share ${pct(settings.testShare)})`,
    `state: ${result.resume.done} seeds done, ${result.resume.generated} generated and not yet filtered, ${result.resume.pending} to generate`,
  ];
  return lines;
}

function strataLine(result: BuildResult, settings: GoldenSettings): string {
  const k = result.plan.strataKey;
  const by = settings.seeds.dateBucket !== 'none' ? ` by ${settings.seeds.dateBucket}` : '';
  if (k.key === null)
    return `not stratified (strataKey auto: no metadata key has ${AUTO_STRATA.minValues} to ${AUTO_STRATA.maxValues} values covering ${pct(AUTO_STRATA.minCoverage)} of the eligible chunks)`;
  const how = `${k.values} values covering ${pct(k.coverage)} of the eligible chunks`;
  return `stratified over metadata "${k.key}"${by} (${k.auto ? `strataKey auto: ${how}` : how})`;
}

/** How many chunks were read, how many may seed a question and why the others may not. */
export function chunksLine(result: BuildResult, settings: GoldenSettings): string {
  const p = result.plan;
  const ex = p.excluded;
  return `chunks: ${p.chunks} read, ${p.eligible.length} eligible (left out: ${ex.personal_data} with personal data, ${ex.too_short} shorter than ${settings.seeds.minChars} characters, ${ex.repeated_text} repeating another's text)`;
}

function estimateRequests(result: BuildResult, settings: GoldenSettings): number {
  const q = settings.questionsPerSeed;
  const seeds = result.plan.seeds.length;
  // Upper bounds: generation, then per candidate the reference check and the closed-book test (or the adversarial checks).
  const perSeed = (s: string) => (s === 'adversarial' ? 1 + q * 2 : 2 + q * 3);
  const ratio = seeds === 0 ? 0 : (seeds - result.resume.done) / seeds;
  return Math.round(STRATA.reduce((sum, s) => sum + result.plan.byStratum[s] * perSeed(s), 0) * ratio);
}

export function formatBuild(result: BuildResult, names: GoldenNames): string[] {
  const t = result.tally;
  const lines = [
    ...textTable(
      ['stratum', 'seeds', 'candidates', 'accepted', 'rejected', 'to review'],
      STRATA.map((s) => [
        s,
        String(t[s].seeds),
        String(t[s].candidates),
        String(t[s].accepted),
        String(t[s].rejected),
        String(t[s].reviewSample),
      ]),
      ['left', 'right', 'right', 'right', 'right', 'right'],
    ),
  ];
  const reasons = Object.entries(result.rejections).sort((a, b) => b[1] - a[1]);
  if (reasons.length > 0) lines.push(`rejected: ${reasons.map(([r, n]) => `${n} ${r}`).join(', ')}`);
  if (result.duplicates > 0) lines.push(`near-duplicates removed this run: ${result.duplicates}`);
  if (result.superseded > 0) lines.push(`superseded (their seed left the plan): ${result.superseded}`);
  if (result.review?.queueId) {
    lines.push(
      `review: ${result.review.sampled} candidates in the annotation queue "${names.queueName}" (${result.review.newlyQueued} added now)`,
    );
  }
  lines.push(`candidates: dataset ${names.candidatesDataset} (rejected ones archived with their reason)`);
  lines.push(costLine(result.cost));
  if (result.stopped) lines.push(`stopped: ${result.stopped}; nothing is lost: run the same command again to resume`);
  else if (result.failures.length > 0) {
    const codes = new Map<string, number>();
    for (const f of result.failures) codes.set(f.code, (codes.get(f.code) ?? 0) + 1);
    lines.push(
      `incomplete: ${result.failures.length} seeds failed (${[...codes].map(([c, n]) => `${n} ${c}`).join(', ')}); run the same command again to resume`,
    );
  } else {
    lines.push(`next: people review in Langfuse, then \`ragwatch golden review --apply\``);
  }
  return lines;
}

export function formatReview(result: ApplyResult, names: GoldenNames, applied: boolean): string[] {
  const o = result.outcome;
  const lines = [
    `candidates: ${result.candidates} accepted in ${names.candidatesDataset}; queue ${result.queueId ?? '(none yet)'}`,
    ...textTable(
      ['stratum', 'candidates', 'in queue', 'reviewed', 'accepted', 'rejected', 'acceptance', 'unreviewed'],
      STRATA.map((s) => {
        const r = o.perStratum[s];
        return [
          s,
          String(r.candidates),
          String(r.sampled),
          String(r.reviewed),
          String(r.accepted),
          String(r.rejected),
          pct(r.acceptance),
          r.heldBack ? 'held back' : r.tooFewDecisions ? 'in (too few decisions)' : 'in',
        ];
      }),
      ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
    ),
  ];
  for (const w of result.warnings) lines.push(`warning: ${w}`);
  if (result.refused) return lines;
  if (!applied) {
    lines.push(
      `nothing written: \`ragwatch golden review --apply\` archives the rejected candidates and publishes the next version`,
    );
    return lines;
  }
  if (result.archived > 0) lines.push(`archived in ${names.candidatesDataset}: ${result.archived} rejected in review`);
  const p = result.published;
  if (!p) return lines;
  if (p.unchanged) {
    lines.push(`unchanged: ${p.datasetName} already holds this set (${p.items} items); nothing written`);
  } else {
    lines.push(`published: ${p.datasetName} (${p.items} items)`);
  }
  lines.push(
    ...textTable(
      ['stratum', 'dev', 'test', 'total'],
      STRATA.map((s) => [
        s,
        String(result.sizes[s].dev),
        String(result.sizes[s].test),
        String(result.sizes[s].dev + result.sizes[s].test),
      ]),
      ['left', 'right', 'right', 'right'],
    ),
    `run it: ragwatch experiment run --dataset ${p.datasetName}   (or set experiment.dataset: ${p.datasetName})`,
  );
  return lines;
}

const versionLabel = (name: string, withoutReview: boolean) =>
  withoutReview ? `${name} (published without review)` : name;

const REGENERATED: Record<string, string> = {
  chunk_changed: 'regenerated: a chunk it was built from changed',
  generation_changed: 'regenerated: the same chunks, the generation changed',
  regenerated: "regenerated: its seed's chunks or the generation changed",
};

export function formatDiff(diff: GoldenDiff): string[] {
  const lines = [
    `${versionLabel(diff.from, diff.fromPublishedWithoutReview)} → ${versionLabel(diff.to, diff.toPublishedWithoutReview)}: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed, ${diff.splitMoves.length} split moves, ${diff.unchanged} unchanged`,
  ];
  for (const i of diff.added) lines.push(`  + ${i.goldenId}  ${i.stratum}/${i.split}  ${i.question}`);
  for (const i of diff.removed) lines.push(`  - ${i.goldenId}  ${i.stratum}/${i.split}  ${i.question}`);
  for (const c of diff.changed)
    lines.push(
      `  ~ ${c.goldenId}  ${c.fields.length > 0 ? `${c.fields.join(', ')} changed` : 'same texts'}${c.previousId ? ` (${REGENERATED[c.reason]}; was ${c.previousId})` : ''}`,
    );
  for (const m of diff.splitMoves) lines.push(`  ⇄ ${m.goldenId}  ${m.from} → ${m.to}`);
  return lines;
}

export function buildJson(result: BuildResult, source: string) {
  const { plan } = result;
  return {
    dryRun: result.dryRun,
    source,
    complete: result.complete,
    stopped: result.stopped,
    plan: {
      chunks: plan.chunks,
      eligible: plan.eligible.length,
      excluded: plan.excluded,
      strataKey: plan.strataKey,
      strata: plan.strata,
      seeds: plan.seeds.length,
      byStratum: plan.byStratum,
      questions: plan.questions,
      mixTolerance: plan.mixTolerance,
      multiHopWithoutNeighbours: plan.multiHopWithoutNeighbours,
      withoutPartner: plan.withoutPartner,
    },
    resume: result.resume,
    tally: result.tally,
    rejections: result.rejections,
    duplicates: result.duplicates,
    superseded: result.superseded,
    review: result.review,
    failures: result.failures,
    cost: result.cost,
  };
}

export function reviewJson(result: ApplyResult) {
  return {
    candidates: result.candidates,
    queueId: result.queueId,
    decisions: result.outcome.decisions,
    refused: result.refused,
    perStratum: result.outcome.perStratum,
    rejected: Object.fromEntries(result.outcome.rejected),
    heldBack: result.outcome.heldBack,
    archived: result.archived,
    published: result.published,
    sizes: result.sizes,
    warnings: result.warnings,
  };
}
