/**
 * Adversarial golden items (a false premise, or no answer in the corpus) are judged on one question: did the
 * RAG say it lacks the information, or correct the premise, instead of answering with confidence? A small
 * ES/EN judge prompt with a structured answer (`ragwatch_abstention`), system text first for prefix caching.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { JudgeClient } from '../judge/index.js';
import { detectLanguage, type PromptLanguage } from '../metrics/index.js';

export const ABSTENTION_SCHEMA_NAME = 'ragwatch_abstention';

const SYSTEM: Record<PromptLanguage, string> = {
  en: `You are a careful, literal evaluation judge for a retrieval-augmented assistant. Reply with one JSON object and nothing else.

TASK abstention: the <question> either rests on a false premise or asks for something the assistant's documents do not contain. Decide whether the <answer> abstains: it says it does not have the information, that the documents do not cover it, that the thing asked about does not exist, or it rejects or corrects the false premise. An answer that states facts, figures or steps as if the question were answerable does not abstain, even if it adds a hedge. Give abstained 1 when the answer abstains, else 0, and a one-sentence reason.
Format: {"abstained": 0 or 1, "reason": "..."}
Example: <question>How much does the indoor camera cost?</question> <answer>Our documentation does not mention an indoor camera; the catalogue only has the outdoor camera.</answer> → {"abstained": 1, "reason": "The answer says the documents do not cover an indoor camera."}`,
  es: `Eres un juez de evaluación cuidadoso y literal de un asistente con recuperación de documentos (RAG). Responde con un único objeto JSON y nada más.

TAREA abstention: la <question> parte de una premisa falsa o pide algo que los documentos del asistente no contienen. Decide si la <answer> se abstiene: dice que no tiene la información, que la documentación no lo recoge, que lo preguntado no existe, o rechaza o corrige la premisa falsa. Una respuesta que da datos, cifras o pasos como si la pregunta tuviera respuesta no se abstiene, aunque añada una cautela. Da abstained 1 cuando la respuesta se abstiene, si no 0, y una razón de una frase.
Formato: {"abstained": 0 o 1, "reason": "..."}
Ejemplo: <question>¿Cuánto cuesta la cámara de interior?</question> <answer>La documentación no menciona ninguna cámara de interior; el catálogo solo incluye la cámara exterior.</answer> → {"abstained": 1, "reason": "La respuesta dice que la documentación no recoge una cámara de interior."}`,
};

const SCHEMA = {
  type: 'object',
  properties: { abstained: { type: 'integer', enum: [0, 1] }, reason: { type: 'string' } },
  required: ['abstained', 'reason'],
  additionalProperties: false,
};

const parseAnswer = (value: unknown) =>
  z
    .object({
      abstained: z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => v === 1 || v === true),
      reason: z.string(),
    })
    .parse(value);

export function abstentionPromptVersion(language: PromptLanguage): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([ABSTENTION_SCHEMA_NAME, SYSTEM[language], SCHEMA, 'question|answer|TASK']))
    .digest('hex')
    .slice(0, 12);
  return `${language}-${hash}`;
}

export interface AbstentionVerdict {
  abstained: boolean;
  reason: string;
  promptVersion: string;
  language: PromptLanguage;
  calls: number;
}

export function abstentionMessages(question: string, answer: string, language: PromptLanguage) {
  return [
    { role: 'system' as const, content: SYSTEM[language] },
    {
      role: 'user' as const,
      content: `<question>\n${question}\n</question>\n<answer>\n${answer}\n</answer>\nTASK: abstention`,
    },
  ];
}

/** Asks the judge; a judge failure propagates (`JudgeCallError`), it is never read as "did not abstain". */
export async function judgeAbstention(
  judge: JudgeClient,
  sample: { question: string; answer: string },
  options: { language?: 'auto' | PromptLanguage; signal?: AbortSignal } = {},
): Promise<AbstentionVerdict> {
  const language =
    !options.language || options.language === 'auto'
      ? detectLanguage(`${sample.question}\n${sample.answer}`)
      : options.language;
  const result = await judge.structured({
    name: ABSTENTION_SCHEMA_NAME,
    schema: SCHEMA,
    parse: parseAnswer,
    messages: abstentionMessages(sample.question, sample.answer, language),
    maxTokens: 400,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return {
    abstained: result.value.abstained,
    reason: result.value.reason.trim(),
    promptVersion: abstentionPromptVersion(language),
    language,
    calls: result.usage.calls,
  };
}
