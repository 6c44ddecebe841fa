import { afterEach, describe, expect, it } from 'vitest';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { extractRagSample } from '../../../src/extract/index.js';
import { connectLangfuse } from '../../../src/langfuse/index.js';
import { prepareSample } from '../../../src/metrics/prepare.js';
import { createKeepAliveFetch } from '../../../src/internal/index.js';
import { CUT_MARKER } from '../../../src/sample.js';
import { LARGE_TRACE_CONTEXTS, plantLargeTraces } from '../../helpers/large-traces.js';
import { parseConfig } from '../../helpers/config.js';

const servers: LangfuseServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function connect(
  personality: 'v3' | 'v4',
  langfuse: Record<string, unknown> = {},
  metrics: Record<string, unknown> = {},
) {
  const server = await startLangfuseServer({ personality, host: '127.0.0.1', port: 0 });
  servers.push(server);
  const config = parseConfig({
    langfuse: {
      baseUrl: server.url,
      publicKey: server.publicKey,
      secretKey: server.secretKey,
      apiGeneration: personality,
      ...langfuse,
    },
    metrics,
  });
  const api = await connectLangfuse(config, {
    fetch: createKeepAliveFetch({ bufferLimit: 256 * 1024 }),
    sleep: async () => {},
  });
  return { server, api, config };
}

describe.each(['v3', 'v4'] as const)('a trace over its read budget (%s)', (personality) => {
  it('is read with its long texts cut (JSON kept JSON), its retriever whole, and the cut on the record', async () => {
    const { server, api, config } = await connect(personality);
    const [id] = plantLargeTraces(server, 1, Date.now() - 60_000, 5_000_000);
    const trace = await api.getTrace(id!);
    expect(trace).not.toBeNull();
    expect(trace!.readCut).toMatchObject({
      maxTraceBytes: config.langfuse.maxTraceBytes,
      maxFieldBytes: config.langfuse.maxFieldBytes,
    });
    // the answer as trace output (v3 only), the root span's output and the generation's output
    expect(trace!.readCut!.fieldsCut).toBeGreaterThanOrEqual(personality === 'v3' ? 3 : 2);
    expect(trace!.observations.map((o) => o.type).sort()).toEqual(['GENERATION', 'RETRIEVER', 'SPAN']);

    const output = trace!.output as string;
    expect(output.endsWith(CUT_MARKER)).toBe(true);
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(
      config.langfuse.maxFieldBytes + Buffer.byteLength(CUT_MARKER),
    );
    const generation = trace!.observations.find((o) => o.type === 'GENERATION')!;
    // v4 returns IO as raw JSON strings: the cut one was repaired and parsed like any other
    expect(generation.output).toMatchObject({ role: 'assistant' });
    expect((generation.output as { content: string }).content.endsWith(CUT_MARKER)).toBe(true);

    const extracted = extractRagSample(trace!);
    expect(extracted.ok).toBe(true);
    if (extracted.ok) {
      expect(extracted.sample.contexts).toEqual(LARGE_TRACE_CONTEXTS);
      expect(extracted.sample.answer.length).toBeGreaterThan(10_000);
      expect(extracted.sample.answer.length).toBeLessThan(200_000);
      // where the read cut the answer (a word or an IBAN in half) is never what the judge is shown
      const prepared = prepareSample(extracted.sample, config.metrics);
      const shown = prepared.answer.slice(0, -CUT_MARKER.length);
      expect(prepared.truncated.answer).toBeDefined();
      expect(extracted.sample.answer.startsWith(shown)).toBe(true);
      expect(shown.length).toBeLessThan(extracted.sample.answer.length / 4);
    }
  });

  it('is read whole, with no cut, when it fits', async () => {
    const { server, api } = await connect(personality);
    const [id] = plantLargeTraces(server, 1, Date.now() - 60_000, 20_000);
    const trace = await api.getTrace(id!);
    expect(trace!.readCut).toBeUndefined();
    expect(trace!.output).toBe(server.store.getTrace(id!)!.output);
  });

  it('leaves values out once the whole trace budget is spent, and says how many', async () => {
    const small = { maxQuestionTokens: 200, maxAnswerTokens: 500, maxContextTokens: 1000, maxReferenceTokens: 500 };
    const { server, api } = await connect(personality, { maxTraceBytes: 64 * 1024, maxFieldBytes: 16 * 1024 }, small);
    const at = Date.now() - 60_000;
    server.store.upsertTrace({
      id: 'many-chunks',
      timestamp: at,
      name: 'rag',
      input: 'q',
      output: 'a',
      environment: 'production',
    });
    const chunks = Array.from({ length: 400 }, (_, i) => ({ pageContent: `Chunk ${i}: ${'texto '.repeat(60)}` }));
    server.store.upsertObservation({
      id: 'many-chunks-ret',
      traceId: 'many-chunks',
      type: 'RETRIEVER',
      name: 'kb',
      startTime: at + 10,
      output: chunks,
      environment: 'production',
    });
    const trace = await api.getTrace('many-chunks');
    expect(trace).not.toBeNull();
    expect(trace!.readCut!.valuesDropped + trace!.readCut!.fieldsCut).toBeGreaterThan(0);
    const kept = trace!.observations.find((o) => o.type === 'RETRIEVER')?.output;
    const keptChunks = Array.isArray(kept) ? kept : JSON.parse(String(kept ?? '[]'));
    expect(keptChunks.length).toBeLessThan(400);
    for (const c of keptChunks as Array<{ pageContent: string }>) expect(c.pageContent.length).toBeGreaterThan(20);
  });
});
