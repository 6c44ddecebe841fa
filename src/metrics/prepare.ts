/** Turns a RagSample into what the prompts show: the prompt language and every text fitted to its token budget. */
import type { RagSample } from '../sample.js';
import { fitChunks, fitText } from './budget.js';
import { decideLanguage, type NamedLanguage, type PromptLanguage, type SampleLanguage } from './language.js';
import { detectSampleLanguage } from './language-detect.js';

/** What scoring reads of the configuration's `metrics` section (callers pass the section). */
export interface MetricsOptions {
  /** Prompt language: `auto` detects it per sample. */
  language: 'auto' | 'es' | 'en';
  /** Languages scored (ISO 639-1); empty or absent: all. An undetermined sample is always scored. */
  allowedLanguages?: readonly string[];
  answerRelevancyQuestions: number;
  /** Token budgets: longer texts are truncated deterministically and flagged. */
  maxAnswerTokens: number;
  maxContextTokens: number;
  maxReferenceTokens: number;
  maxQuestionTokens: number;
  noiseSensitivityMode: 'relevant' | 'irrelevant';
}

export interface TruncationNote {
  originalTokens: number;
  keptTokens: number;
  /** Contexts only: chunks retrieved, sent (whole leading ones, the last possibly cut) and left out. */
  chunks?: number;
  keptChunks?: number;
  droppedChunks?: number;
}

export interface PreparedSample {
  traceId: string;
  /** The prompts' language: Spanish and English samples get their own, every other sample English. */
  language: PromptLanguage;
  /** A sample in another language: the English prompts name it and require the outputs in it. */
  named?: NamedLanguage;
  /** The sample's language as decided (code, name, how): recorded on every score. */
  sampleLanguage: SampleLanguage;
  question: string;
  answer: string;
  /** Whitespace-normalised chunks in retrieval order (one line each in the prompt). */
  contexts: string[];
  reference?: string;
  /** Fields cut to their budget; `contexts` sums every chunk. */
  truncated: Partial<Record<'question' | 'answer' | 'contexts' | 'reference', TruncationNote>>;
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The skip reason of a sample in a language `allowedLanguages` leaves out. */
export const LANGUAGE_NOT_ALLOWED = 'language_not_allowed';

/** Whether `allowedLanguages` lets the sample be scored (its language decided as scoring decides it). */
export function languageAllowed(
  sample: Pick<RagSample, 'question' | 'answer' | 'language'>,
  options: Pick<MetricsOptions, 'language' | 'allowedLanguages'>,
): boolean {
  const allowed = options.allowedLanguages ?? [];
  if (allowed.length === 0) return true;
  const { language } = decideLanguage(options.language, sample, detectSampleLanguage);
  return language.source === 'undetermined' || allowed.includes(language.code);
}

export function prepareSample(sample: RagSample, options: MetricsOptions): PreparedSample {
  const truncated: PreparedSample['truncated'] = {};
  const fit = (field: 'question' | 'answer' | 'reference', text: string, budget: number): string => {
    const f = fitText(text, budget);
    if (f.truncated) truncated[field] = { originalTokens: f.originalTokens, keptTokens: f.keptTokens };
    return f.text;
  };
  const question = fit('question', normalise(sample.question), options.maxQuestionTokens);
  const answer = fit(
    'answer',
    sample.answer
      .trim()
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{2,}/g, '\n'),
    options.maxAnswerTokens,
  );
  // Empty chunks stay: positions matter to precision and chunk numbers must match the sample's contexts. Chunks
  // past the budget are left out (never sent as empty ones), so the numbers of those sent still match.
  const chunks = fitChunks(sample.contexts.map(normalise), options.maxContextTokens);
  if (chunks.truncated) {
    truncated.contexts = {
      originalTokens: chunks.originalTokens,
      keptTokens: chunks.chunks.reduce((s, c) => s + c.keptTokens, 0),
      chunks: sample.contexts.length,
      keptChunks: chunks.chunks.length,
      droppedChunks: chunks.droppedChunks,
    };
  }
  const ref = sample.reference === undefined ? undefined : normalise(sample.reference);
  const decided = decideLanguage(options.language, sample, detectSampleLanguage);
  return {
    traceId: sample.traceId,
    language: decided.prompt,
    ...(decided.named ? { named: decided.named } : {}),
    sampleLanguage: decided.language,
    question,
    answer,
    contexts: chunks.chunks.map((c) => c.text),
    reference: ref === undefined || ref === '' ? undefined : fit('reference', ref, options.maxReferenceTokens),
    truncated,
  };
}
