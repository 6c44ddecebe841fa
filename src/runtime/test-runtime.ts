/**
 * The runtime for tests (and the demo): a clock that moves only when told, seeded randomness and ids, sleeps that
 * return at once (recorded), a silent logger unless given one, and a registry that keeps what it observes.
 */
import { seededRandom } from '../random.js';
import { createKeepAliveFetch, type Sleep } from '../internal/index.js';
import { silentLogger, type Logger } from './logger.js';
import {
  idsFrom,
  type Clock,
  type JudgeRequestObservation,
  type LangfuseRequestObservation,
  type MetricsRegistry,
  type Runtime,
} from './runtime.js';

/** A clock tests drive by hand. */
export interface FakeClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function fakeClock(startMs: number): FakeClock {
  let t = startMs;
  return { now: () => t, set: (ms) => void (t = ms), advance: (ms) => void (t += ms) };
}

/** A registry that keeps every observation, in order. */
export interface RecordingMetrics extends MetricsRegistry {
  readonly langfuseRequests: LangfuseRequestObservation[];
  readonly judgeRequests: JudgeRequestObservation[];
}

export function recordingMetrics(): RecordingMetrics {
  const langfuseRequests: LangfuseRequestObservation[] = [];
  const judgeRequests: JudgeRequestObservation[] = [];
  return {
    langfuseRequests,
    judgeRequests,
    observeLangfuseRequest: (e) => void langfuseRequests.push(e),
    observeJudgeRequest: (e) => void judgeRequests.push(e),
  };
}

export interface TestRuntimeOptions {
  /** Where the fake clock starts (default 2025-03-01T12:00:00Z), or a clock of the test's own. */
  now?: number | Clock;
  /** Seed of the randomness and the ids (default 1). */
  seed?: number;
  /** The transport (default: the keep-alive fetch, as in production; tests talk to stand-ins on loopback). */
  fetch?: typeof globalThis.fetch;
  logger?: Logger;
  /** What a sleep does (default: return at once, once the signal is checked). */
  sleep?: Sleep;
  /** Uniform in [0, 1) (default: seeded by `seed`). */
  random?: () => number;
  metrics?: MetricsRegistry;
}

export interface TestRuntime extends Runtime {
  readonly clock: Clock;
  /** Every sleep asked for, in ms (with the default sleep). */
  readonly sleeps: number[];
}

export function testRuntime(options: TestRuntimeOptions = {}): TestRuntime {
  const clock =
    typeof options.now === 'object' ? options.now : fakeClock(options.now ?? Date.parse('2025-03-01T12:00:00Z'));
  const random = options.random ?? seededRandom(options.seed ?? 1);
  const sleeps: number[] = [];
  const sleep: Sleep =
    options.sleep ??
    (async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
    });
  return {
    clock,
    sleep,
    sleeps,
    random,
    ids: idsFrom(seededRandom((options.seed ?? 1) + 1)),
    fetch: options.fetch ?? createKeepAliveFetch(),
    logger: options.logger ?? silentLogger(),
    metrics: options.metrics ?? recordingMetrics(),
  };
}
