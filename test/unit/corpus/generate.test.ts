import { describe, expect, it } from 'vitest';
import {
  DEMO_EPOCH,
  GOLDEN_ITEMS,
  chunkById,
  generateDemoTraces,
  generations,
  legacyIngestionEvents,
  retrievals,
  type DemoTrace,
} from '@ragwatch/devkit/corpus/index.js';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const traces = generateDemoTraces({ seed: 42, count: 120, now: NOW, windowMinutes: 90 });
const count = (pred: (t: DemoTrace) => boolean) => traces.filter(pred).length;

describe('generateDemoTraces', () => {
  it('is a pure function of seed, count and clock', () => {
    expect(generateDemoTraces({ seed: 42, count: 120, now: NOW, windowMinutes: 90 })).toEqual(traces);
    expect(generateDemoTraces({ seed: 42, count: 30 })).toEqual(
      generateDemoTraces({ seed: 42, count: 30, now: DEMO_EPOCH }),
    );
    const other = generateDemoTraces({ seed: 43, count: 120, now: NOW, windowMinutes: 90 });
    expect(other.map((t) => t.id)).not.toEqual(traces.map((t) => t.id));
    expect(other.map((t) => t.question)).not.toEqual(traces.map((t) => t.question));
  });

  it('rejects a count that is not a non-negative integer', () => {
    expect(generateDemoTraces({ seed: 1, count: 0 })).toEqual([]);
    expect(() => generateDemoTraces({ seed: 1, count: -1 })).toThrow(RangeError);
    expect(() => generateDemoTraces({ seed: 1, count: 2.5 })).toThrow(RangeError);
  });

  it('is about 60 % Spanish and 40 % English, for small and large counts', () => {
    expect(count((t) => t.language === 'es')).toBe(72);
    for (const n of [10, 37, 250]) {
      const es = generateDemoTraces({ seed: 'ratio', count: n }).filter((t) => t.language === 'es').length;
      expect(Math.abs(es - 0.6 * n)).toBeLessThanOrEqual(0.5);
    }
  });

  it('spreads traces over the four integration shapes and all their variants', () => {
    for (const shape of ['langchain', 'openai', 'tracing', 'ingestion'] as const)
      expect(
        count((t) => t.shape === shape),
        shape,
      ).toBeGreaterThanOrEqual(12);
    const variants = new Set(traces.map((t) => t.variant));
    expect([...variants].sort()).toEqual(
      [
        'ingestion-legacy',
        'langchain-chain',
        'openai-bare',
        'openai-with-retriever',
        'tracing-agent',
        'tracing-inner-io',
        'tracing-root-io',
      ].sort(),
    );
    for (const t of traces) expect(t.variant.startsWith(t.shape === 'langchain' ? 'langchain' : t.shape)).toBe(true);
  });

  it('includes RAG traces, traces without retrieval, empty contexts and non-RAG calls', () => {
    expect(count((t) => t.kind === 'rag')).toBeGreaterThan(70);
    const noRetrieval = traces.filter((t) => t.kind === 'no-retrieval');
    const empty = traces.filter((t) => t.kind === 'empty-context');
    const nonRag = traces.filter((t) => t.kind === 'non-rag');
    expect(noRetrieval.length).toBeGreaterThan(0);
    expect(empty.length).toBeGreaterThan(0);
    expect(nonRag.length).toBeGreaterThan(0);
    for (const t of noRetrieval) expect(retrievals(t)).toHaveLength(0);
    for (const t of empty) {
      expect(retrievals(t).length).toBeGreaterThan(0);
      expect(retrievals(t).every((r) => r.documents.length === 0)).toBe(true);
      expect(t.expected?.contexts).toEqual([]);
    }
    for (const t of nonRag) {
      expect(t.expected).toBeNull();
      expect(['translate', 'classify']).toContain(generations(t)[0]!.purpose);
    }
    expect(new Set(nonRag.map((t) => generations(t)[0]!.purpose)).size).toBe(2);
  });

  it('has several retrievals or several generations in some traces, and retrieval misses', () => {
    expect(count((t) => t.traits.multipleRetrievals)).toBeGreaterThan(5);
    expect(count((t) => t.traits.multipleGenerations)).toBeGreaterThan(5);
    for (const t of traces.filter((x) => x.traits.multipleGenerations))
      expect(generations(t)[0]!.purpose).toBe('rewrite-query');
    const misses = traces.filter((t) => t.traits.retrievalMiss);
    expect(misses.length).toBeGreaterThan(3);
    for (const t of misses) {
      const ids = retrievals(t).flatMap((r) => r.documents.map((d) => d.metadata.chunkId));
      const golden = GOLDEN_ITEMS.find((g) => g.id === t.goldenItemId)!;
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.filter((id) => golden.sources.includes(id))).toEqual([]);
    }
  });

  it('varies answer quality so scores vary', () => {
    const qualities = new Set(traces.map((t) => t.quality));
    for (const q of ['grounded', 'unsupported-claim', 'evasive', 'off-topic', 'abstains', 'not-applicable'])
      expect(qualities).toContain(q);
    const unsupported = traces.find((t) => t.quality === 'unsupported-claim' && t.kind === 'rag')!;
    const grounded = traces.find(
      (t) => t.quality === 'grounded' && t.kind === 'rag' && t.goldenItemId === unsupported.goldenItemId,
    );
    if (grounded) expect(unsupported.answer.length).toBeGreaterThan(grounded.answer.length);
  });

  it('sprinkles every kind of personal data over questions, answers and contexts', () => {
    const kinds = new Set(traces.flatMap((t) => t.pii));
    for (const k of ['person', 'email', 'phone', 'dni', 'nie', 'iban', 'card', 'address'])
      expect(kinds, k).toContain(k);
    const withPii = traces.filter((t) => t.pii.length > 0);
    expect(withPii.length).toBeGreaterThan(30);
    expect(withPii.length).toBeLessThan(traces.length);
    expect(traces.some((t) => t.pii.includes('person') && /^(Hola|Hi) /.test(t.answer))).toBe(true);
    expect(
      traces.some((t) =>
        retrievals(t).some(
          (r) => r.index === 'customer-history' && /IBAN|ES\d{2}|GB\d{2}|IE\d{2}/.test(r.documents[0]!.pageContent),
        ),
      ),
    ).toBe(true);
  });

  it('lists every personal value it wrote, verbatim, where it was written', () => {
    for (const t of traces) {
      expect(new Set(t.personalData.map((p) => p.kind))).toEqual(new Set(t.pii));
      const everything = [
        t.question,
        t.answer,
        ...t.steps.flatMap((s) =>
          s.kind === 'retrieval'
            ? s.documents.map((d) => d.pageContent)
            : [...s.messages.map((m) => m.content), s.output],
        ),
      ].join('\n');
      for (const { value } of t.personalData) expect(everything).toContain(value);
    }
  });

  it('leaves most environments unset and puts a few in staging', () => {
    const staging = count((t) => t.environment === 'staging');
    expect(staging).toBeGreaterThan(0);
    expect(count((t) => t.environment === undefined)).toBeGreaterThan(traces.length * 0.85);
    expect(staging + count((t) => t.environment === undefined)).toBe(traces.length);
  });

  it('places every trace and step inside the window ending at the injected now', () => {
    const from = NOW.getTime() - 90 * 60_000;
    const ids = new Set<string>();
    for (const t of traces) {
      expect(t.id).toMatch(/^[0-9a-f]{32}$/);
      ids.add(t.id);
      expect(t.startTime.getTime()).toBeGreaterThanOrEqual(from);
      expect(t.endTime.getTime()).toBeLessThanOrEqual(NOW.getTime());
      let cursor = t.startTime.getTime();
      for (const s of t.steps) {
        expect(s.startTime.getTime()).toBeGreaterThanOrEqual(cursor);
        expect(s.endTime.getTime()).toBeGreaterThan(s.startTime.getTime());
        cursor = s.endTime.getTime();
      }
      expect(t.endTime.getTime()).toBeGreaterThanOrEqual(cursor);
    }
    expect(ids.size).toBe(traces.length);
    const span = traces.at(-1)!.startTime.getTime() - traces[0]!.startTime.getTime();
    expect(span).toBeGreaterThan(60 * 60_000);
  });

  it('keeps question, answer, contexts and messages consistent with each other', () => {
    for (const t of traces) {
      const answer = generations(t).at(-1)!;
      expect(answer.output).toBe(t.answer);
      expect(answer.usage.total).toBe(answer.usage.input + answer.usage.output);
      if (t.kind === 'non-rag') continue;
      expect(t.expected).toEqual({
        question: t.question,
        answer: t.answer,
        contexts: retrievals(t).flatMap((r) => r.documents.map((d) => d.pageContent)),
      });
      const prompt = answer.messages.map((m) => m.content).join('\n');
      expect(prompt).toContain(t.question);
      for (const c of t.expected!.contexts) expect(prompt).toContain(c);
      for (const r of retrievals(t))
        for (const d of r.documents)
          if (r.index === 'knowledge-base') expect(chunkById(d.metadata.chunkId).text).toBe(d.pageContent);
    }
  });

  it('builds the legacy ingestion events of a trace with ids tied to it', () => {
    const legacy = traces.find((t) => t.shape === 'ingestion' && t.kind === 'rag')!;
    const events = legacyIngestionEvents(legacy);
    expect(events[0]).toMatchObject({
      type: 'trace-create',
      body: { id: legacy.id, name: 'support-bot', input: { query: legacy.question }, output: legacy.answer },
    });
    expect(events.filter((e) => e.type === 'span-create')).toHaveLength(retrievals(legacy).length);
    expect(events.filter((e) => e.type === 'generation-create')).toHaveLength(generations(legacy).length);
    const update = events.find((e) => e.type === 'generation-update')!;
    expect(update.body).toMatchObject({ output: legacy.answer, traceId: legacy.id });
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(legacyIngestionEvents(legacy)).toEqual(events);
  });
});
