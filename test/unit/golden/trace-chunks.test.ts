import { describe, expect, it } from 'vitest';
import { chunksFromTraces } from '../../../src/golden/trace-chunks.js';
import { traceNameKey } from '../../../src/internal/index.js';
import { noProgress } from '../../../src/progress/index.js';

/** Issue 29, part 5: chunks read from traces carry the trace name's key (a stratum, printed by the plan), never the name. */
describe('golden build --from-traces', () => {
  it("a chunk's trace_name is the name's key", async () => {
    const names = ['rag-answer', '¿Dónde está mi pedido? Soy Ana García'];
    const summaries = names.map((name, i) => ({
      id: `t${i}`,
      name,
      timestamp: '2026-11-01T10:00:00.000Z',
      environment: 'default',
      tags: [],
    }));
    const got = await chunksFromTraces(
      {
        async *list() {
          yield* summaries;
        },
        get: async (id) => ({ id }) as never,
        extract: (trace) =>
          ({
            ok: true,
            sample: { contexts: [`Orders ship within 48 hours (${(trace as { id: string }).id}).`] },
          }) as never,
      },
      { from: new Date(0), to: new Date(), maxTraces: 10, progress: noProgress },
    );
    expect(got.chunks.map((c) => c.metadata.trace_name)).toEqual(['rag-answer', traceNameKey(names[1])]);
  });
});
