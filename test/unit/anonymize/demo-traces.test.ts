import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../../src/anonymize/index.js';
import { fold } from '../../../src/anonymize/text/fold.js';
import type { PiiKind } from '@ragwatch/devkit/corpus/pii.js';
import { generateDemoTraces } from '@ragwatch/devkit/corpus/generate.js';

/**
 * Held-out check on text the corpus did not shape: the RAG samples of generated demo traces (questions with personal
 * data, answers, knowledge-base chunks, customer records), whose personal values the generator lists verbatim.
 */
const anonymizer = createAnonymizer({
  phoneRegions: ['ES', 'GB', 'US', 'FR', 'DE', 'PT', 'IT', 'MX'],
  threshold: 0.5,
  residualThreshold: 0.8,
});
const traces = ['held-out-1', 'held-out-2']
  .flatMap((seed) => generateDemoTraces({ seed, count: 200 }))
  .filter((t) => t.expected !== null);

const words = (s: string) =>
  fold(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const hasWord = (haystack: string, word: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${escape(word)}(?![\\p{L}\\p{N}])`, 'u').test(haystack);

/** Words of ≥ 3 characters of a value that survive anonymization and that the rest of the input does not explain. */
function leaked(value: string, output: string, rest: string): string[] {
  return words(value).filter((w) => hasWord(output, w) && !hasWord(rest, w));
}

describe('anonymizer on generated demo traces (held out)', () => {
  const leaks = new Map<PiiKind, string[]>();
  const unexplained: string[] = [];
  for (const trace of traces) {
    const { question, answer, contexts } = trace.expected!;
    const { sample } = anonymizer.anonymizeSample({ traceId: trace.id, question, answer, contexts, meta: {} });
    const input = [question, answer, ...contexts];
    const output = fold([sample.question, sample.answer, ...sample.contexts].join('\n'));
    let rest = input.join('\n');
    for (const p of trace.personalData) rest = rest.split(p.value).join(' ');
    rest = fold(rest);
    for (const p of trace.personalData) {
      const left = leaked(p.value, output, rest);
      if (left.length > 0) leaks.set(p.kind, [...(leaks.get(p.kind) ?? []), `${p.value} → ${left.join(', ')}`]);
    }
    // Whatever is redacted must be (part of) a listed personal value: no product names, plans or company contacts.
    const values = trace.personalData.map((p) => p.value);
    for (const text of input) {
      for (const c of anonymizer.analyze(text)) {
        const span = text.slice(c.start, c.end);
        if (!values.some((v) => v.includes(span) || span.includes(v))) unexplained.push(`${c.type}: ${span}`);
      }
    }
  }

  it('covers enough samples and personal values to mean something', () => {
    expect(traces.length).toBeGreaterThanOrEqual(250);
    const kinds = new Set(traces.flatMap((t) => t.personalData.map((p) => p.kind)));
    for (const kind of ['person', 'email', 'phone', 'dni', 'iban', 'card', 'address'] as const)
      expect(kinds.has(kind), kind).toBe(true);
  });

  it('leaks no validated value (email, phone, DNI/NIE, IBAN, card) and no address', () => {
    for (const kind of ['email', 'phone', 'dni', 'nie', 'iban', 'card', 'address'] as const)
      expect(leaks.get(kind) ?? [], kind).toEqual([]);
  });

  it('leaks no name', () => {
    expect(leaks.get('person') ?? []).toEqual([]);
  });

  it('redacts nothing else: product names, plan names and the company contact lines stay', () => {
    expect(unexplained).toEqual([]);
  });
});
