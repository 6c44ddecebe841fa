/**
 * Faithfulness (RAGAS): the answer broken into atomic, self-contained claims, each judged against the joined
 * contexts; value = supported / total. One judge call extracts and judges the claims together, so the
 * answer and contexts are sent once. No claims (a refusal, a greeting) → not scorable. A claim repeated in the
 * judge's answer counts once, with its first verdict (definition 2); blank claims are dropped.
 */
import { notScorable, quote, resolutionOf, scored, truncationOf, type MetricDefinition } from './definition.js';
import { promptVersion } from './prompts/build.js';
import { answerClaims } from './steps.js';

export const faithfulness: MetricDefinition<'faithfulness'> = {
  name: 'faithfulness',
  label: 'Faithfulness',
  definitionVersion: '2',
  scoreDescription:
    'Share of the answer’s claims supported by the retrieved contexts (RAGAS faithfulness, 0–1). Scored by ' +
    'ragwatch on sampled traces.',
  gaugeHelp: 'Mean RAGAS faithfulness of the last online tick that scored traces (0-1).',
  higherIsBetter: true,
  defaultThreshold: 0.85,
  needsReference: false,
  jobs: ['online', 'experiment'],
  judgeTasks: ['faithfulness'],
  usesEmbeddings: false,
  valueRule: 'supported claims / claims; no claims → not scorable',
  precondition: (s) => (s.answer === '' ? 'the answer is empty' : undefined),
  async score(ctx) {
    const { items: claims, resolved } = await answerClaims(ctx);
    if (claims.length === 0) return notScorable('faithfulness', 'the answer makes no claims to check', ctx.meter.total);
    const supported = claims.filter((c) => c.supported).length;
    const unsupported = claims.filter((c) => !c.supported);
    const reason =
      unsupported.length === 0
        ? `all ${claims.length} claims are supported by the contexts`
        : `${supported} of ${claims.length} claims supported by the contexts; unsupported: ${unsupported.map((c) => quote(c.claim)).join('; ')}`;
    return scored(
      'faithfulness',
      supported / claims.length,
      reason,
      {
        claims: claims.map((c) => ({ claim: c.claim, supported: c.supported, chunks: c.chunks })),
        supported,
        total: claims.length,
        language: ctx.sample.language,
        ...resolutionOf(resolved),
        ...truncationOf(ctx.sample, ['question', 'answer', 'contexts']),
      },
      ctx.meter.total,
      promptVersion('faithfulness', ctx.sample.language, ctx.sample.named),
    );
  },
};
