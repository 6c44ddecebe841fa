/**
 * The runtime: the process's edges every job reaches through — the clock, sleep, randomness, ids, the HTTP
 * transport, the logger and the metrics registry — built once where ragwatch starts (a command, the daemon) and
 * passed down to the jobs' edges, which hand its parts to the clients. Tests build theirs with `testRuntime()`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createKeepAliveFetch, sleep, type Sleep } from '../internal/index.js';
import type { Logger } from './logger.js';

export interface Clock {
  now(): number;
}

/** Fresh ids: UUIDs, and W3C trace and span ids (32 and 16 lower-case hex digits) for the traces ragwatch writes. */
export interface Ids {
  uuid(): string;
  traceId(): string;
  spanId(): string;
}

/** One request to Langfuse (one attempt), as the metrics registry counts it. */
export interface LangfuseRequestObservation {
  route: string;
  outcome: string;
  latencyMs: number;
}

/** One request to the judge or the embeddings server (one attempt), with its tokens. */
export interface JudgeRequestObservation {
  kind: 'chat' | 'embeddings';
  outcome: string;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * What the runtime reports to: the requests every client makes. The daemon's registry is Prometheus
 * (service/metrics.ts, which also implements the jobs' own recorders); a command reports to none.
 */
export interface MetricsRegistry {
  observeLangfuseRequest(event: LangfuseRequestObservation): void;
  observeJudgeRequest(event: JudgeRequestObservation): void;
}

export interface Runtime {
  readonly clock: Clock;
  /** Abortable: rejects with the signal's reason as soon as it aborts. */
  readonly sleep: Sleep;
  /** Uniform in [0, 1): backoff jitter. */
  readonly random: () => number;
  readonly ids: Ids;
  /** The one HTTP transport for Langfuse, the judge and the RAG service (a keep-alive fetch on node:http). */
  readonly fetch: typeof globalThis.fetch;
  readonly logger: Logger;
  readonly metrics: MetricsRegistry;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A registry that keeps nothing (commands: their figures are their output). */
export const noMetrics: MetricsRegistry = {
  observeLangfuseRequest: () => {},
  observeJudgeRequest: () => {},
};

/** Ids drawn from a source of uniform numbers (32 bits at a time). */
export function idsFrom(random: () => number): Ids {
  const hex = (digits: number) => {
    let out = '';
    while (out.length < digits)
      out += Math.floor(random() * 2 ** 32)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, digits);
  };
  const nonZero = (digits: number) => {
    for (;;) {
      const id = hex(digits);
      if (!/^0+$/.test(id)) return id;
    }
  };
  return {
    uuid: () => {
      const h = hex(32);
      const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    traceId: () => nonZero(32),
    spanId: () => nonZero(16),
  };
}

/** The process's ids: crypto-random. */
export const cryptoIds: Ids = {
  uuid: () => randomUUID(),
  traceId: () => randomBytes(16).toString('hex'),
  spanId: () => randomBytes(8).toString('hex'),
};

export interface RuntimeOptions {
  logger: Logger;
  metrics?: MetricsRegistry;
  /** The transport; a keep-alive fetch on node:http by default. */
  fetch?: typeof globalThis.fetch;
  /** The system clock by default (the demo runs on a clock of its own). */
  clock?: Clock;
}

/** The production runtime: the system clock, real sleeps, Math.random, crypto ids, the keep-alive transport. */
export function createRuntime(options: RuntimeOptions): Runtime {
  return {
    clock: options.clock ?? systemClock,
    sleep,
    random: Math.random,
    ids: cryptoIds,
    fetch: options.fetch ?? createKeepAliveFetch(),
    logger: options.logger,
    metrics: options.metrics ?? noMetrics,
  };
}

/** The same runtime reporting to another registry (the daemon hands its jobs its Prometheus registry). */
export function withMetrics(runtime: Runtime, metrics: MetricsRegistry): Runtime {
  return { ...runtime, metrics };
}
