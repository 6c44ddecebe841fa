/**
 * The stand-ins of bench/scale in their own process, so their CPU is not ragwatch's: the Langfuse stand-in, the
 * judge stand-in on a production-like profile, and the toy RAG service. Driven over IPC by bench/scale.ts.
 */
import { LangfuseClient } from '@langfuse/client';
import { goldenItems, seedGoldenDataset } from '@ragwatch/devkit/corpus/index.js';
import type { GoldenItem } from '@ragwatch/devkit/corpus/types.js';
import { productionProfile, startJudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { startToyRag } from '@ragwatch/devkit/rag/index.js';
import { seedRagTraces } from '../_rag-traces.js';

export interface StandInsSpec {
  meanMs: number;
  sigma: number;
  parallelism: number;
  /** The judge's lexical rules (golden-set generation and filters) on; default off. */
  builtinRules?: boolean;
  /** Extra service time per prompt token (prefill), for the tail scenario. */
  msPerPromptToken?: number;
}

export type ToStandIns =
  | { type: 'seed-backlog'; count: number; from: number; to: number }
  | { type: 'seed-bulk'; count: number; from: number; to: number }
  | { type: 'seed-golden'; name: string; items: number }
  | { type: 'snapshot' }
  | { type: 'close' };

/** The stand-ins' CPU so far, their clock, and the judge's counters (request·ms integrals and drawn service ms). */
export interface Snapshot {
  cpuMs: number;
  atMs: number;
  judgeRequests: number;
  granted: number;
  inServiceMs: number;
  inFlightMs: number;
  serviceDrawnMs: number;
  /** The longest single service time drawn so far. */
  maxServiceDrawnMs: number;
  parallelism: number;
  /** Requests the Langfuse stand-in answered since start. */
  langfuseRequests: number;
}

export type FromStandIns =
  | {
      type: 'ready';
      langfuse: { url: string; publicKey: string; secretKey: string };
      judge: { url: string; model: string; embeddingModel: string };
      ragUrl: string;
    }
  | ({ type: 'done'; seeded?: number } & Snapshot);

export async function serveStandIns(spec: StandInsSpec): Promise<void> {
  const lf = await startLangfuseServer({ personality: 'v3', host: '127.0.0.1', port: 0 });
  const profile = productionProfile({ meanMs: spec.meanMs, sigma: spec.sigma, parallelism: spec.parallelism });
  // The schema-driven fallback answers every judge request: the bench measures pacing, not lexical rules.
  const judge = await startJudgeServer({
    host: '127.0.0.1',
    port: 0,
    parallelism: profile.parallelism,
    serviceTimeMs: profile.serviceTimeMs,
    builtinRules: spec.builtinRules ?? false,
    recordLimit: 10,
    ...(spec.msPerPromptToken ? { msPerPromptToken: spec.msPerPromptToken } : {}),
  });
  const rag = await startToyRag();
  let langfuseRequests = 0;
  lf.onExchange(() => void (langfuseRequests += 1));
  const send = (m: FromStandIns) => process.send!(m);
  process.on('message', async (m: ToStandIns) => {
    let seeded: number | undefined;
    if (m.type === 'seed-backlog') seeded = seedBacklog(lf, m.count, m.from, m.to);
    if (m.type === 'seed-bulk') seeded = seedBulk(lf, m.count, m.from, m.to);
    if (m.type === 'seed-golden') seeded = await seedGolden(lf, m.name, m.items);
    if (m.type === 'close') {
      await Promise.all([lf.close(), judge.close(), rag.close()]);
      process.exit(0);
    }
    const cpu = process.cpuUsage();
    const s = judge.stats();
    send({
      type: 'done',
      ...(seeded !== undefined ? { seeded } : {}),
      cpuMs: (cpu.user + cpu.system) / 1000,
      atMs: performance.now(),
      judgeRequests: s.received,
      granted: s.granted,
      inServiceMs: s.inServiceMs,
      inFlightMs: s.inFlightMs,
      serviceDrawnMs: s.serviceDrawnMs,
      maxServiceDrawnMs: s.maxServiceDrawnMs,
      parallelism: s.parallelism,
      langfuseRequests,
    });
  });
  send({
    type: 'ready',
    langfuse: { url: lf.url, publicKey: lf.publicKey, secretKey: lf.secretKey },
    judge: { url: judge.url, model: judge.model, embeddingModel: judge.embeddingModel },
    ragUrl: rag.askUrl,
  });
}

/** RAG traces spread over [from, to]: question, retrieved chunks, an answer drawn from them. Returns how many. */
function seedBacklog(lf: LangfuseServer, count: number, from: number, to: number): number {
  seedRagTraces(lf, count, (i) => from + Math.floor(((i + 0.5) * (to - from)) / count));
  return count;
}

/** Bare traces for the listing measurement (a root span each). */
function seedBulk(lf: LangfuseServer, count: number, from: number, to: number): number {
  for (let i = 0; i < count; i++) {
    const id = `bulk${String(i).padStart(28, '0')}`;
    const at = from + Math.floor(((i + 0.5) * (to - from)) / count);
    lf.store.upsertTrace({
      id,
      timestamp: at,
      name: 'support-rag',
      input: 'q',
      output: 'a',
      environment: 'production',
    });
    lf.store.upsertObservation({
      id: `${id}-r`,
      traceId: id,
      type: 'SPAN',
      name: 'support-rag',
      startTime: at,
      endTime: at + 1000,
    });
  }
  return count;
}

/** A golden dataset of `count` items: the demo set's items repeated with numbered ids and questions. */
async function seedGolden(lf: LangfuseServer, name: string, count: number): Promise<number> {
  const base = goldenItems();
  const items: GoldenItem[] = Array.from({ length: count }, (_, i) => {
    const item = base[i % base.length]!;
    return { ...item, id: `${item.id}-${i}`, question: i < base.length ? item.question : `${item.question} (${i})` };
  });
  const client = new LangfuseClient({ baseUrl: lf.url, publicKey: lf.publicKey, secretKey: lf.secretKey });
  await seedGoldenDataset(client, { name, items, concurrency: 8 });
  return items.length;
}

if (process.argv[2] === '--child') {
  await serveStandIns(JSON.parse(process.argv[3]!) as StandInsSpec);
}
