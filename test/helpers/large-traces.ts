import type { LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';

/** Sentences of a long support answer (Spanish and English), with personal data now and then. */
const SENTENCES = [
  (i: number) =>
    `La factura ${i} se emite el día cinco de cada mes y puede consultarse en el área privada, sección Pagos.`,
  (i: number) =>
    `If the charge on invoice ${i} looks wrong, write to facturacion${i % 97}@example.com with the reference.`,
  (i: number) =>
    `El importe se domicilia en la cuenta indicada al contratar; el cambio de cuenta se aplica a la factura siguiente.`,
  (i: number) => `Customer Laura Gómez asked about invoice ${i} and was told the plan renews on the first working day.`,
  (i: number) => `Para dudas sobre el IVA aplicado, el equipo de soporte responde en un plazo de 48 horas laborables.`,
];

/** About `bytes` bytes (UTF-8) of answer text. */
export function longAnswer(bytes: number, seed = 0): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = seed; size < bytes; i++) {
    const sentence = `${SENTENCES[i % SENTENCES.length]!(i)} `;
    parts.push(sentence);
    size += Buffer.byteLength(sentence);
  }
  return parts.join('');
}

export const LARGE_TRACE_CONTEXTS = [
  'Las facturas se emiten el día cinco de cada mes y se consultan en el área privada, sección Pagos.',
  'El cambio de cuenta de domiciliación se aplica a la factura siguiente.',
  'Invoices can be disputed by email to the billing team within 30 days.',
];

/**
 * RAG traces whose answer is `answerBytes` long, written straight into the stand-in's store: the answer is the
 * trace output, the root span's output and the generation's output (as its message content), as the SDKs record
 * it, so one trace's response carries it three times. The retriever comes after the generation in time.
 */
export function plantLargeTraces(lf: LangfuseServer, count: number, end: number, answerBytes: number): string[] {
  const ids: string[] = [];
  for (let t = 0; t < count; t++) {
    const id = `large${String(t).padStart(27, '0')}`;
    const at = end - (t + 1) * 20_000;
    const question = `¿Cuándo se emite la factura número ${t} y dónde la consulto?`;
    const answer = longAnswer(answerBytes, t * 1000);
    const system = `Responde usando solo este contexto:\n${LARGE_TRACE_CONTEXTS.join('\n')}`;
    lf.store.upsertTrace({
      id,
      timestamp: at,
      name: 'support-rag',
      input: question,
      output: answer,
      environment: 'production',
    });
    lf.store.upsertObservation({
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
    lf.store.upsertObservation({
      id: `${id}-gen`,
      traceId: id,
      type: 'GENERATION',
      name: 'llm',
      parentObservationId: `${id}-root`,
      startTime: at + 500,
      endTime: at + 2900,
      input: [
        { role: 'system', content: system },
        { role: 'user', content: question },
      ],
      output: { role: 'assistant', content: answer },
      environment: 'production',
    });
    lf.store.upsertObservation({
      id: `${id}-ret`,
      traceId: id,
      type: 'RETRIEVER',
      name: 'knowledge-base',
      parentObservationId: `${id}-root`,
      startTime: at + 100,
      endTime: at + 400,
      input: question,
      output: LARGE_TRACE_CONTEXTS.map((pageContent) => ({ pageContent, metadata: { source: 'kb' } })),
      environment: 'production',
    });
    ids.push(id);
  }
  return ids;
}
