import { type JudgeClient, JudgeCallError } from '../judge/index.js';
import type { MetricResult } from '../metrics/index.js';
import type { FaithfulnessCheck } from './ports.js';
import { closedBookRequest, supportRequest } from './prompts/build.js';
import type { Retrieval } from './retrieval.js';
import type { Candidate, Chunk, Verdict } from './types.js';

/**
 * The filters that ask the judge, after the text filters passed:
 * - the reference must be supported by its chunks (faithfulness ≥ `referenceSupport`); a multi-hop reference must
 *   draw on every one of its chunks;
 * - a question the generator answers correctly closed-book is trivial: its closed-book answer is judged against
 *   the chunks by the same faithfulness machinery (≥ `trivialFaithfulness`);
 * - an adversarial question must stay unanswerable: the nearest chunks of the corpus (embeddings) are shown to
 *   the judge, and none may support the false premise or answer the question.
 * A judge call that fails after its retries propagates: the seed is retried by the next build, never judged.
 */

export interface CheckSettings {
  referenceSupport: number;
  trivialFaithfulness: number;
  adversarialNeighbours: number;
}

export interface CheckDeps {
  generator: JudgeClient;
  judge: JudgeClient;
  faithfulness: FaithfulnessCheck;
  retrieval: Retrieval;
  settings: CheckSettings;
  budgetTokens: number;
  signal?: AbortSignal;
}

const reject = (reason: Extract<Verdict, { status: 'rejected' }>['reason'], detail: string): Verdict => ({
  status: 'rejected',
  reason,
  detail,
});

/** A failed metric is the judge failing: raised so the seed is retried, never read as a verdict. */
function scoredOrThrow(result: MetricResult): MetricResult & { status: 'scored' | 'not_scorable' } {
  if (result.status === 'failed')
    throw new JudgeCallError(`faithfulness: ${result.error}`, result.retryable, result.kind ?? 'internal', 0);
  return result;
}

function citedChunks(result: MetricResult): Set<number> {
  if (result.status !== 'scored') return new Set();
  const claims = (result.details.claims ?? []) as Array<{ supported: boolean; chunks: number[] }>;
  return new Set(claims.filter((c) => c.supported).flatMap((c) => c.chunks));
}

export async function judgeVerdict(candidate: Candidate, chunks: readonly Chunk[], deps: CheckDeps): Promise<Verdict> {
  const s = deps.settings;
  const language = candidate.language;
  const texts = chunks.map((c) => c.text);
  const faithful = (answer: string, contexts: string[]) =>
    deps.faithfulness({ question: candidate.question, answer, contexts, language }).then(scoredOrThrow);

  if (candidate.adversarial) {
    const { kind, premise } = candidate.adversarial;
    const seed = chunks[0]!;
    if (kind === 'false_premise') {
      const support = await faithful(candidate.reference, [seed.text]);
      if (support.status !== 'scored' || support.value < s.referenceSupport) {
        return reject(
          'unsupported_reference',
          `the correction's faithfulness to its chunk is ${describe(support)}, below ${s.referenceSupport}`,
        );
      }
    }
    const statement = kind === 'false_premise' ? premise : candidate.question;
    const near = await deps.retrieval.nearest(
      statement,
      s.adversarialNeighbours,
      { id: seed.id, text: seed.text },
      deps.signal,
    );
    const mode = kind === 'false_premise' ? 'false_premise' : 'answers_question';
    const request = supportRequest(statement, mode, {
      texts: near.map((c) => c.text),
      language,
      budgetTokens: deps.budgetTokens,
    });
    const { value } = await deps.judge.structured(deps.signal ? { ...request, signal: deps.signal } : request);
    const supporting = near.filter((_, i) => value[i]);
    if (supporting.length > 0) {
      const what = kind === 'false_premise' ? 'supports the premise' : 'answers it';
      return reject(
        'adversarial_answerable',
        `${supporting.length} of the ${near.length} nearest chunks ${what} (${supporting.map((c) => c.id).join(', ')})`,
      );
    }
    return { status: 'accepted' };
  }

  const support = await faithful(candidate.reference, texts);
  if (support.status !== 'scored' || support.value < s.referenceSupport) {
    return reject(
      'unsupported_reference',
      `the reference's faithfulness to its chunks is ${describe(support)}, below ${s.referenceSupport}`,
    );
  }
  if (candidate.stratum === 'multi-hop') {
    const cited = citedChunks(support);
    const unused = texts.flatMap((_, i) => (cited.has(i + 1) ? [] : [chunks[i]!.id]));
    if (unused.length > 0) return reject('not_multi_hop', `the reference does not draw on ${unused.join(', ')}`);
  }

  const closed = closedBookRequest(candidate.question, language);
  const { value: book } = await deps.generator.structured(deps.signal ? { ...closed, signal: deps.signal } : closed);
  if (book.known && book.answer.trim() !== '') {
    const judged = await faithful(book.answer, texts);
    if (judged.status === 'scored' && judged.value >= s.trivialFaithfulness) {
      return reject('trivial', `answered without the corpus, faithfulness ${judged.value.toFixed(2)} to the chunks`);
    }
  }
  return { status: 'accepted' };
}

function describe(result: MetricResult): string {
  return result.status === 'scored' ? result.value.toFixed(2) : 'not measurable (no claims)';
}
