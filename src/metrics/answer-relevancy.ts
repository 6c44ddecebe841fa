/**
 * Answer relevancy (RAGAS): N questions generated from the answer alone, with a noncommittal flag each, in
 * ONE judge call (vLLM rejects n>1 at temperature 0); then ONE embeddings request for the original question
 * and the generated ones. 0 when every generation is noncommittal (no embeddings needed then).
 *
 * Definition 2: value = the mean of the cosines, then clamped to [0, 1] (RAGAS takes the plain mean). Clipping
 * each cosine at 0 before the mean, as definition 1 did, inflated the score whenever one cosine was negative
 * and the mean was not. A blank generated question is left out of the cosines; when every one is blank the
 * sample is not scorable.
 */
import { JudgeCallError } from '../judge/types.js';
import { cosine, mean, unitInterval } from './math.js';
import { notScorable, quote, scored, truncationOf, type MetricContext, type MetricDefinition } from './definition.js';
import { promptVersion } from './prompts/build.js';
import { generatedQuestions } from './steps.js';

export const answerRelevancy: MetricDefinition<'answer_relevancy'> = {
  name: 'answer_relevancy',
  label: 'Answer relevancy',
  definitionVersion: '2',
  scoreDescription:
    'How directly the answer addresses the question (RAGAS answer relevancy: similarity of questions ' +
    'generated from the answer, 0–1). Scored by ragwatch.',
  gaugeHelp: 'Mean RAGAS answer relevancy of the last online tick that scored traces (0-1).',
  higherIsBetter: true,
  defaultThreshold: 0.8,
  needsReference: false,
  jobs: ['online', 'experiment'],
  judgeTasks: ['answer_relevancy'],
  usesEmbeddings: true,
  valueRule:
    'the mean of cos(question, generated) over the generated questions with text, then clamped to [0, 1]; ' +
    'every question noncommittal → 0; every question blank → not scorable',
  precondition: (s) =>
    s.answer === '' ? 'the answer is empty' : s.question === '' ? 'the question is empty' : undefined,
  async score(ctx) {
    const generated = await generatedQuestions(ctx);
    const version = promptVersion('answer_relevancy', ctx.sample.language, ctx.sample.named);
    const base = { language: ctx.sample.language, ...truncationOf(ctx.sample, ['question', 'answer']) };
    if (generated.length > 0 && generated.every((g) => g.noncommittal)) {
      return scored(
        'answer_relevancy',
        0,
        `noncommittal answer: every generated question was flagged evasive (${generated.map((g) => quote(g.question)).join('; ')})`,
        { ...base, questions: generated.map((g) => ({ ...g, cosine: null })), noncommittal: true },
        ctx.meter.total,
        version,
      );
    }
    const asked = generated.filter((g) => g.question !== '');
    if (asked.length === 0)
      return notScorable('answer_relevancy', 'the judge generated no question with text', ctx.meter.total);
    const cosines = await cosinesWith(
      ctx,
      asked.map((g) => g.question),
    );
    const meanCosine = mean(cosines) ?? 0;
    const value = unitInterval(meanCosine) ?? 0;
    const listed = asked.map((g, i) => `${quote(g.question)} (${(cosines[i] ?? 0).toFixed(2)})`).join('; ');
    const counted = value !== meanCosine ? ` (counted as ${value.toFixed(2)})` : '';
    const n = `${asked.length} question${asked.length === 1 ? '' : 's'}`;
    const blanks = generated.length - asked.length;
    return scored(
      'answer_relevancy',
      value,
      `mean cosine ${meanCosine.toFixed(2)}${counted} between the question and ${n} generated from the answer: ${listed}`,
      {
        ...base,
        questions: asked.map((g, i) => ({
          question: g.question,
          noncommittal: g.noncommittal,
          cosine: cosines[i] ?? 0,
        })),
        mean_cosine: meanCosine,
        noncommittal: false,
        ...(blanks > 0 ? { resolved: { blank_dropped: blanks } } : {}),
      },
      ctx.meter.total,
      version,
    );
  },
};

/** Cosine of the sample's question with each text, from one embeddings request; its cost goes on the meter. */
async function cosinesWith(ctx: MetricContext, texts: string[]): Promise<number[]> {
  let answer;
  try {
    answer = await ctx.embeddings.embed([ctx.sample.question, ...texts], ctx.signal);
  } catch (err) {
    const usage = err instanceof JudgeCallError ? err.usage : undefined;
    if (usage)
      ctx.meter.addEmbeddings({ requests: usage.calls, promptTokens: usage.promptTokens, latencyMs: usage.latencyMs });
    throw err;
  }
  ctx.meter.addEmbeddings(answer.usage);
  const [original, ...rest] = answer.vectors;
  // The client checks count and dimension per request; vectors cached from an earlier request may still differ.
  if (original === undefined || rest.length !== texts.length || rest.some((v) => v.length !== original.length)) {
    const dims = [...new Set(answer.vectors.map((v) => v.length))].join(', ');
    const got = `${answer.vectors.length} vectors of dimension ${dims} for ${texts.length + 1} inputs`;
    throw new JudgeCallError(`embeddings: ${got}`, true, 'invalid_response', 1);
  }
  return rest.map((v) => cosine(original, v));
}
