/** The judge steps metrics share within a sample (see JudgeSession), each behind one key. */
import type { MetricContext } from './definition.js';
import {
  answerRelevancyRequest,
  claimsInReferenceRequest,
  contextPrecisionRequest,
  contextRecallRequest,
  faithfulnessRequest,
} from './prompts/build.js';
import type { AttributedStatement, GeneratedQuestion, Judged, JudgedClaim, Verdicts } from './prompts/schemas.js';

/** The answer's claims, each with its verdict against the contexts and the chunks that support it. */
export function answerClaims(ctx: MetricContext): Promise<Judged<JudgedClaim>> {
  return ctx.session.step('answer_claims', ctx.meter, () => faithfulnessRequest(ctx.sample));
}

/** The reference's statements, each with its attribution to the contexts and the chunks it comes from. */
export function referenceStatements(ctx: MetricContext): Promise<Judged<AttributedStatement>> {
  return ctx.session.step('reference_statements', ctx.meter, () => contextRecallRequest(ctx.sample));
}

export function generatedQuestions(ctx: MetricContext): Promise<GeneratedQuestion[]> {
  const n = ctx.options.answerRelevancyQuestions;
  return ctx.session.step(`questions_${n}`, ctx.meter, () => answerRelevancyRequest(ctx.sample, n));
}

export function chunkUsefulness(ctx: MetricContext): Promise<Verdicts> {
  return ctx.session.step('chunk_usefulness', ctx.meter, () => contextPrecisionRequest(ctx.sample));
}

/** Whether the reference supports each of the given claims, in order. */
export function claimsInReference(ctx: MetricContext, claims: string[]): Promise<Verdicts> {
  return ctx.session.step(`claims_in_reference:${claims.length}`, ctx.meter, () =>
    claimsInReferenceRequest(ctx.sample, claims),
  );
}
