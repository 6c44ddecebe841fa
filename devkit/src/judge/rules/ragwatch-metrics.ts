/**
 * Stand-in rules answering ragwatch's own metric prompts (schema names `ragwatch_*`) with transparent lexical
 * logic, so demo numbers move sensibly with the text:
 * - claims / statements are the sentences of the answer / reference;
 * - a text is supported by a chunk when most (≥ 60 %) of its content words appear in it, and by the
 *   contexts when most appear in all chunks joined;
 * - a chunk is useful when it covers at least half of some sentence of the reference;
 * - generated questions are built from the answer's sentences; evasive answers are noncommittal.
 */
import { coverage, detectLanguage, questionFor, splitSentences } from '../lexical.js';
import type { JudgeRequest, JudgeRule } from '../types.js';

const SUPPORT = 0.6;
const PARTIAL = 0.3;
const USEFUL = 0.5;

interface RagwatchPrompt {
  answer?: string;
  question?: string;
  contexts: string[];
  reference?: string;
  claims: string[];
  questionCount: number;
}

function tag(text: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
  return m ? (m[1] ?? '').trim() : undefined;
}

/** Reads the tagged sample of a ragwatch prompt (see src/metrics/prompts/build.ts for the layout). */
export function readRagwatchPrompt(user: string): RagwatchPrompt {
  const contextsText = tag(user, 'contexts') ?? '';
  const contexts = [...contextsText.matchAll(/^\[(\d+)\] ?(.*)$/gm)].map((m) => m[2] ?? '');
  const claims = [...(tag(user, 'claims') ?? '').matchAll(/^\d+\. (.*)$/gm)].map((m) => m[1] ?? '');
  const count = /TASK: answer_relevancy \((\d+)/.exec(user);
  const parsed: RagwatchPrompt = { contexts, claims, questionCount: count ? Number(count[1]) : 3 };
  const answer = tag(user, 'answer');
  const question = tag(user, 'question');
  const reference = tag(user, 'reference');
  if (answer !== undefined) parsed.answer = answer;
  if (question !== undefined) parsed.question = question;
  if (reference !== undefined) parsed.reference = reference;
  return parsed;
}

const EVASIVE = [
  /\bi (?:do not|don't|dont) know\b/i,
  /\bi(?:'m| am) (?:not sure|unsure|uncertain)\b/i,
  /\b(?:cannot|can't|can not|unable to) (?:answer|say|tell|determine|provide)\b/i,
  /\bnot (?:enough|sufficient) information\b/i,
  // "no sé" needs its accent or "lo": "no se asigna" is an ordinary Spanish statement.
  /\bno (?:lo )?sé(?!\p{L})|\bno lo se\b/iu,
  /\bno estoy segur[oa]\b/i,
  /\bno (?:puedo|podemos|es posible) (?:responder|decir|determinar|confirmar|asegurar)\b/i,
  /\bno (?:tengo|dispongo de) (?:suficiente )?informaci[oó]n\b/i,
  // "It depends." as the answer, not "performance depends on the disk".
  /^\W*(?:it depends|depende)\b/i,
];

/** Evasive answers: "I don't know", "it depends", "no estoy seguro", "no lo sé". */
export function isEvasive(text: string): boolean {
  return EVASIVE.some((re) => re.test(text));
}

function sentencesOf(text: string | undefined): string[] {
  return splitSentences(text ?? '').filter((s) => !isEvasive(s));
}

/** Chunks (1-based) that back a statement: those covering most of it, else those covering part of it when together they do. */
function supportingChunks(statement: string, contexts: string[]): { chunks: number[]; supported: boolean } {
  const strong = contexts.flatMap((c, i) => (coverage(statement, c) >= SUPPORT ? [i + 1] : []));
  const supported = strong.length > 0 || coverage(statement, contexts.join('\n')) >= SUPPORT;
  if (strong.length > 0 || !supported) return { chunks: strong, supported };
  return { chunks: contexts.flatMap((c, i) => (coverage(statement, c) >= PARTIAL ? [i + 1] : [])), supported };
}

function bySchema(
  name: string,
  answer: (p: RagwatchPrompt, request: JudgeRequest) => unknown,
  description: string,
): JudgeRule {
  return {
    name: `ragwatch:${name}`,
    description,
    matches: (r) => r.schemaName === `ragwatch_${name}`,
    answer: (r) => answer(readRagwatchPrompt(r.lastUser), r),
  };
}

export const ragwatchMetricRules: JudgeRule[] = [
  bySchema(
    'faithfulness',
    (p) => ({
      claims: sentencesOf(p.answer).map((claim) => {
        const s = supportingChunks(claim, p.contexts);
        return { claim, chunks: s.chunks, verdict: s.supported ? 1 : 0 };
      }),
    }),
    'claims = sentences of the answer; supported when ≥60 % of a claim’s content words are in the contexts',
  ),
  bySchema(
    'answer_relevancy',
    (p) => {
      const answer = p.answer ?? '';
      const language = detectLanguage(answer);
      const noncommittal = isEvasive(answer) ? 1 : 0;
      return {
        questions: Array.from({ length: p.questionCount }, (_, i) => ({
          question: questionFor(answer, language, i),
          noncommittal,
        })),
      };
    },
    'questions built from the answer’s sentences; noncommittal when the answer is evasive',
  ),
  bySchema(
    'context_precision',
    (p) => {
      const refSentences = sentencesOf(p.reference);
      return {
        chunks: p.contexts.map((c, i) => ({
          chunk: i + 1,
          useful: refSentences.some((s) => coverage(s, c) >= USEFUL) ? 1 : 0,
        })),
      };
    },
    'a chunk is useful when it covers ≥50 % of the content words of some reference sentence',
  ),
  bySchema(
    'context_recall',
    (p) => ({
      statements: sentencesOf(p.reference).map((statement) => {
        const s = supportingChunks(statement, p.contexts);
        return { statement, chunks: s.chunks, attributed: s.supported ? 1 : 0 };
      }),
    }),
    'statements = sentences of the reference; attributed when ≥60 % of their content words are in the contexts',
  ),
  bySchema(
    'claims_in_reference',
    (p) => ({
      claims: p.claims.map((c, i) => ({ claim: i + 1, verdict: coverage(c, p.reference ?? '') >= SUPPORT ? 1 : 0 })),
    }),
    'a claim is in the reference when ≥60 % of its content words appear there',
  ),
];
