import { traceNameKey } from '../internal/index.js';
import { detectLanguage } from '../metrics/index.js';
import type { ExtractResult } from '../extract/index.js';
import type { TraceRecord, TraceSummary } from '../langfuse/index.js';
import { sha256 } from './ids.js';
import type { Progress } from './ports.js';
import type { Chunk } from './types.js';

/**
 * The corpus as production saw it: the retrieved contexts of traces already in Langfuse, deduplicated by
 * normalised text. A chunk's id is a hash of its text (so the same chunk retrieved by many traces is one chunk);
 * its metadata names the trace name's key (`traceNameKey`: a stratum the plan prints), and the first day and month it was retrieved on (for date strata). Personal
 * data is handled afterwards, like any corpus: chunks in which the anonymizer finds some never seed a question.
 */

export interface TraceSource {
  list(window: { from: Date; to: Date }): AsyncIterable<TraceSummary>;
  get(id: string): Promise<TraceRecord | null>;
  extract(trace: TraceRecord): ExtractResult;
}

export interface TraceChunks {
  chunks: Chunk[];
  traces: number;
  /** Traces without a RAG sample, by reason. */
  skipped: Record<string, number>;
}

const normalised = (text: string) => text.normalize('NFKC').replace(/\s+/g, ' ').trim();

export async function chunksFromTraces(
  source: TraceSource,
  options: { from: Date; to: Date; maxTraces: number; progress: Progress },
): Promise<TraceChunks> {
  const byKey = new Map<string, Chunk>();
  const skipped: Record<string, number> = {};
  let traces = 0;
  options.progress.stage('golden: reading traces', { unit: 'traces' });
  for await (const summary of source.list({ from: options.from, to: options.to })) {
    if (traces >= options.maxTraces) break;
    traces += 1;
    options.progress.grow();
    const trace = await source.get(summary.id);
    const extracted = trace ? source.extract(trace) : ({ ok: false, reason: 'malformed_trace' } as const);
    options.progress.advance();
    if (!extracted.ok) {
      skipped[extracted.reason] = (skipped[extracted.reason] ?? 0) + 1;
      continue;
    }
    for (const context of extracted.sample.contexts) {
      const text = normalised(context);
      if (text === '') continue;
      const key = sha256('ragwatch-trace-chunk-v1', text.toLowerCase()).slice(0, 24);
      if (byKey.has(key)) continue;
      const day = new Date(Date.parse(summary.timestamp) || 0).toISOString().slice(0, 10);
      byKey.set(key, {
        id: `trace-chunk-${key}`,
        text,
        language: detectLanguage(text),
        document: null,
        position: byKey.size,
        metadata: {
          trace_name: traceNameKey(summary.name) ?? '',
          date: day,
          month: day.slice(0, 7),
          retrieved_in: summary.id,
        },
      });
    }
  }
  options.progress.totalKnown();
  return { chunks: [...byKey.values()], traces, skipped };
}
