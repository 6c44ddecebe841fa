import { createHash } from 'node:crypto';
import type { RagwatchConfig } from '../../../src/config/schema.js';
import { seedDemo, type SeedDemoSummary } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import type { DemoTrace } from '@ragwatch/devkit/corpus/index.js';
import { parseConfig } from '../../helpers/config.js';

export type Personality = 'v3' | 'v4';

export interface Stack {
  lf: LangfuseServer;
  judge: JudgeServer;
  close(): Promise<void>;
}

export async function startStack(
  personality: Personality,
  options: { now?: () => number; judgeParallelism?: number } = {},
): Promise<Stack> {
  const lf = await startLangfuseServer({
    personality,
    host: '127.0.0.1',
    port: 0,
    ...(options.now ? { now: options.now } : {}),
  });
  const judge = await startJudgeServer({
    host: '127.0.0.1',
    port: 0,
    ...(options.judgeParallelism ? { parallelism: options.judgeParallelism } : {}),
  });
  return {
    lf,
    judge,
    close: async () => {
      await Promise.all([lf.close(), judge.close()]);
    },
  };
}

/** Configuration pointing at the stack; `extra` is merged per section. */
export function stackConfig(stack: Stack, extra: Record<string, Record<string, unknown>> = {}): RagwatchConfig {
  const base: Record<string, Record<string, unknown>> = {
    langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
    judge: { baseUrl: stack.judge.url, model: stack.judge.model },
    embeddings: { model: stack.judge.embeddingModel },
    sampling: { rate: 0.1 },
    log: { level: 'silent' },
  };
  for (const [section, values] of Object.entries(extra)) base[section] = { ...(base[section] ?? {}), ...values };
  return parseConfig(base);
}

export async function seed(
  stack: Stack,
  personality: Personality,
  count: number,
  end: Date,
  seedValue: number | string = 7,
  windowMinutes = 45,
): Promise<SeedDemoSummary> {
  return seedDemo({
    langfuseUrl: stack.lf.url,
    publicKey: stack.lf.publicKey,
    secretKey: stack.lf.secretKey,
    personality,
    count,
    now: end,
    windowMinutes,
    dataset: false,
    verify: false,
    seed: seedValue,
  });
}

/** The sampling formula, written independently of `src/online/sampler.ts`. */
export function expectedSampled(ids: Iterable<string>, rate: number, salt = 'ragwatch-sampling-v1'): Set<string> {
  const out = new Set<string>();
  for (const id of ids) {
    const top53 = createHash('sha256').update(`${salt}\0${id}`).digest().readBigUInt64BE(0) >> 11n;
    if (Number(top53) / 2 ** 53 < rate) out.add(id);
  }
  return out;
}

/** Traces an extractor should turn into a RAG sample with contexts. */
export function isRag(trace: DemoTrace): boolean {
  return trace.expected !== null && trace.expected.contexts.length > 0;
}

/** Backoff sleeps that return at once (the code under test still computes and requests them). */
export const noSleep = async () => {};

export const SCORE_NAMES = ['ragas-faithfulness', 'ragas-answer-relevancy'] as const;

/** Known personal data planted in traces: none of it may reach the judge, a log line, the state or a score. */
export const CANARY = {
  name: 'Lucía Etxeberria Puig',
  dni: '12345678Z',
  nie: 'X1234567L',
  email: 'lucia.etxeberria@example.com',
  phone: '612 345 678',
  iban: 'ES91 2100 0418 4502 0005 1332',
  card: '4111 1111 1111 1111',
};

/** Every spelling of the canary values a leak could take (with and without separators). */
export function canaryNeedles(): string[] {
  const values = Object.values(CANARY);
  const compact = values.map((v) => v.replace(/\s+/g, '')).filter((v) => /\d/.test(v));
  return [...new Set([...values, ...compact, 'Etxeberria'])];
}

/** RAG traces carrying the canary in question, contexts and answer, written straight into the stand-in's store. */
export function plantCanaryTraces(stack: Stack, count: number, end: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `canary${String(i).padStart(26, '0')}`;
    const at = end - (i + 1) * 20_000;
    const question = `Hola, me llamo ${CANARY.name}, mi DNI es ${CANARY.dni} y mi correo ${CANARY.email}. ¿Cómo cambio la domiciliación de mi cuota a la cuenta ${CANARY.iban}? (pregunta ${i})`;
    const answer = `Claro, ${CANARY.name}: puedes cambiar la cuenta de domiciliación desde el área de cliente, en Pagos. Te enviaremos la confirmación a ${CANARY.email} y un SMS al ${CANARY.phone}.`;
    const contexts = [
      'La domiciliación bancaria se cambia desde el área de cliente, sección Pagos. El cambio se aplica a la siguiente factura.',
      `Ficha de cliente: ${CANARY.name}, NIE del titular secundario ${CANARY.nie}, tarjeta ${CANARY.card}, teléfono ${CANARY.phone}.`,
    ];
    plantRagTrace(stack, { id, at, question, answer, contexts });
    ids.push(id);
  }
  return ids;
}

/** One RAG trace (root span, retriever, generation) written straight into the stand-in's store. */
export function plantRagTrace(
  stack: Stack,
  trace: { id: string; at: number; question: string; answer: string; contexts: string[] },
): void {
  const { id, at, question, answer, contexts } = trace;
  stack.lf.store.upsertTrace({
    id,
    timestamp: at,
    name: 'support-rag',
    input: question,
    output: answer,
    environment: 'production',
  });
  stack.lf.store.upsertObservation({
    id: `${id}-root`,
    traceId: id,
    type: 'SPAN',
    name: 'support-rag',
    startTime: at,
    endTime: at + 3000,
    input: question,
    output: answer,
    environment: 'production',
  });
  stack.lf.store.upsertObservation({
    id: `${id}-ret`,
    traceId: id,
    type: 'RETRIEVER',
    name: 'knowledge-base',
    parentObservationId: `${id}-root`,
    startTime: at + 100,
    endTime: at + 400,
    input: question,
    output: contexts.map((pageContent) => ({ pageContent, metadata: { source: 'kb' } })),
    environment: 'production',
  });
  stack.lf.store.upsertObservation({
    id: `${id}-gen`,
    traceId: id,
    type: 'GENERATION',
    name: 'answer',
    parentObservationId: `${id}-root`,
    startTime: at + 500,
    endTime: at + 2500,
    model: 'gpt-4o-mini',
    input: [{ role: 'user', content: question }],
    output: { role: 'assistant', content: answer },
    environment: 'production',
  });
}
