/**
 * Noise sensitivity (RAGAS; lower is better): the share of the answer's claims that are wrong (not supported
 * by the reference) and yet backed by a retrieved chunk — a `relevant` chunk (one the reference's statements
 * come from) in mode `relevant`, only irrelevant chunks in mode `irrelevant`. It reuses the answer's claims
 * with their supporting chunks (faithfulness step) and the reference's statements with theirs (recall step),
 * plus one call judging the claims against the reference. Definition 2: claims and statements repeated in the
 * judge's answers count once (see faithfulness and context recall).
 */
import { combinedVersion, promptVersion } from './prompts/build.js';
import { notScorable, quote, scored, truncationOf, type MetricDefinition } from './definition.js';
import { answerClaims, claimsInReference, referenceStatements } from './steps.js';

export interface NoiseInputs {
  /** Per claim: the chunks that support it (empty when the claim is unsupported). */
  claimChunks: number[][];
  /** Per claim: whether the reference supports it. */
  inReference: boolean[];
  /** Chunks the reference's statements are attributed to. */
  relevantChunks: Set<number>;
}

/** Both RAGAS modes from the judged matrices; per-claim flags for the details. */
export function noiseSensitivity(inputs: NoiseInputs): {
  relevant: number;
  irrelevant: number;
  flags: { relevant: boolean; irrelevant: boolean }[];
} {
  const flags = inputs.claimChunks.map((chunks, i) => {
    const incorrect = !(inputs.inReference[i] ?? false);
    const byRelevant = chunks.some((c) => inputs.relevantChunks.has(c));
    const byIrrelevant = !byRelevant && chunks.some((c) => !inputs.relevantChunks.has(c));
    return { relevant: incorrect && byRelevant, irrelevant: incorrect && byIrrelevant };
  });
  const n = flags.length;
  return {
    relevant: n === 0 ? 0 : flags.filter((f) => f.relevant).length / n,
    irrelevant: n === 0 ? 0 : flags.filter((f) => f.irrelevant).length / n,
    flags,
  };
}

export const noiseSensitivityMetric: MetricDefinition<'noise_sensitivity'> = {
  name: 'noise_sensitivity',
  label: 'Noise sensitivity',
  definitionVersion: '2',
  scoreDescription:
    'Share of the answer’s claims that are not in the reference answer yet backed by retrieved chunks ' +
    '(RAGAS noise sensitivity, 0–1, lower is better). Scored by ragwatch.',
  gaugeHelp: 'Mean noise sensitivity of the last online tick that scored traces (0-1).',
  higherIsBetter: false,
  needsReference: true,
  jobs: ['experiment'],
  judgeTasks: ['faithfulness', 'context_recall', 'claims_in_reference'],
  usesEmbeddings: false,
  valueRule:
    'share of claims not in the reference yet backed by a relevant chunk (mode `relevant`) or only by ' +
    'irrelevant ones (mode `irrelevant`)',
  precondition: (s) =>
    s.reference === undefined
      ? 'needs a reference answer'
      : s.answer === ''
        ? 'the answer is empty'
        : s.contexts.length === 0
          ? 'no contexts were retrieved'
          : undefined,
  async score(ctx) {
    const { items: claims } = await answerClaims(ctx);
    if (claims.length === 0)
      return notScorable('noise_sensitivity', 'the answer makes no claims to check', ctx.meter.total);
    const { items: statements } = await referenceStatements(ctx);
    const judged = await claimsInReference(
      ctx,
      claims.map((c) => c.claim),
    );
    const inReference = judged.verdicts;
    const relevantChunks = new Set(statements.filter((s) => s.attributed).flatMap((s) => s.chunks));
    const result = noiseSensitivity({
      claimChunks: claims.map((c) => (c.supported ? c.chunks : [])),
      inReference,
      relevantChunks,
    });
    const mode = ctx.options.noiseSensitivityMode;
    const value = mode === 'relevant' ? result.relevant : result.irrelevant;
    const hit = claims.filter((_, i) => result.flags[i]?.[mode]);
    const reason =
      hit.length === 0
        ? `no wrong claim is backed by ${mode} chunks (${claims.length} claims checked)`
        : `${hit.length} of ${claims.length} claims are not in the reference yet backed by ${mode} chunks: ${hit.map((c) => quote(c.claim)).join('; ')}`;
    const lang = ctx.sample.language;
    return scored(
      'noise_sensitivity',
      value,
      reason,
      {
        mode,
        relevant: result.relevant,
        irrelevant: result.irrelevant,
        relevant_chunks: [...relevantChunks].sort((a, b) => a - b),
        claims: claims.map((c, i) => ({
          claim: c.claim,
          chunks: c.supported ? c.chunks : [],
          in_reference: inReference[i] ?? false,
        })),
        language: lang,
        ...(judged.repeated.length > 0 ? { resolved: { repeated_claims: judged.repeated } } : {}),
        ...truncationOf(ctx.sample, ['question', 'answer', 'contexts', 'reference']),
      },
      ctx.meter.total,
      combinedVersion([
        promptVersion('faithfulness', lang, ctx.sample.named),
        promptVersion('context_recall', lang, ctx.sample.named),
        promptVersion('claims_in_reference', lang, ctx.sample.named),
      ]),
    );
  },
};
