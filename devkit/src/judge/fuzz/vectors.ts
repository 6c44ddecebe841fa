/**
 * Fuzzed embedding vectors: one request's vectors, all of the served dimension and one per input (a wrong count
 * or dimension is a separate fault), but otherwise anything a server may return — random directions, zero
 * vectors, vectors opposite to the first (cosine −1), identical ones (cosine 1), and components at the
 * extremes of the float range (huge, tiny, subnormal) where a naive cosine overflows or underflows.
 */

export const VECTOR_EDGES = [
  'vector_random',
  'vector_zero',
  'vector_opposite',
  'vector_identical',
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
  const tiny = float32 ? 1e-37 : 5e-324;
  const randomVector = () => Array.from({ length: dim }, () => random() * 2 - 1);
  const first = randomVector();
  const vectors = Array.from({ length: count }, (_, i) => {
    if (i === 0) {
      edges.add('vector_random');
      return first;
    }
    const r = random();
    if (r < 0.2) {
      edges.add('vector_zero');
      return new Array<number>(dim).fill(0);
    }
    if (r < 0.4) {
      edges.add('vector_opposite');
      return first.map((x) => (x === 0 ? 0 : -x));
    }
    if (r < 0.55) {
      edges.add('vector_identical');
      return [...first];
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
