/**
 * Answer relevancy (RAGAS): N questions generated from the answer alone, with a noncommittal flag each, in
 * ONE judge call (vLLM rejects n>1 at temperature 0); then ONE embeddings request for the original question
 * and the generated ones. value = mean cosine, negatives counted as 0; 0 when every generation is
 * noncommittal (no embeddings needed then).
 */
import { cosine, mean } from './math.js';
import { notScorable, quote, scored, truncationOf, type MetricDefinition } from './definition.js';
import { promptVersion } from './prompts/build.js';
import { generatedQuestions } from './steps.js';

export const answerRelevancy: MetricDefinition = {
  name: 'answer_relevancy',
  description: 'Mean cosine between the question and questions generated from the answer (0 for evasive answers).',
  higherIsBetter: true,
  needsReference: false,
  precondition: (s) => (s.answer === '' ? 'the answer is empty' : s.question === '' ? 'the question is empty' : undefined),
  async score(ctx) {
    const generated = await generatedQuestions(ctx);
    const version = promptVersion('answer_relevancy', ctx.sample.language);
    const base = { language: ctx.sample.language, ...truncationOf(ctx.sample, ['question', 'answer']) };
    if (generated.every((g) => g.noncommittal)) {
      return scored(
        'answer_relevancy',
        0,
        `noncommittal answer: every generated question was flagged evasive (${generated.map((g) => quote(g.question)).join('; ')})`,
        { ...base, questions: generated.map((g) => ({ ...g, cosine: null })), noncommittal: true },
        ctx.meter.total,
        version,
      );
    }
    const { vectors, usage } = await ctx.embeddings.embed([ctx.sample.question, ...generated.map((g) => g.question)], ctx.signal);
    ctx.meter.addEmbeddings(usage);
    if (vectors.length !== generated.length + 1) {
      throw new Error(`embeddings returned ${vectors.length} vectors for ${generated.length + 1} inputs`);
    }
    const [original, ...rest] = vectors as [number[], ...number[][]];
    const cosines = rest.map((v) => cosine(original, v));
    const clipped = cosines.map((c) => Math.max(0, c));
    const value = mean(clipped);
    if (value === undefined) return notScorable('answer_relevancy', 'no question could be generated from the answer', ctx.meter.total);
    const listed = generated.map((g, i) => `${quote(g.question)} (${(clipped[i] ?? 0).toFixed(2)})`).join('; ');
    return scored(
      'answer_relevancy',
      value,
      `mean cosine ${value.toFixed(2)} between the question and ${generated.length} question${generated.length === 1 ? '' : 's'} generated from the answer: ${listed}`,
      {
        ...base,
        questions: generated.map((g, i) => ({ question: g.question, noncommittal: g.noncommittal, cosine: cosines[i] ?? 0 })),
        noncommittal: false,
      },
      ctx.meter.total,
      version,
    );
  },
};
