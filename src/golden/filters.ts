import { detectLanguage } from '../metrics/index.js';
import type { Candidate, Verdict } from './types.js';

/**
 * The filters that need no judge: malformed texts, questions that lean on the chunk they came from ("according
 * to the text"), the wrong language, and near-duplicates among all candidates (by embeddings, and by exact text).
 * Pure. Each rejection names its reason and a short detail that quotes no text.
 */

export interface TextFilterSettings {
  minQuestionChars: number;
  maxQuestionChars: number;
  maxReferenceChars: number;
}

const PLACEHOLDER = /<[A-Z][A-Z_]*_\d+>/;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\u2028\u2029]/u;
const MARKUP = /<\/?[a-z][\w-]*>|```/i;

/** Questions that only make sense next to the chunk they were written from. */
const DEICTIC = [
  /\b(?:this|that|the|above|following|given|provided|previous)\s+(?:fragment|chunk|text|passage|document|excerpt|snippet|section|context|paragraph)\b/i,
  /\baccording to (?:it|this|the (?:text|fragment|document|passage|context|chunk))\b/i,
  /\b(?:mentioned|described|stated) (?:above|here|in the (?:text|fragment|passage))\b/i,
  /\b(?:este|ese|el|dicho|el siguiente|el anterior)\s+(?:fragmento|texto|documento|pasaje|extracto|p[aá]rrafo|chunk)\b/i,
  /\bseg[uú]n (?:el|este|ese) (?:texto|fragmento|documento|pasaje|contexto)\b/i,
  /\b(?:lo|la|el) (?:anterior|mencionad[oa] arriba)\b|\bmencionad[oa] (?:arriba|anteriormente|en el texto)\b/i,
];

function textProblem(text: string, what: string, min: number, max: number): string | null {
  if (text.length < min) return `${what} too short (${text.length} characters)`;
  if (text.length > max) return `${what} too long (${text.length} characters)`;
  if (INVISIBLE.test(text)) return `${what} holds control or invisible characters`;
  if (PLACEHOLDER.test(text)) return `${what} holds a personal-data placeholder`;
  if (MARKUP.test(text)) return `${what} holds markup`;
  return null;
}

/** The first problem the text filters find, or acceptance (the judge filters come after). */
export function textVerdict(c: Candidate, s: TextFilterSettings): Verdict {
  const malformed = (detail: string): Verdict => ({ status: 'rejected', reason: 'malformed', detail });
  const q = c.question;
  if (/[\n\r]/.test(q.trim())) return malformed('question spans several lines');
  const problem =
    textProblem(q, 'question', s.minQuestionChars, s.maxQuestionChars) ??
    textProblem(c.reference, 'reference', 1, s.maxReferenceChars);
  if (problem) return malformed(problem);
  const marks = (q.match(/\?/g) ?? []).length;
  if (marks === 0) return malformed('not a question (no question mark)');
  if (marks > 1) return malformed('more than one question');
  if (q.replace(/\s+/g, ' ').toLowerCase() === c.reference.replace(/\s+/g, ' ').toLowerCase())
    return malformed('reference repeats the question');
  if (c.adversarial?.kind === 'false_premise') {
    if (c.adversarial.premise.trim() === '') return malformed('false premise without its premise');
    if (PLACEHOLDER.test(c.adversarial.premise) || INVISIBLE.test(c.adversarial.premise))
      return malformed('premise holds a placeholder or invisible characters');
  }
  if (DEICTIC.some((re) => re.test(q)))
    return {
      status: 'rejected',
      reason: 'ambiguous',
      detail: 'refers to "the text" or "the fragment" instead of naming what it asks about',
    };
  if ((q.match(/\p{L}+/gu) ?? []).length >= 4 && detectLanguage(q, c.language) !== c.language) {
    return {
      status: 'rejected',
      reason: 'wrong_language',
      detail: `question not in the chunks' language (${c.language})`,
    };
  }
  return { status: 'accepted' };
}

/**
 * Cosine of two vectors, each first scaled by its largest component so huge or tiny components neither overflow
 * nor vanish; `null` when a vector is empty, zero, not finite, or of another dimension.
 */
export function safeCosine(a: readonly number[], b: readonly number[]): number | null {
  if (a.length === 0 || a.length !== b.length) return null;
  const scale = (v: readonly number[]) => {
    let max = 0;
    for (const x of v) {
      if (!Number.isFinite(x)) return null;
      max = Math.max(max, Math.abs(x));
    }
    return max === 0 ? null : v.map((x) => x / max);
  };
  const x = scale(a);
  const y = scale(b);
  if (!x || !y) return null;
  let dot = 0;
  let nx = 0;
  let ny = 0;
  for (let i = 0; i < x.length; i++) {
    dot += x[i]! * y[i]!;
    nx += x[i]! * x[i]!;
    ny += y[i]! * y[i]!;
  }
  const c = dot / Math.sqrt(nx * ny);
  return Number.isFinite(c) ? Math.max(-1, Math.min(1, c)) : null;
}

export interface DuplicateInput {
  id: string;
  question: string;
  /** `null` when the embeddings server gave nothing usable: then only the exact text counts. */
  vector: readonly number[] | null;
}

/**
 * Near-duplicates: walking the candidates in the given order (earlier ones are kept), a question whose
 * normalised text equals an earlier one's, or whose cosine to an earlier kept one reaches `threshold`, is a
 * duplicate of it. Returns duplicate id → kept id.
 */
export function nearDuplicates(
  items: readonly DuplicateInput[],
  threshold: number,
): Map<string, { of: string; similarity: number }> {
  const kept: DuplicateInput[] = [];
  const byText = new Map<string, string>();
  const out = new Map<string, { of: string; similarity: number }>();
  for (const item of items) {
    const text = item.question
      .normalize('NFKC')
      .replace(/[\s¿?¡!.,;:]+/g, ' ')
      .trim()
      .toLowerCase();
    const same = byText.get(text);
    if (same !== undefined) {
      out.set(item.id, { of: same, similarity: 1 });
      continue;
    }
    let best: { of: string; similarity: number } | null = null;
    if (item.vector) {
      for (const k of kept) {
        if (!k.vector) continue;
        const c = safeCosine(item.vector, k.vector);
        if (c !== null && c >= threshold && (!best || c > best.similarity)) best = { of: k.id, similarity: c };
      }
    }
    if (best) {
      out.set(item.id, best);
      continue;
    }
    kept.push(item);
    byText.set(text, item.id);
  }
  return out;
}
