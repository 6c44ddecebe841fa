/**
 * The golden-set build of bench/scale: `ragwatch golden build` (in this process, as the CLI runs it) on a corpus of
 * `chunks` chunks with the default `golden` settings, generating and filtering questions with the judge stand-in.
 * Wall time from the first judge request to the end of the build, against the judge-bound ideal.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { writeCorpusExport } from '@ragwatch/devkit/corpus/export.js';
import { KNOWLEDGE } from '@ragwatch/devkit/corpus/knowledge.js';
import type { KnowledgeChunk } from '@ragwatch/devkit/corpus/types.js';
import { main } from '../../src/program.js';
import { occupancyOf, sampleJudge, type Occupancy } from './occupancy.js';
import type { StandIns } from './procs.js';

export interface GoldenResult {
  chunks: number;
  seconds: number;
  idealSeconds: number;
  /** The longest single call the judge drew (a build is at least this long, and as long as its longest chain). */
  longestCallSeconds: number;
  occupancy: Occupancy;
  judgeRequests: number;
  cpuMs: number;
  /** The build's own summary: its table per stratum and its rejections. */
  summary: string;
}

/** The demo knowledge base copied until it has `count` chunks: each copy its own documents, ids and a numbered line. */
export function corpusOf(count: number): KnowledgeChunk[] {
  return Array.from({ length: count }, (_, i) => {
    const base = KNOWLEDGE[i % KNOWLEDGE.length]!;
    const copy = Math.floor(i / KNOWLEDGE.length);
    if (copy === 0) return base;
    return {
      ...base,
      id: `${base.id}-c${copy}`,
      source: base.source.replace(/(\.\w+)$/, `-${copy}$1`),
      text: `${base.text} (${base.lang === 'es' ? 'Edición' : 'Edition'} ${copy + 1}.)`,
    };
  });
}

export async function goldenBuild(standIns: StandIns, chunks: number, judgeConcurrency: number): Promise<GoldenResult> {
  const dir = await mkdtemp(join(tmpdir(), 'ragwatch-bench-scale-golden-'));
  writeCorpusExport(join(dir, 'corpus'), corpusOf(chunks));
  const { langfuse, judge } = standIns.ready;
  const config = {
    langfuse: { baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey },
    judge: { baseUrl: judge.url, model: judge.model, concurrency: judgeConcurrency },
    embeddings: { model: judge.embeddingModel },
    state: { path: join(dir, 'state.db') },
    log: { level: 'silent' },
    golden: { dataset: `bench-golden-${chunks}-${Date.now()}`, corpus: join(dir, 'corpus') },
  };
  const path = join(dir, 'ragwatch.yaml');
  await writeFile(path, JSON.stringify(config));
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const stdin = new PassThrough();
  stdin.end('');
  const sampler = sampleJudge(standIns);
  const cpu0 = process.cpuUsage();
  const code = await main(['--config', path, 'golden', 'build', '--no-progress'], {
    stdout,
    stderr,
    stdin,
    env: {},
    cwd: dir,
  });
  const cpu = process.cpuUsage(cpu0);
  const samples = await sampler.stop();
  await rm(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`golden build exited ${code}: ${err.slice(0, 2000)}`);
  // From the first request the judge granted: reading the corpus and planning come before, at the CPU's pace.
  const first = samples.findIndex((s) => s.granted > samples[0]!.granted);
  const span = samples.slice(Math.max(0, first - 1));
  const before = span[0]!;
  const after = span[span.length - 1]!;
  return {
    chunks,
    seconds: (after.atMs - before.atMs) / 1000,
    idealSeconds: (after.serviceDrawnMs - before.serviceDrawnMs) / after.parallelism / 1000,
    longestCallSeconds: after.maxServiceDrawnMs / 1000,
    occupancy: occupancyOf(span),
    judgeRequests: after.granted - before.granted,
    cpuMs: (cpu.user + cpu.system) / 1000,
    summary: out
      .split('\n')
      .filter((l) => /^(stratum|single-hop|multi-hop|adversarial|rejected:)/.test(l.trim()))
      .map((l) => l.trim().replace(/\s+/g, ' '))
      .join('; '),
  };
}
