import { describe, expect, it } from 'vitest';
import { extractRagSample } from '../../../src/extract/extract.js';
import { formatExtractReport } from '../../../src/extract/report-format.js';
import { extractReport } from '../../../src/extract/report.js';
import { traceNameKey } from '../../../src/internal/index.js';
import type { ObservationRecord, TraceRecord } from '../../../src/langfuse/core/types.js';

/**
 * Issue 29, part 5: `extract --trace` prints trace and span names only as their keys (the name when it reads as an
 * identifier, else a hash): in the tree, the parts' sources, a skip's detail and the JSON alike.
 */

const TRACE = 'Pregunta de Ana García (ana.garcia@example.com)';
const RETRIEVAL = 'retriever for Ana García 699112233';
const TOOL = 'Pedido de Juan Pérez';

const o = (id: string, parent: string | null, extra: Partial<ObservationRecord>): ObservationRecord => ({
  id,
  parentObservationId: parent,
  type: 'SPAN',
  name: id,
  startTime: '2026-01-01T00:00:00.000Z',
  input: null,
  output: null,
  metadata: null,
  ...extra,
});

const trace = (observations: ObservationRecord[]): TraceRecord => ({
  id: 't',
  name: TRACE,
  timestamp: '2026-01-01T00:00:00.000Z',
  environment: 'default',
  input: 'Where is my order?',
  output: 'It ships tomorrow.',
  metadata: null,
  tags: [],
  observations,
});

function printed(t: TraceRecord): string[] {
  const outcome = extractRagSample(t);
  const report = extractReport(t, outcome);
  const view = { apiGeneration: 'v3', mapping: 'none' };
  return [formatExtractReport(report, view), JSON.stringify(report)];
}

describe('names printed by extract', () => {
  it('an extracted trace: trace, retrieval and generation names as keys', () => {
    const t = trace([
      o('root', null, { name: 'rag-answer' }),
      o('r', 'root', { type: 'RETRIEVER', name: RETRIEVAL, output: ['Orders ship within 48 hours.'] }),
      o('g', 'root', {
        type: 'GENERATION',
        name: 'chat Ana García',
        input: [{ role: 'user', content: 'Where is my order?' }],
        output: 'It ships tomorrow.',
      }),
    ]);
    expect(extractRagSample(t).ok).toBe(true);
    for (const out of printed(t)) {
      expect(out).not.toMatch(/Ana|García|699112233|example\.com/);
      expect(out).toContain(traceNameKey(TRACE)!);
      expect(out).toContain(traceNameKey(RETRIEVAL)!);
      expect(out).toContain('rag-answer');
    }
  });

  it('a skipped trace: the tools named in the reason and the mapping example as keys', () => {
    const t = trace([
      o('root', null, { name: 'rag-answer' }),
      o('tool', 'root', { type: 'TOOL', name: TOOL, output: { status: 'shipped' } }),
    ]);
    expect(extractRagSample(t).ok).toBe(false);
    for (const out of printed(t)) {
      expect(out).not.toMatch(/Juan|Pérez|Ana|García/);
      expect(out).toContain(traceNameKey(TOOL)!);
    }
  });
});
