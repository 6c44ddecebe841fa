/**
 * The seeds' worked Redis example. The first seed only summarises the five retrieved chunks; C1–C5 are
 * written to match its description: C1 in-memory sub-millisecond GET, C2 clustering past one node's RAM,
 * C3 noise (persistence), C4 P99 < 1 ms on a LAN with 10 GB, C5 RedisJSON as a Redis Stack module.
 */
import type { JudgeServer } from '@ragwatch/devkit/judge/index.js';
import type { RagSample } from '../../../src/sample.js';

export const redisSample: RagSample = {
  traceId: 'redis-worked-example',
  question: '¿Qué garantías de latencia ofrece Redis para operaciones de lectura en memoria con un dataset de 10 GB?',
  answer:
    'Redis garantiza latencias sub-milisegundo para operaciones GET en datasets que caben en RAM. Con 10 GB de dataset y clientes en la misma red local, P99 está típicamente por debajo de 1 ms. Redis también soporta clustering horizontal para escalar más allá de la RAM de un nodo. Además, Redis incluye soporte nativo para JSON desde la versión 7.2.',
  contexts: [
    'C1: Redis mantiene todo el dataset en memoria principal, por lo que las lecturas GET sobre datos que caben en RAM se completan en tiempos sub-milisegundo.',
    'C2: Redis Cluster reparte las claves entre varios nodos (sharding horizontal), lo que permite escalar el dataset más allá de la RAM de un único nodo.',
    'C3: Redis ofrece dos mecanismos de persistencia, instantáneas RDB y el registro AOF, configurables según la durabilidad que se necesite.',
    'C4: En pruebas con un dataset de 10 GB residente en RAM y clientes en la misma red local, el percentil 99 de latencia de GET se mantuvo por debajo de 1 ms.',
    'C5: RedisJSON es un módulo que se distribuye con Redis Stack y añade un tipo de dato JSON; no forma parte del núcleo de Redis.',
  ],
  reference:
    'Redis opera completamente en memoria, lo que garantiza latencias sub-milisegundo para GET. En redes locales con datasets de 10 GB en RAM, el P99 se sitúa por debajo de 1 ms. El clustering permite escalar más allá de la RAM de un único nodo.',
  meta: {},
};

export const redisClaims = {
  claims: [
    { claim: 'Redis garantiza latencias sub-milisegundo para GET en datasets en RAM.', chunks: [1, 4], verdict: 1 },
    { claim: 'Con 10 GB en LAN, el P99 de Redis es menor de 1 ms.', chunks: [4], verdict: 1 },
    { claim: 'Redis soporta clustering horizontal para escalar más allá de la RAM.', chunks: [2], verdict: 1 },
    { claim: 'Redis incluye soporte nativo para JSON desde la versión 7.2.', chunks: [], verdict: 0 },
  ],
};

export const redisStatements = {
  statements: [
    { statement: 'Redis opera en memoria y GET tarda menos de 1 ms.', chunks: [1], attributed: 1 },
    { statement: 'El P99 es menor de 1 ms en LAN con 10 GB.', chunks: [4], attributed: 1 },
    { statement: 'El clustering escala más allá de la RAM de un nodo.', chunks: [2], attributed: 1 },
  ],
};

/** C1, C2 and C4 useful; C3 and C5 noise. */
export const redisUsefulness = {
  chunks: [
    { chunk: 1, useful: 1 },
    { chunk: 2, useful: 1 },
    { chunk: 3, useful: 0 },
    { chunk: 4, useful: 1 },
    { chunk: 5, useful: 0 },
  ],
};

export const redisQuestions = [
  { question: '¿Qué latencias ofrece Redis para lecturas en memoria?', cosine: 0.91 },
  { question: '¿Cómo escala Redis horizontalmente?', cosine: 0.74 },
  { question: '¿Qué módulos JSON incluye Redis?', cosine: 0.52 },
];

/** Unit vectors: the question is e1, each generated question has exactly its cosine with it. */
function vectorWithCosine(c: number, dim = 8): number[] {
  const v = new Array<number>(dim).fill(0);
  v[0] = c;
  v[1] = Math.sqrt(1 - c * c);
  return v;
}

/** Scripts the stand-in to answer every ragwatch prompt as the seed describes. */
export function scriptRedisExample(server: JudgeServer): void {
  server.script
    .answer({ schema: 'ragwatch_faithfulness', value: redisClaims })
    .answer({ schema: 'ragwatch_context_recall', value: redisStatements })
    .answer({ schema: 'ragwatch_context_precision', value: redisUsefulness })
    .answer({
      schema: 'ragwatch_answer_relevancy',
      value: { questions: redisQuestions.map((q) => ({ question: q.question, noncommittal: 0 })) },
    })
    .embedding(redisSample.question, vectorWithCosine(1));
  for (const q of redisQuestions) server.script.embedding(q.question, vectorWithCosine(q.cosine));
}
