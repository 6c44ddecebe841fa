import type { JudgeClient } from '../judge/index.js';
import { candidateId, chunkTextHash } from './ids.js';
import {
  adversarialRequest,
  goldenPromptVersion,
  questionsRequest,
  referencesRequest,
  type PromptChunks,
} from './prompts/build.js';
import { goldenTexts } from './prompts/texts.js';
import type { Candidate, Seed, Verdict } from './types.js';

/**
 * Generation for one seed: its questions (single-hop from the seed chunk, multi-hop over the seed and its related
 * chunks, adversarial from the seed chunk's facts), then the reference answers from the same chunks only. A
 * question the generator itself says its chunks do not answer is kept as a rejected candidate.
 */

export interface Generated {
  candidates: Candidate[];
  /** Verdicts decided at generation (a question without an answer in its chunks). */
  verdicts: Map<string, Verdict>;
}

export interface GenerateOptions {
  generator: JudgeClient;
  questions: number;
  /** Token budget of a prompt's chunks together. */
  budgetTokens: number;
  signal?: AbortSignal;
}

const withSignal = <T extends object>(request: T, signal?: AbortSignal): T =>
  signal ? { ...request, signal } : request;

export async function generateForSeed(seed: Seed, options: GenerateOptions): Promise<Generated> {
  const language = seed.chunks[0]!.language;
  const chunks: PromptChunks = { texts: seed.chunks.map((c) => c.text), language, budgetTokens: options.budgetTokens };
  const base = {
    seedKey: seed.key,
    stratum: seed.stratum,
    language,
    generator: options.generator.model,
    sourceChunkIds: seed.chunks.map((c) => c.id),
    sourceChunkHashes: seed.chunks.map((c) => chunkTextHash(c.text)),
  };
  const verdicts = new Map<string, Verdict>();

  if (seed.stratum === 'adversarial') {
    const { value } = await options.generator.structured(
      withSignal(adversarialRequest(chunks, options.questions), options.signal),
    );
    const promptVersion = goldenPromptVersion('adversarial', language);
    const candidates = value.map<Candidate>((q, index) => ({
      ...base,
      id: candidateId(seed.key, index),
      index,
      question: q.question.trim(),
      reference: q.kind === 'false_premise' ? q.correction.trim() : goldenTexts[language].unanswerableReference,
      adversarial: { kind: q.kind, premise: q.premise.trim() },
      promptVersion,
    }));
    return { candidates, verdicts };
  }

  const stratum = seed.stratum;
  const { value: questions } = await options.generator.structured(
    withSignal(questionsRequest(chunks, stratum, options.questions), options.signal),
  );
  const { value: references } = await options.generator.structured(
    withSignal(referencesRequest(chunks, questions), options.signal),
  );
  const promptVersion = goldenPromptVersion('questions', language);
  const candidates = questions.map<Candidate>((question, index) => {
    const ref = references[index]!;
    const candidate: Candidate = {
      ...base,
      id: candidateId(seed.key, index),
      index,
      question: question.trim(),
      reference: ref.answer.trim(),
      promptVersion,
    };
    if (!ref.answerable) {
      verdicts.set(candidate.id, {
        status: 'rejected',
        reason: 'not_answerable_from_source',
        detail: 'the generator found no answer in the chunks',
      });
    }
    return candidate;
  });
  return { candidates, verdicts };
}
