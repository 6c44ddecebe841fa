import { context, SpanKind, trace, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ensureContextManager } from '../emit/otel-pipeline.js';
import { chunks } from './knowledge.js';
import type { Expectation, Integration, ScenarioEnv } from './types.js';

/**
 * An app instrumented by hand with plain OpenTelemetry and the GenAI semantic conventions, exporting
 * OTLP/HTTP straight to Langfuse's endpoint (no Langfuse package): `gen_ai.operation.name` `retrieval`
 * spans with `gen_ai.retrieval.query.text` and `gen_ai.retrieval.documents` (a JSON string of
 * `{id, score, content}`; Langfuse keeps unknown attributes in the observation's metadata), `chat` spans
 * with the current `gen_ai.input.messages` / `gen_ai.output.messages` attributes, or with the older
 * per-message events (`gen_ai.system.message`, `gen_ai.user.message`, `gen_ai.choice`).
 */

interface OtelEnv extends ScenarioEnv {
  tracer: Tracer;
}

const MODEL = 'gpt-4o-mini';

function within<T>(
  tracer: Tracer,
  name: string,
  attributes: Record<string, string | number | string[]>,
  fn: (span: Span) => T,
  kind = SpanKind.INTERNAL,
): T {
  const span = tracer.startSpan(name, { kind, attributes });
  try {
    return context.with(trace.setSpan(context.active(), span), () => fn(span));
  } finally {
    span.end();
  }
}

function retrieval(tracer: Tracer, query: string, docs: Array<{ id: string; text: string }>, dataSource: string): void {
  within(
    tracer,
    `retrieval ${dataSource}`,
    { 'gen_ai.operation.name': 'retrieval', 'gen_ai.data_source.id': dataSource, 'gen_ai.retrieval.query.text': query },
    (span) => {
      span.setAttribute(
        'gen_ai.retrieval.documents',
        JSON.stringify(
          docs.map((d, i) => ({ id: d.id, score: Number((0.91 - i * 0.07).toFixed(2)), content: d.text })),
        ),
      );
    },
  );
}

function usage(answer: string) {
  return { 'gen_ai.usage.input_tokens': 320, 'gen_ai.usage.output_tokens': Math.ceil(answer.length / 4) };
}

/** A `chat` span in the current conventions: messages as JSON attributes with typed parts. */
function chatWithAttributes(tracer: Tracer, system: string, user: string, answer: string): void {
  within(
    tracer,
    `chat ${MODEL}`,
    {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': MODEL,
      'gen_ai.response.model': `${MODEL}-2024-07-18`,
      'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: system }]),
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: user }] }]),
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' },
      ]),
      ...usage(answer),
    },
    () => undefined,
    SpanKind.CLIENT,
  );
}

/** A `chat` span in the older conventions: one event per message, the answer in a `gen_ai.choice` event. */
function chatWithEvents(tracer: Tracer, system: string, user: string, answer: string): void {
  within(
    tracer,
    `chat ${MODEL}`,
    { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': MODEL, ...usage(answer) },
    (span) => {
      span.addEvent('gen_ai.system.message', { 'gen_ai.system': 'openai', content: system });
      span.addEvent('gen_ai.user.message', { 'gen_ai.system': 'openai', content: user });
      span.addEvent('gen_ai.choice', {
        'gen_ai.system': 'openai',
        index: 0,
        finish_reason: 'stop',
        message: JSON.stringify({ role: 'assistant', content: answer }),
      });
    },
    SpanKind.CLIENT,
  );
}

export const otelGenai: Integration<OtelEnv> = {
  name: 'otel-genai',
  packages: ['@opentelemetry/sdk-trace-node', '@opentelemetry/exporter-trace-otlp-http'],
  transport: 'OTLP/JSON to /api/public/otel/v1/traces',
  async start(target, llm) {
    ensureContextManager();
    const auth = Buffer.from(`${target.publicKey}:${target.secretKey}`).toString('base64');
    const exporter = new OTLPTraceExporter({
      url: `${target.baseUrl}/api/public/otel/v1/traces`,
      headers: { Authorization: `Basic ${auth}` },
    });
    const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
    const tracer = provider.getTracer('lumora-support', '2.3.0');
    return { env: { llm, tracer }, flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
  },
  scenarios: [
    {
      name: 'retrieval-documents-attribute',
      description:
        'an invoke_agent span with a retrieval span (documents only in gen_ai.retrieval.documents) and a chat span',
      async run({ tracer }): Promise<Expectation> {
        const question = 'What payment methods does the international store accept?';
        const answer =
          'Visa, Mastercard, American Express and PayPal; SEPA direct debit too, for customers with a SEPA bank account.';
        const docs = chunks('en-payment-1', 'en-invoices-1').map((c) => ({ id: c.id, text: c.text }));
        within(
          tracer,
          'invoke_agent support',
          { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'support' },
          () => {
            retrieval(tracer, question, docs, 'kb-en');
            chatWithAttributes(tracer, 'Answer from the retrieved documents only.', question, answer);
          },
        );
        return { kind: 'rag', question, answer, contexts: docs.map((d) => d.text), contextsFrom: 'retrieval' };
      },
    },
    {
      name: 'message-events',
      description: 'a root span, a retrieval span and a chat span whose messages are span events (older conventions)',
      async run({ tracer }): Promise<Expectation> {
        const question = '¿Puedo desistir de un plan de pago?';
        const answer =
          'Sí: tienes 14 días naturales desde la contratación para desistir y recibir el reembolso íntegro.';
        const docs = chunks('es-reembolso-sub-1', 'es-planes-3').map((c) => ({ id: c.id, text: c.text }));
        within(
          tracer,
          'POST /chat',
          { 'http.request.method': 'POST', 'http.route': '/chat' },
          () => {
            retrieval(tracer, question, docs, 'kb-es');
            chatWithEvents(tracer, 'Responde solo con los documentos recuperados.', question, answer);
          },
          SpanKind.SERVER,
        );
        return { kind: 'rag', question, answer, contexts: docs.map((d) => d.text), contextsFrom: 'retrieval' };
      },
    },
    {
      name: 'tool-call-not-retrieval',
      description: 'an agent that calls an order-status tool (execute_tool) and answers: not RAG',
      async run({ tracer }): Promise<Expectation> {
        within(
          tracer,
          'invoke_agent orders',
          { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'orders' },
          () => {
            within(
              tracer,
              'execute_tool get_order_status',
              {
                'gen_ai.operation.name': 'execute_tool',
                'gen_ai.tool.name': 'get_order_status',
                'gen_ai.tool.call.id': 'call_1',
                'gen_ai.tool.call.arguments': JSON.stringify({ order_id: 'LUM-10023' }),
                'gen_ai.tool.call.result': JSON.stringify({ status: 'shipped', carrier: 'SEUR', eta: '2026-03-04' }),
              },
              () => undefined,
            );
            chatWithAttributes(
              tracer,
              'You help customers with their orders.',
              'Where is my order LUM-10023?',
              'Your order has shipped with SEUR and should arrive on 4 March.',
            );
          },
        );
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
    {
      name: 'plain-chat',
      description: 'a single chat span: not RAG',
      async run({ tracer }): Promise<Expectation> {
        chatWithAttributes(
          tracer,
          'You are a friendly assistant.',
          'Tell me a fun fact about thermostats.',
          'The first thermostats were invented in the 1620s by Cornelis Drebbel.',
        );
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
  ],
};
