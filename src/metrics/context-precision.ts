/**
 * Context precision (RAGAS, with reference): a usefulness verdict per retrieved chunk towards the reference
 * answer, all chunks in one call; value = average precision Σ_k(precision@k · v_k) / Σ_k v_k, 0 when no
 * chunk is useful. `details.fraction_relevant` is the plain useful / K share.
 */
import { averagePrecision } from './math.js';
import { scored, truncationOf, type MetricDefinition } from './definition.js';
import { promptVersion } from './prompts/build.js';
import { chunkUsefulness } from './steps.js';

export const contextPrecision: MetricDefinition = {
  name: 'context_precision',
  description: 'Average precision of the retrieved chunks judged useful for the reference answer (rank-aware).',
  higherIsBetter: true,
  needsReference: true,
  precondition: (s) =>
    s.reference === undefined ? 'needs a reference answer' : s.contexts.length === 0 ? 'no contexts were retrieved' : undefined,
  async score(ctx) {
    const verdicts = await chunkUsefulness(ctx);
    const useful = verdicts.flatMap((v, i) => (v ? [i + 1] : []));
    const k = verdicts.length;
    const value = averagePrecision(verdicts);
    const fractionRelevant = useful.length / k;
    const reason =
      useful.length === 0
        ? `none of the ${k} chunks is useful for the reference answer`
        : `${useful.length} of ${k} chunks useful (${useful.map((n) => `#${n}`).join(', ')}); average precision ${value.toFixed(2)}`;
    return scored(
      'context_precision',
      value,
      reason,
      {
        verdicts: verdicts.map((v, i) => ({ chunk: i + 1, useful: v })),
        useful: useful.length,
        k,
        fraction_relevant: fractionRelevant,
        language: ctx.sample.language,
        ...truncationOf(ctx.sample, ['question', 'contexts', 'reference']),
      },
      ctx.meter.total,
      promptVersion('context_precision', ctx.sample.language),
    );
  },
};
