import { LangfuseClient } from '@langfuse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPENAI_DEFAULT_GENERATION_NAME,
  generations,
  retrievals,
  seedDemo,
  type DemoTrace,
  type DemoVariant,
  type SeedDemoSummary,
} from '@ragwatch/devkit/corpus/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { createOpenApiValidator } from '../../helpers/openapi.js';

const NOW = new Date('2026-02-16T09:30:00.000Z');

interface V2Observation {
  id: string;
  traceId: string;
  type: string;
  name: string;
  parentObservationId: string | null;
  startTime: string;
  endTime: string | null;
  environment: string;
  input: string | null;
  output: string | null;
  providedModelName: string | null;
  usageDetails: Record<string, number>;
}

const parse = (raw: string | null): unknown => (raw === null ? null : JSON.parse(raw));

for (const personality of ['v3', 'v4'] as const) {
  describe(`seedDemo into the ${personality} stand-in`, () => {
    let server: LangfuseServer;
    let client: LangfuseClient;
    let summary: SeedDemoSummary;
    const violations: string[] = [];

    beforeAll(async () => {
      server = await startLangfuseServer({ personality, port: 0, host: '127.0.0.1' });
      const validator = createOpenApiValidator();
      server.onExchange((e) =>
        violations.push(
          ...validator.validate({
            method: e.method,
            path: e.path,
            query: e.query,
            requestBody: e.requestBody,
            status: e.status,
            responseBody: e.responseBody,
          }),
        ),
      );
      client = new LangfuseClient({ baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey });
      summary = await seedDemo({
        langfuseUrl: server.url,
        publicKey: server.publicKey,
        secretKey: server.secretKey,
        personality,
        seed: 'it',
        count: 80,
        now: NOW,
      });
    }, 60_000);

    afterAll(() => server?.close());

    async function observationsOf(trace: DemoTrace): Promise<V2Observation[]> {
      const page = await client.api.observations.getMany({
        traceId: trace.id,
        fields: 'core,basic,io,model,usage',
        limit: 1000,
      });
      return (page.data as unknown as V2Observation[]).sort(
        (a, b) => a.startTime.localeCompare(b.startTime) || a.id.localeCompare(b.id),
      );
    }

    function pick(variant: DemoVariant, pred: (t: DemoTrace) => boolean = (t) => t.kind === 'rag'): DemoTrace {
      const found = summary.traces.find((t) => t.variant === variant && pred(t));
      if (!found) throw new Error(`no ${variant} trace in the sample`);
      return found;
    }

    it('lands every emitted trace, readable back, with zero OpenAPI violations', () => {
      expect(summary.verified).toEqual({ found: summary.emitted.total, missing: [] });
      expect(summary.ingestionErrors).toEqual([]);
      expect(violations).toEqual([]);
      const legacy = summary.traces.filter((t) => t.shape === 'ingestion').length;
      expect(legacy).toBeGreaterThan(0);
      if (personality === 'v3') {
        expect(summary.emitted.total).toBe(80);
        expect(summary.skipped).toEqual([]);
      } else {
        expect(summary.emitted.total).toBe(80 - legacy);
        expect(summary.skipped).toHaveLength(legacy);
        expect(summary.emitted.byShape.ingestion).toBe(0);
      }
    });

    it('records the LangChain handler shape: chain spans, a retriever SPAN with Documents, a ChatOpenAI generation', async () => {
      const trace = pick('langchain-chain');
      const obs = await observationsOf(trace);
      const root = obs.find((o) => o.parentObservationId === null)!;
      expect(root).toMatchObject({ name: 'RunnableSequence', type: 'SPAN' });
      expect(root.startTime).toBe(trace.startTime.toISOString());
      expect(parse(root.input)).toEqual({ input: trace.question });
      expect(root.output).toBe(trace.answer);
      const retriever = obs.find((o) => o.name === 'VectorStoreRetriever')!;
      expect(retriever.type).toBe('SPAN');
      const docs = parse(retriever.output) as Array<{ pageContent: string; metadata: { source: string } }>;
      expect(docs.map((d) => d.pageContent)).toEqual(retrievals(trace)[0]!.documents.map((d) => d.pageContent));
      expect(docs.every((d) => d.metadata.source.startsWith('kb/'))).toBe(true);
      const llm = obs.find((o) => o.name === 'ChatOpenAI')!;
      const step = generations(trace).at(-1)!;
      expect(llm.type).toBe('GENERATION');
      expect(llm.providedModelName).toBe(step.responseModel);
      expect(parse(llm.input)).toEqual(step.messages.map((m) => ({ content: m.content, role: m.role })));
      expect(parse(llm.output)).toEqual({ content: trace.answer, role: 'assistant' });
      expect(llm.usageDetails).toMatchObject({
        input: step.usage.input,
        output: step.usage.output,
        total: step.usage.total,
      });
      for (const name of [
        'RunnableMap',
        'RunnablePassthrough',
        'ChatPromptTemplate',
        'StrOutputParser',
        'formatDocumentsAsString',
      ])
        expect(obs.map((o) => o.name)).toContain(name);
    });

    it('records the @langfuse/openai wrapper alone: one generation holding messages and completion', async () => {
      const trace = pick('openai-bare');
      const obs = await observationsOf(trace);
      expect(obs).toHaveLength(1);
      const [gen] = obs;
      const step = generations(trace)[0]!;
      expect(gen!.type).toBe('GENERATION');
      expect([OPENAI_DEFAULT_GENERATION_NAME, 'generate-answer']).toContain(gen!.name);
      expect(gen!.startTime).toBe(step.startTime.toISOString());
      expect(gen!.endTime).toBe(step.endTime.toISOString());
      expect(parse(gen!.input)).toEqual({ messages: step.messages });
      expect(parse(gen!.output)).toMatchObject({ role: 'assistant', content: trace.answer });
      expect(gen!.providedModelName).toBe(step.responseModel);
      for (const context of trace.expected!.contexts) expect(step.messages[1]!.content).toContain(context);
    });

    it('records wrapped generations under a hand-made root with a retriever observation', async () => {
      const trace = pick('openai-with-retriever');
      const obs = await observationsOf(trace);
      const root = obs.find((o) => o.parentObservationId === null)!;
      expect(root.name).toBe('rag-answer');
      const retriever = obs.find((o) => o.type === 'RETRIEVER')!;
      expect(retriever.parentObservationId).toBe(root.id);
      const answer = obs.find((o) => o.name === 'generate-answer')!;
      expect(answer).toMatchObject({
        type: 'GENERATION',
        parentObservationId: root.id,
        startTime: generations(trace).at(-1)!.startTime.toISOString(),
      });
      expect(parse(answer.output)).toMatchObject({ content: trace.answer });
    });

    it('records hand-made @langfuse/tracing spans, with and without trace-level input/output', async () => {
      const inner = pick('tracing-inner-io');
      const obs = await observationsOf(inner);
      const root = obs.find((o) => o.parentObservationId === null)!;
      expect(root.input).toBeNull();
      expect(root.output).toBeNull();
      expect(obs.find((o) => o.type === 'RETRIEVER')).toBeDefined();
      expect(obs.filter((o) => o.type === 'GENERATION').at(-1)!.output).toBe(inner.answer);

      const agent = pick('tracing-agent');
      const agentObs = await observationsOf(agent);
      expect(agentObs.find((o) => o.parentObservationId === null)!.type).toBe('AGENT');
      expect(agentObs.find((o) => o.type === 'TOOL')!.name).toBe('search_knowledge_base');

      const withIo = pick('tracing-root-io');
      if (personality === 'v3') {
        const full = await client.api.trace.get(withIo.id);
        expect(full.name).toBe(withIo.name);
        expect(full.input).toBe(withIo.question);
        expect(full.output).toBe(withIo.answer);
        expect(full.userId).toBe(withIo.userId);
      }
    });

    it('carries environments: default unless the trace ran in staging', async () => {
      const staging = summary.traces.find((t) => t.environment === 'staging' && t.shape !== 'ingestion')!;
      expect((await observationsOf(staging)).every((o) => o.environment === 'staging')).toBe(true);
      const plain = summary.traces.find((t) => !t.environment && t.shape !== 'ingestion')!;
      expect((await observationsOf(plain)).every((o) => o.environment === 'default')).toBe(true);
    });

    it(
      personality === 'v3'
        ? 'stores legacy ingestion traces with their spans and generations'
        : 'does not send legacy ingestion traces',
      async () => {
        const trace = pick('ingestion-legacy');
        const obs = await observationsOf(trace);
        if (personality === 'v4') {
          expect(obs).toEqual([]);
          return;
        }
        const full = await client.api.trace.get(trace.id);
        expect(full).toMatchObject({
          name: 'support-bot',
          input: { query: trace.question },
          output: trace.answer,
          release: 'support-bot@1.9.3',
        });
        expect(obs.find((o) => o.name === 'retrieval')!.type).toBe('SPAN');
        const gen = obs.find((o) => o.name === 'llm-answer')!;
        expect(gen).toMatchObject({
          type: 'GENERATION',
          output: trace.answer,
          endTime: generations(trace).at(-1)!.endTime.toISOString(),
        });
      },
    );

    it('creates the golden dataset with strata and splits in item metadata', async () => {
      expect(summary.dataset).toMatchObject({ name: 'rag-golden', items: 66 });
      const dataset = await client.dataset.get('rag-golden');
      expect(dataset.items).toHaveLength(66);
      const item = dataset.items.find((i) => i.id === 'golden-es-021')!;
      expect(item.input).toEqual({ question: expect.stringContaining('suelo radiante') });
      expect(item.expectedOutput).toContain('317 €');
      expect(item.metadata).toMatchObject({
        type: 'multi-hop',
        split: expect.stringMatching(/^(dev|test)$/),
        language: 'es',
      });
      const types = new Set(dataset.items.map((i) => (i.metadata as { type: string }).type));
      expect([...types].sort()).toEqual(['adversarial', 'multi-hop', 'single-hop']);
    });
  });
}
