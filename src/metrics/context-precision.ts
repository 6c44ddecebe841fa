/**
 * Context precision (RAGAS, with reference): a usefulness verdict per retrieved chunk towards the reference
 * answer, all chunks in one call; value = average precision Σ_k(precision@k · v_k) / Σ_k v_k, 0 when no
 * chunk is useful. `details.fraction_relevant` is the plain useful / K share.
 *
 * Definition 2: a retrieval that returned nothing scores 0, as in RAGAS (its average precision over no chunks
 * is 0), without a judge call. It is the worst retrieval; leaving it out of the mean would hide it from the gate.
 */
import { averagePrecision } from './math.js';
import { scored, truncationOf, type MetricDefinition } from './definition.js';
import { promptVersion } from './prompts/build.js';
import { chunkUsefulness } from './steps.js';

export const contextPrecision: MetricDefinition<'context_precision'> = {
  name: 'context_precision',
  label: 'Context precision',
  definitionVersion: '2',
  scoreDescription:
    'Share of retrieved chunks that are relevant, weighted by rank (RAGAS context precision, 0–1). Scored by ragwatch.',
  gaugeHelp: 'Mean RAGAS context precision of the last online tick that scored traces (0-1).',
  higherIsBetter: true,
  defaultThreshold: 0.75,
  needsReference: true,
  jobs: ['experiment'],
  judgeTasks: ['context_precision'],
  usesEmbeddings: false,
  valueRule:
    'Σ_k precision@k·v_k / Σ_k v_k (0 when nothing is useful); no retrieved context → 0 without a judge call; ' +
    '`details.fraction_relevant` = useful / K',
  precondition: (s) => (s.reference === undefined ? 'needs a reference answer' : undefined),
  async score(ctx) {
    const version = promptVersion('context_precision', ctx.sample.language, ctx.sample.named);
    const base = { language: ctx.sample.language, ...truncationOf(ctx.sample, ['question', 'contexts', 'reference']) };
    if (ctx.sample.contexts.length === 0) {
      return scored(
        'context_precision',
        0,
        'no contexts were retrieved: an empty retrieval scores 0',
        { verdicts: [], useful: 0, k: 0, fraction_relevant: 0, ...base },
        ctx.meter.total,
        version,
      );
    }
    const { verdicts, repeated } = await chunkUsefulness(ctx);
    const useful = verdicts.flatMap((v, i) => (v ? [i + 1] : []));
    const k = verdicts.length;
    const value = averagePrecision(verdicts);
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
        fraction_relevant: useful.length / k,
        ...(repeated.length > 0 ? { resolved: { repeated_chunks: repeated } } : {}),
        ...base,
      },
      ctx.meter.total,
      version,
    );
  },
};
