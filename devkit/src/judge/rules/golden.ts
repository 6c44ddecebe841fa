/**
 * Stand-in rules for ragwatch's golden-set generation prompts (`ragwatch_golden_*`), deterministic and lexical so
 * a build is reproducible and every filter has something to catch:
 * - questions: one per sentence of chunk [1] (the longest sentences first, cycling when there are fewer, which
 *   repeats a question: a near-duplicate); a multi-hop question joins keywords of the best sentence of every
 *   chunk. One question in four (by position and the chunk's sentence count) is a yes/no question restating its
 *   sentence — trivial — and one in seven leans on "the text" — ambiguous;
 * - references: for each question and chunk, the chunk's sentence holding most of the question's content
 *   words (≥ 25 %); no such sentence: not answerable;
 * - adversarial: a false premise doubles the first number of a sentence of chunk [1] (the sentence is the
 *   correction); an unanswerable question asks whether the chunk's subject is available in Japan;
 * - closed book: only a yes/no question that holds its own answer is "known" (answered by restating it);
 *   anything else is unknown;
 * - adversarial check: a chunk supports a statement when it holds ≥ 60 % of its content words and every number
 *   and name (a capitalised word inside the sentence) of it.
 */
import { contentWords, coverage, detectLanguage, fold, keywords, splitSentences, words } from '../lexical.js';
import type { JudgeRequest, JudgeRule } from '../types.js';

function tag(text: string, name: string): string {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
  return m ? (m[1] ?? '').trim() : '';
}

function numbered(block: string, pattern: RegExp): string[] {
  return [...block.matchAll(pattern)].map((m) => (m[1] ?? '').trim());
}

const chunksOf = (user: string) => numbered(tag(user, 'chunks'), /^\[\d+\] ?(.*)$/gm);
const questionsOf = (user: string) => numbered(tag(user, 'questions'), /^\d+\. (.*)$/gm);

/** Rows a schema asks for: `minItems` of the array property, else its `prefixItems` length. */
function rowsWanted(request: JudgeRequest, property: string): number {
  const p = ((request.schema?.properties ?? {}) as Record<string, { minItems?: number; prefixItems?: unknown[] }>)[
    property
  ];
  return p?.minItems ?? p?.prefixItems?.length ?? 0;
}

/** A chunk's sentences, longest (most content words) first, ties in reading order. */
function rankedSentences(text: string): string[] {
  return splitSentences(text)
    .map((s, i) => ({ s, i, n: contentWords(s).length }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .map((x) => x.s);
}

const stripEnd = (s: string) => s.replace(/[\s.;:!]+$/u, '');
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
/** The sentence's first content words, its opening word lower-cased unless it is a name or an acronym. */
const keys = (sentence: string, n = 5) =>
  keywords(/^\p{Lu}\p{Ll}/u.test(sentence) ? lowerFirst(sentence) : sentence, n).join(' ');

function singleHop(sentence: string, lang: 'es' | 'en', position: number, sentences: number): string {
  if ((position + sentences) % 4 === 3)
    return lang === 'es'
      ? `¿Es cierto que ${lowerFirst(stripEnd(sentence))}?`
      : `Is it true that ${lowerFirst(stripEnd(sentence))}?`;
  if ((position + sentences) % 7 === 5)
    return lang === 'es'
      ? `Según el texto, ¿qué se sabe sobre ${keys(sentence)}?`
      : `According to the text, what is said about ${keys(sentence)}?`;
  return lang === 'es' ? `¿Qué se sabe sobre ${keys(sentence)}?` : `What can you tell me about ${keys(sentence)}?`;
}

const LEAKY = [/^¿Es cierto que (.+)\?$/u, /^Is it true that (.+)\?$/iu];

/** Numbers and names (capitalised words not opening the text) a supporting chunk must contain. */
function anchors(statement: string): string[] {
  const out = new Set<string>();
  for (const m of statement.matchAll(/[\p{L}\p{N}]+(?:[.,]\p{N}+)*/gu)) {
    const w = m[0];
    const opening = statement.slice(0, m.index).replace(/[¿¡"'(\s]/gu, '') === '';
    if (/\p{N}/u.test(w) || (/^\p{Lu}/u.test(w) && !opening)) out.add(fold(w));
  }
  return [...out];
}

function supports(statement: string, chunk: string): boolean {
  const have = new Set(words(chunk));
  return coverage(statement, chunk) >= 0.6 && anchors(statement).every((a) => have.has(a));
}

const byName = (name: string, description: string, answer: (r: JudgeRequest) => unknown): JudgeRule => ({
  name: `ragwatch:golden_${name}`,
  description,
  matches: (r) => r.schemaName === `ragwatch_golden_${name}`,
  answer,
});

export const goldenRules: JudgeRule[] = [
  byName(
    'questions',
    'a question per sentence of chunk [1] (multi-hop: keywords of every chunk); some trivial, some ambiguous',
    (r) => {
      const chunks = chunksOf(r.lastUser);
      const count = rowsWanted(r, 'questions');
      const lang = detectLanguage(chunks.join(' '));
      const multi = /TASK: multi_hop/.test(r.lastUser) && chunks.length > 1;
      const first = rankedSentences(chunks[0] ?? '');
      return {
        questions: Array.from({ length: count }, (_, i) => {
          if (multi) {
            const parts = chunks.map((c) =>
              keys(rankedSentences(c)[i % Math.max(1, rankedSentences(c).length)] ?? c, 3),
            );
            return {
              question:
                lang === 'es'
                  ? `¿Qué se sabe sobre ${parts.join(' y ')}?`
                  : `What can you tell me about ${parts.join(' and ')}?`,
            };
          }
          const sentence = first[i % Math.max(1, first.length)] ?? chunks[0] ?? '';
          return { question: singleHop(sentence, lang, i, first.length) };
        }),
      };
    },
  ),
  byName('references', 'per question, the best-covering sentence of each chunk; none: not answerable', (r) => {
    const chunks = chunksOf(r.lastUser);
    const questions = questionsOf(r.lastUser);
    const count = rowsWanted(r, 'answers');
    return {
      answers: Array.from({ length: count }, (_, i) => {
        const q = questions[i] ?? '';
        const picked = chunks.flatMap((c) => {
          const best = splitSentences(c)
            .map((s) => ({ s, score: coverage(q, s) }))
            .sort((a, b) => b.score - a.score)[0];
          return best && best.score >= 0.25 ? [best.s] : [];
        });
        return { question: i + 1, answerable: picked.length > 0 ? 1 : 0, answer: picked.join(' ') };
      }),
    };
  }),
  byName(
    'adversarial',
    'false premises (a doubled number of chunk [1]) alternating with questions about Japan',
    (r) => {
      const chunk = chunksOf(r.lastUser)[0] ?? '';
      const count = rowsWanted(r, 'questions');
      const lang = detectLanguage(chunk);
      const sentences = splitSentences(chunk);
      const withNumbers = sentences.filter((s) => /\d/.test(s));
      const subject = keys(sentences[0] ?? chunk, 3);
      return {
        questions: Array.from({ length: count }, (_, i) => {
          const sentence = withNumbers[Math.floor(i / 2) % Math.max(1, withNumbers.length)];
          if (i % 2 === 0 && sentence) {
            const premise = stripEnd(sentence).replace(/\d+/, (n) => String(Number(n) === 0 ? 1 : Number(n) * 2));
            const question =
              lang === 'es' ? `¿Por qué ${lowerFirst(premise)}?` : `Why is it that ${lowerFirst(premise)}?`;
            return { kind: 'false_premise', question, premise: `${premise}.`, correction: sentence };
          }
          const question =
            lang === 'es' ? `¿Está disponible ${subject} en Japón?` : `Is ${subject} available in Japan?`;
          return { kind: 'unanswerable', question, premise: '', correction: '' };
        }),
      };
    },
  ),
  byName('closed_book', 'known only for a yes/no question holding its own answer, answered by restating it', (r) => {
    const question = tag(r.lastUser, 'question');
    const leak = LEAKY.map((re) => re.exec(question)).find(Boolean);
    if (!leak) return { known: 0, answer: '' };
    const statement = leak[1] ?? '';
    const es = LEAKY[0]!.test(question);
    return { known: 1, answer: `${es ? 'Sí' : 'Yes'}, ${statement}.` };
  }),
  byName(
    'support',
    'a chunk supports a statement holding ≥60 % of its content words and all its numbers and names',
    (r) => {
      const statement = tag(r.lastUser, 'statement');
      const chunks = chunksOf(r.lastUser);
      const count = rowsWanted(r, 'chunks');
      return {
        chunks: Array.from({ length: count }, (_, i) => ({
          chunk: i + 1,
          supports: supports(statement, chunks[i] ?? '') ? 1 : 0,
        })),
      };
    },
  ),
];
