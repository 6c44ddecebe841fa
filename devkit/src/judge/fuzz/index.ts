/**
 * The stand-in's fuzzing mode: chat answers drawn at random from the whole space the request's JSON schema
 * allows, and embeddings drawn from the vector edge cases, from one seeded PRNG. Every chat draw is checked
 * against the schema with ajv before it leaves (an invalid draw is drawn again; the fuzzer never sends what
 * vLLM's structured output could not produce), and every edge class hit is counted for the tests.
 */
import { seededRandom } from '../random.js';
import { schemaErrors } from '../schema-check.js';
import { SchemaFuzzer, type FuzzEdge } from './schema-fuzzer.js';
import { fuzzVectors, type VectorEdge } from './vectors.js';

export { FUZZ_EDGES, SchemaFuzzer, type FuzzDraw, type FuzzEdge } from './schema-fuzzer.js';
export { fuzzVectors, VECTOR_EDGES, type VectorDraw, type VectorEdge } from './vectors.js';

/** Draws per answer before the fuzzer gives up (a schema it cannot satisfy, e.g. an unusual `pattern`). */
const MAX_DRAWS = 20;

export interface FuzzStats {
  /** Chat answers and embeddings requests answered by the fuzzer. */
  chatAnswers: number;
  embeddingAnswers: number;
  /** Draws ajv rejected and the fuzzer drew again (never sent). */
  redrawn: number;
  /** Valid draws longer than the request's max_tokens, drawn again. */
  tooLong: number;
  /** How many answers hit each edge class. */
  edges: Partial<Record<FuzzEdge | VectorEdge, number>>;
}

export class JudgeFuzzer {
  private readonly random: () => number;
  private readonly schemas: SchemaFuzzer;
  private readonly counts: FuzzStats = { chatAnswers: 0, embeddingAnswers: 0, redrawn: 0, tooLong: 0, edges: {} };

  constructor(seed = 1) {
    this.random = seededRandom(seed);
    this.schemas = new SchemaFuzzer(this.random);
  }

  /**
   * A value valid against `schema` (ajv), or an Error when none was found in `MAX_DRAWS` draws. `fits` says
   * whether a value fits the request's `max_tokens`: a model is cut off there, so a draw that does not fit is
   * drawn again; when none fits, the shortest is sent (and the server cuts it, as vLLM would).
   */
  answer(schema: Record<string, unknown>, fits: (value: unknown) => boolean = () => true): unknown {
    let last = '';
    let shortest: { value: unknown; edges: readonly (FuzzEdge | VectorEdge)[]; size: number } | undefined;
    for (let i = 0; i < MAX_DRAWS; i++) {
      const draw = this.schemas.draw(schema);
      const errors = schemaErrors(schema, draw.value);
      if (errors !== undefined) {
        this.counts.redrawn += 1;
        last = errors;
        continue;
      }
      if (fits(draw.value)) return this.sent(draw.value, draw.edges);
      this.counts.tooLong += 1;
      const size = JSON.stringify(draw.value).length;
      if (!shortest || size < shortest.size) shortest = { value: draw.value, edges: draw.edges, size };
    }
    if (shortest) return this.sent(shortest.value, shortest.edges);
    throw new Error(`the fuzzer found no value valid against the schema in ${MAX_DRAWS} draws (last: ${last})`);
  }

  private sent(value: unknown, edges: readonly (FuzzEdge | VectorEdge)[]): unknown {
    this.counts.chatAnswers += 1;
    this.count(edges);
    return value;
  }

  vectors(count: number, dim: number, float32: boolean): number[][] {
    const draw = fuzzVectors(count, dim, this.random, float32);
    this.counts.embeddingAnswers += 1;
    this.count(draw.edges);
    return draw.vectors;
  }

  stats(): FuzzStats {
    return { ...this.counts, edges: { ...this.counts.edges } };
  }

  private count(edges: readonly (FuzzEdge | VectorEdge)[]): void {
    for (const e of edges) this.counts.edges[e] = (this.counts.edges[e] ?? 0) + 1;
  }
}
