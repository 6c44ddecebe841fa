import type { TickReport, TraceReport } from 'ragwatch/online/job.js';
import { scoreNameFor } from 'ragwatch/scores/index.js';
import type { DemoEnvironment } from '../run-demo.js';

/** One sampled trace as the demo shows it: what the corpus made it, what the tick did, what Langfuse now holds. */
export interface SampledTrace {
  traceId: string;
  /** From the seeded corpus; `unknown` for a trace the seed step did not send. */
  shape: string;
  variant: string;
  kind: string;
  quality: string;
  status: TraceReport['status'];
  reason?: string;
  /** Score names the tick reports as written for this trace. */
  scored: string[];
  /** Score name → value, read back from the Langfuse stand-in's store by the original trace id. */
  scores: Record<string, number>;
}

export function sampledTraces(env: DemoEnvironment, report: TickReport): SampledTrace[] {
  const prefix = env.config.metrics.scorePrefix;
  const corpus = new Map(env.seeded.map((t) => [t.id, t]));
  return [...report.traces]
    .sort((a, b) => a.traceId.localeCompare(b.traceId))
    .map((t) => {
      const seeded = corpus.get(t.traceId);
      const scores: Record<string, number> = {};
      for (const s of env.langfuse.store.scores({ traceId: t.traceId })) {
        if (s.name.startsWith(prefix)) scores[s.name] = s.value;
      }
      return {
        traceId: t.traceId,
        shape: seeded?.shape ?? 'unknown',
        variant: seeded?.variant ?? 'unknown',
        kind: seeded?.kind ?? 'unknown',
        quality: seeded?.quality ?? 'unknown',
        status: t.status,
        ...(t.reason ? { reason: t.reason } : {}),
        scored: t.scores.map((s) => scoreNameFor(prefix, s.metric)),
        scores,
      };
    });
}

const fixed = (n: number) => n.toFixed(3);

export function sampledTraceLines(traces: readonly SampledTrace[]): string[] {
  const shapeWidth = Math.max(...traces.map((t) => `${t.shape}/${t.variant}`.length));
  const kindWidth = Math.max(...traces.map((t) => `${t.kind}, ${t.quality}`.length));
  return traces.map((t) => {
    const scores = Object.entries(t.scores)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => `${name} ${fixed(value)}`)
      .join(' · ');
    const status = t.reason ? `${t.status} (${t.reason})` : t.status;
    return `  ${t.traceId}  ${`${t.shape}/${t.variant}`.padEnd(shapeWidth)}  ${`${t.kind}, ${t.quality}`.padEnd(kindWidth)}  ${status}${scores ? `  ${scores}` : ''}`;
  });
}

/** Where a user reads one trace on the stand-in: v3 serves the trace with its scores, v4 its observations. */
export function traceUrl(env: Pick<DemoEnvironment, 'langfuse' | 'personality'>, traceId: string): string {
  const base = env.langfuse.url;
  return env.personality === 'v3'
    ? `${base}/api/public/traces/${encodeURIComponent(traceId)}`
    : `${base}/api/public/v2/observations?traceId=${encodeURIComponent(traceId)}&fields=core,basic,io`;
}
