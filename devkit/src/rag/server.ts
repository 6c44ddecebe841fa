import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerQuestion } from './answer.js';
import { startSdkTracing } from './sdk-trace.js';
import { recordToyTrace, type LangfuseTarget } from './trace.js';

export interface ToyRagOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Noisier retrieval and a hallucinated sentence (see `answerQuestion`). */
  degraded?: boolean;
  /** When given, every answer is recorded as a trace there and its ID returned as `traceId`. */
  langfuse?: LangfuseTarget;
  /**
   * How answers are recorded in `langfuse`: `otlp` (default) posts the spans itself, `sdk` goes through
   * `@langfuse/otel` and `@langfuse/tracing` as an instrumented service does. Either way a request the weekly run
   * marked (`x-ragwatch-run`, or a body field `ragwatchRun`) is tagged `ragwatch-experiment`.
   */
  tracing?: 'otlp' | 'sdk';
  /** Chunks retrieved per question. */
  k?: number;
  /** Answers with this HTTP status instead (e.g. 503 to play an outage). */
  failWith?: number;
  now?: () => number;
}

export interface ToyRag {
  url: string;
  /** `POST {question, distractors?}` → `{answer, contexts, sources, traceId?}`. */
  askUrl: string;
  degraded: boolean;
  /** Answers with this status until set back to null. */
  failWith: number | null;
  /** Requests answered, by kind. */
  readonly stats: { asked: number; withDistractors: number; failed: number; marked: number };
  close(): Promise<void>;
}

/**
 * A toy RAG service over the demo corpus, for the demo and end-to-end tests of the weekly experiment: real HTTP
 * on loopback, deterministic answers, a switch that makes it worse, and extra contexts (`distractors`).
 */
export async function startToyRag(options: ToyRagOptions = {}): Promise<ToyRag> {
  const now = options.now ?? Date.now;
  const stats = { asked: 0, withDistractors: 0, failed: 0, marked: 0 };
  const sdk = options.langfuse && options.tracing === 'sdk' ? startSdkTracing(options.langfuse) : null;
  const state = { degraded: options.degraded ?? false, failWith: options.failWith ?? null };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/health') return send(res, 200, { status: 'ok', degraded: state.degraded });
    if (req.method !== 'POST' || path !== '/ask') return send(res, 404, { error: 'not found' });
    const body = await readJson(req);
    if (state.failWith !== null) {
      stats.failed++;
      return send(res, state.failWith, { error: 'unavailable' });
    }
    const question = typeof body?.question === 'string' ? body.question.trim() : '';
    if (!question) return send(res, 400, { error: 'question (string) is required' });
    const distractors = Array.isArray(body?.distractors)
      ? body.distractors.filter((d: unknown): d is string => typeof d === 'string' && d.trim() !== '')
      : [];
    const startMs = now();
    const answer = answerQuestion(question, {
      degraded: state.degraded,
      distractors,
      ...(options.k ? { k: options.k } : {}),
    });
    stats.asked++;
    if (distractors.length > 0) stats.withDistractors++;
    const experimentRun = experimentRunOf(req, body);
    if (experimentRun !== undefined) stats.marked++;
    let traceId: string | undefined;
    if (options.langfuse) {
      try {
        const traced = { question, answer: answer.answer, contexts: answer.contexts, experimentRun };
        traceId = sdk
          ? await sdk.record(traced)
          : await recordToyTrace(options.langfuse, { ...traced, startMs, endMs: Math.max(startMs, now()) });
      } catch {
        traceId = undefined; // tracing must never fail the answer
      }
    }
    return send(res, 200, {
      answer: answer.answer,
      contexts: answer.contexts,
      sources: answer.sources,
      ...(traceId ? { traceId } : {}),
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    askUrl: `${url}/ask`,
    get degraded() {
      return state.degraded;
    },
    set degraded(value: boolean) {
      state.degraded = value;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(value: number | null) {
      state.failWith = value;
    },
    stats,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sdk?.shutdown();
    },
  };
}

/** The weekly run's mark: the `x-ragwatch-run` header, else a body field `ragwatchRun` (docs/integrations.md). */
function experimentRunOf(req: IncomingMessage, body: Record<string, any> | null): string | undefined {
  const header = req.headers['x-ragwatch-run'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value) return value;
  return typeof body?.ragwatchRun === 'string' && body.ragwatchRun ? body.ragwatchRun : undefined;
}

async function readJson(req: IncomingMessage): Promise<Record<string, any> | null> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
