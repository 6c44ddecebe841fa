/**
 * Context recall (RAGAS): the reference broken into statements, each classified as attributable to the
 * retrieved contexts or not; value = attributed / total. No statements → not scorable. With no contexts
 * the judge still sees the (empty) contexts and nothing can be attributed. A statement repeated in the judge's
 * answer counts once, with its first verdict (definition 2); blank statements are dropped.
 */
import { notScorable, quote, resolutionOf, scored, truncationOf, type MetricDefinition } from './definition.js';
import { promptVersion } from './prompts/build.js';
import { referenceStatements } from './steps.js';

export const contextRecall: MetricDefinition<'context_recall'> = {
  name: 'context_recall',
  label: 'Context recall',
  definitionVersion: '2',
  scoreDescription:
    'Share of the reference answer’s claims found in the retrieved contexts (RAGAS context recall, 0–1). ' +
    'Scored by ragwatch.',
  gaugeHelp: 'Mean RAGAS context recall of the last online tick that scored traces (0-1).',
  higherIsBetter: true,
  defaultThreshold: 0.8,
  needsReference: true,
  jobs: ['experiment'],
  judgeTasks: ['context_recall'],
  usesEmbeddings: false,
  valueRule: 'attributed statements / statements; none → not scorable',
  precondition: (s) => (s.reference === undefined ? 'needs a reference answer' : undefined),
  async score(ctx) {
    const { items: statements, resolved } = await referenceStatements(ctx);
    if (statements.length === 0)
      return notScorable('context_recall', 'the reference makes no statements to look for', ctx.meter.total);
    const attributed = statements.filter((s) => s.attributed).length;
    const missing = statements.filter((s) => !s.attributed);
    const reason =
      missing.length === 0
        ? `all ${statements.length} reference statements are found in the contexts`
        : `${attributed} of ${statements.length} reference statements found in the contexts; missing: ${missing.map((s) => quote(s.statement)).join('; ')}`;
    return scored(
      'context_recall',
      attributed / statements.length,
      reason,
      {
        statements: statements.map((s) => ({ statement: s.statement, attributed: s.attributed, chunks: s.chunks })),
        attributed,
        total: statements.length,
        language: ctx.sample.language,
        ...resolutionOf(resolved),
        ...truncationOf(ctx.sample, ['question', 'contexts', 'reference']),
      },
      ctx.meter.total,
      promptVersion('context_recall', ctx.sample.language, ctx.sample.named),
    );
  },
};
