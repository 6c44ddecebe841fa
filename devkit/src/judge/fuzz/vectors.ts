/**
 * Fuzzed embedding vectors: one request's vectors, all of the served dimension and one per input (a wrong count
 * or dimension is a separate fault), but otherwise anything a working server may return — random directions,
 * vectors opposite to the first (cosine −1), nearly identical ones (cosine 1 to within 1e-10), nearly zero ones
 * (one tiny component), and components at the extremes of the float range (huge, tiny, subnormal) where a naive
 * cosine overflows or underflows. A zero vector, or the very same vector for two different texts, is a broken
 * server, not an answer: ragwatch refuses both as invalid responses, so the fuzzer sends neither.
 */

export const VECTOR_EDGES = [
  'vector_random',
  'vector_near_zero',
  'vector_opposite',
  'vector_near_identical',
  'vector_extreme',
] as const;
export type VectorEdge = (typeof VECTOR_EDGES)[number];

export interface VectorDraw {
  vectors: number[][];
  edges: VectorEdge[];
}

/** `float32`: the vectors go out as base64 float32, where 1e300 would become Infinity. */
export function fuzzVectors(count: number, dim: number, random: () => number, float32 = false): VectorDraw {
  const edges = new Set<VectorEdge>();
  const big = float32 ? 1e37 : 1e300;
  // Subnormal in float64 but with bits to spare: a vector of 5e-324s would have lost its direction (a zero vector).
  const tiny = float32 ? 1e-37 : 1e-310;
  const randomVector = () => Array.from({ length: dim }, () => random() * 2 - 1);
  const first = randomVector();
  const vectors = Array.from({ length: count }, (_, i) => {
    if (i === 0) {
      edges.add('vector_random');
      return first;
    }
    const r = random();
    if (r < 0.2) {
      edges.add('vector_near_zero');
      const v = new Array<number>(dim).fill(0);
      v[Math.floor(random() * dim)] = 1e-30 * (0.5 + random());
      return v;
    }
    if (r < 0.4) {
      edges.add('vector_opposite');
      // Scaled at random, so that two opposite vectors of one request are not the same vector.
      const scale = 0.5 + random();
      return first.map((x) => (x === 0 ? 0 : -x * scale));
    }
    if (r < 0.55) {
      edges.add('vector_near_identical');
      const v = [...first];
      const k = Math.floor(random() * dim);
      // A nudge float32 (base64) keeps too: 1e-5 of the component there, 1e-12 in float64.
      const nudge = float32 ? 1e-5 : 1e-12;
      v[k] = v[k]! === 0 ? nudge : v[k]! * (1 + nudge);
      return v;
    }
    if (r < 0.75) {
      edges.add('vector_extreme');
      const scale = random() < 0.5 ? big : tiny;
      return randomVector().map((x) => x * scale);
    }
    edges.add('vector_random');
    return randomVector();
  });
  return { vectors, edges: [...edges] };
}
