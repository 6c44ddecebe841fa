import { randomBytes } from 'node:crypto';

export interface LangfuseTarget {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
}

const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;

/**
 * Records one request of the toy RAG in Langfuse the way an OTel-instrumented service does (a root span with
 * the trace IO and a retriever child) and returns the trace ID, so experiments can link to the service's trace.
 */
export async function recordToyTrace(
  target: LangfuseTarget,
  input: {
    question: string;
    answer: string;
    contexts: string[];
    startMs: number;
    endMs: number;
    /** The weekly run's mark (`x-ragwatch-run`): tagged `ragwatch-experiment`, as docs/integrations.md asks. */
    experimentRun?: string | undefined;
  },
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  const traceId = randomBytes(16).toString('hex');
  const rootId = randomBytes(8).toString('hex');
  const io = [
    attr('langfuse.trace.name', 'lumora-support-answer'),
    attr('langfuse.trace.input', JSON.stringify({ question: input.question })),
    attr('langfuse.trace.output', JSON.stringify({ answer: input.answer })),
    attr('langfuse.observation.input', JSON.stringify({ question: input.question })),
    attr('langfuse.observation.output', JSON.stringify({ answer: input.answer })),
    attr('langfuse.environment', 'toy-rag'),
    ...(input.experimentRun === undefined
      ? []
      : [
          { key: 'langfuse.trace.tags', value: { arrayValue: { values: [{ stringValue: 'ragwatch-experiment' }] } } },
          attr('langfuse.trace.metadata.ragwatchRun', input.experimentRun),
        ]),
  ];
  const span = (spanId: string, name: string, attributes: unknown[], parentSpanId?: string) => ({
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name,
    kind: 1,
    startTimeUnixNano: nanos(input.startMs),
    endTimeUnixNano: nanos(input.endMs),
    attributes,
    status: { code: 0 },
  });
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'lumora-toy-rag')] },
        scopeSpans: [
          {
            scope: { name: 'lumora-toy-rag', version: '1' },
            spans: [
              span(rootId, 'rag-answer', io),
              span(
                randomBytes(8).toString('hex'),
                'retrieve',
                [
                  attr('langfuse.observation.type', 'retriever'),
                  attr('langfuse.observation.input', JSON.stringify({ query: input.question })),
                  attr('langfuse.observation.output', JSON.stringify(input.contexts)),
                  attr('langfuse.environment', 'toy-rag'),
                ],
                rootId,
              ),
            ],
          },
        ],
      },
    ],
  };
  const res = await fetchImpl(`${target.baseUrl.replace(/\/+$/, '')}/api/public/otel/v1/traces`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${target.publicKey}:${target.secretKey}`).toString('base64')}`,
    },
    body: JSON.stringify(body),
  });
  await res.text();
  if (!res.ok) throw new Error(`Langfuse answered HTTP ${res.status} to the toy RAG's trace`);
  return traceId;
}
