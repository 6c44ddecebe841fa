import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractRagSample } from '../../../src/extract/extract.js';
import { skipReasons } from '../../../src/extract/types.js';
import type { ObservationRecord, TraceRecord } from '../../../src/langfuse/core/types.js';
import { integrationExpectations, integrationNames, loadIntegrationTrace } from './integration-fixtures.js';

/**
 * Real traces mangled the ways a Langfuse response can be: values replaced by arbitrary JSON or JSON
 * strings, types and names changed, parents dropped or made into cycles. Extraction must never throw and
 * must always return either a complete sample or a known skip reason.
 */

const fixtures: TraceRecord[] = integrationNames().flatMap((name) =>
  Object.keys(integrationExpectations(name).scenarios).flatMap((s) => [
    loadIntegrationTrace(name, s, 'v3'),
    loadIntegrationTrace(name, s, 'v4'),
  ]),
);

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.constantFrom(
    'Context:\n[1] a\n[2] b',
    '<documents><document>x</document>',
    '{"messages":[{"role":"user"}]}',
    '[[[[]]]]',
    '',
    null,
  ),
);
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('input' as const), value }),
  fc.record({ kind: fc.constant('output' as const), value }),
  fc.record({ kind: fc.constant('metadata' as const), value }),
  fc.record({
    kind: fc.constant('type' as const),
    value: fc.constantFrom('SPAN', 'GENERATION', 'RETRIEVER', 'TOOL', 'EVENT', 'AGENT', 'weird'),
  }),
  fc.record({ kind: fc.constant('name' as const), value: fc.option(fc.string({ maxLength: 30 }), { nil: null }) }),
  fc.record({ kind: fc.constant('parent' as const), value: fc.constantFrom('drop', 'self', 'cycle') }),
  fc.record({ kind: fc.constant('trace' as const), value }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(trace: TraceRecord, steps: Array<{ index: number; m: Mutation }>): TraceRecord {
  const observations: ObservationRecord[] = trace.observations.map((o) => ({ ...o }));
  const t: TraceRecord = { ...trace, observations };
  for (const { index, m } of steps) {
    const o = observations[index % Math.max(1, observations.length)];
    if (m.kind === 'trace') {
      t.input = m.value;
      continue;
    }
    if (!o) continue;
    if (m.kind === 'input' || m.kind === 'output' || m.kind === 'metadata') o[m.kind] = m.value;
    else if (m.kind === 'type') o.type = m.value;
    else if (m.kind === 'name') o.name = m.value;
    else if (m.value === 'drop') o.parentObservationId = null;
    else if (m.value === 'self') o.parentObservationId = o.id;
    else {
      const other = observations[(index + 1) % observations.length]!;
      o.parentObservationId = other.id;
      other.parentObservationId = o.id;
    }
  }
  return t;
}

describe('extraction on mangled real traces', () => {
  it('never throws and returns a complete sample or a known skip reason', () => {
    fc.assert(
      fc.property(
        fc.nat(fixtures.length - 1),
        fc.array(fc.record({ index: fc.nat(), m: mutation }), { minLength: 1, maxLength: 6 }),
        (which, steps) => {
          const result = extractRagSample(mutate(fixtures[which]!, steps));
          if (!result.ok) {
            expect(skipReasons).toContain(result.reason);
            return;
          }
          expect(result.sample.question.trim()).not.toBe('');
          expect(result.sample.answer.trim()).not.toBe('');
          expect(result.sample.contexts.length).toBeGreaterThan(0);
          for (const c of result.sample.contexts) expect(typeof c === 'string' && c.trim().length > 0).toBe(true);
          expect(['retrieval', 'prompt', 'mapping']).toContain(result.parts.contexts.from);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
