/**
 * The toy RAG's pipeline over the demo knowledge corpus: BM25 retrieval, an extractive answer made of the
 * context sentences that share most words with the question, and abstention when retrieval finds little.
 * `degraded` makes it worse the way real regressions look: the best chunk is lost and an off-topic one
 * comes in (noisier retrieval), and the generator adds a sentence no chunk supports (a hallucination),
 * and with distractor chunks it loses the grounded sentence altogether.
 */
import { createHash } from 'node:crypto';
import { KNOWLEDGE, searchKnowledge, terms } from '../corpus/knowledge.js';
import type { DemoLanguage } from '../corpus/types.js';
import { detectLanguage } from 'ragwatch/metrics/language.js';
import { splitSentences } from '../judge/lexical.js';

export interface ToyAnswer {
  answer: string;
  contexts: string[];
  sources: string[];
  abstained: boolean;
}

const ABSTAIN: Record<DemoLanguage, string> = {
  es: 'No tengo información suficiente en la documentación para responder a esa pregunta.',
  en: 'I do not have enough information in the documentation to answer that question.',
};

const HALLUCINATIONS: Record<DemoLanguage, string[]> = {
  es: [
    'Además, todos los clientes tienen asistencia técnica a domicilio gratuita las 24 horas del día.',
    'También se incluye un seguro contra robo de cinco años sin coste adicional para cualquier compra.',
  ],
  en: [
    'In addition, every customer gets free round-the-clock technician home visits.',
    'A five-year theft insurance is also included at no extra cost with any purchase.',
  ],
};

/** Share of the question's terms found in the retrieved chunks below which the toy abstains. */
const MIN_COVERAGE = 0.34;

export function answerQuestion(
  question: string,
  options: { degraded: boolean; distractors?: string[]; k?: number },
): ToyAnswer {
  const lang = detectLanguage(question, 'es');
  const k = options.k ?? 3;
  const hits = searchKnowledge(question, { lang, k: k + 2 });
  let chunks = hits.slice(0, k).map((h) => h.chunk);
  if (options.degraded) {
    const offTopic = KNOWLEDGE.filter((c) => c.lang === lang && !hits.some((h) => h.chunk.id === c.id));
    const pick = offTopic[hashOf(question) % Math.max(1, offTopic.length)];
    chunks = [...hits.slice(1, k).map((h) => h.chunk), ...(pick ? [pick] : [])];
  }
  const contexts = [...chunks.map((c) => c.text), ...(options.distractors ?? [])];
  const sources = chunks.map((c) => c.id);
  const qTerms = [...new Set(terms(question))].filter((t) => t !== 'lumora');
  const found = new Set(chunks.flatMap((c) => terms(`${c.title} ${c.text}`)));
  const coverage = qTerms.length === 0 ? 0 : qTerms.filter((t) => found.has(t)).length / qTerms.length;
  if (!options.degraded && (chunks.length === 0 || coverage < MIN_COVERAGE)) {
    return { answer: ABSTAIN[lang], contexts, sources, abstained: true };
  }
  const ranked = contexts
    .flatMap((text, ci) =>
      splitSentences(text).map((sentence, si) => ({ sentence, ci, si, score: overlap(qTerms, sentence) })),
    )
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.ci - b.ci || a.si - b.si);
  const take = options.degraded ? 1 : 2;
  const chosen = ranked
    .slice(0, take)
    .sort((a, b) => a.ci - b.ci || a.si - b.si)
    .map((s) => s.sentence);
  if (chosen.length === 0 && !options.degraded) return { answer: ABSTAIN[lang], contexts, sources, abstained: true };
  if (options.degraded) {
    // Distractors derail the degraded generator: it drops the grounded sentence and invents another one.
    if ((options.distractors ?? []).length > 0) chosen.splice(0, chosen.length, HALLUCINATIONS[lang][1]!);
    chosen.push(HALLUCINATIONS[lang][0]!);
  }
  return { answer: chosen.join(' '), contexts, sources, abstained: false };
}

function overlap(qTerms: string[], sentence: string): number {
  const s = new Set(terms(sentence));
  return qTerms.filter((t) => s.has(t)).length;
}

function hashOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}
