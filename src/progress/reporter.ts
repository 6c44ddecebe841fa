/**
 * One progress reporter for every long command (`experiment run`, `evaluate`, `sample --once`, backfills, a
 * golden-set builder): on a terminal a live line redrawn in place, otherwise a log line every few seconds.
 * Always on stderr, so stdout stays the command's result. Clock and timers are injected.
 */
import { formatProgress, ProgressState, type ProgressSnapshot, type StageOptions } from './state.js';

export interface Progress {
  /** Starts a stage (and its clock for the ETA): what is counted and, when known, how many there are. */
  stage(label: string, options?: StageOptions): void;
  /** More work was found: the total grows and stays open until `totalKnown()`. */
  grow(n?: number): void;
  /** The total will not grow any more. */
  totalKnown(): void;
  advance(n?: number): void;
  /** Free text shown after the counts (`listed 340`). */
  note(text: string): void;
  callStarted(): void;
  callEnded(): void;
  /** Stops the timer and clears the live line. Safe to call twice. */
  end(): void;
}

export interface Timers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const systemTimers: Timers = {
  setInterval: (fn, ms) => {
    const handle = setInterval(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

export interface ProgressOptions {
  /** A live line redrawn in place (a terminal); otherwise one log line every `logEveryMs`. */
  live: boolean;
  /** Raw text to stderr (the live line). */
  write(text: string): void;
  /** One progress record when not live (a log line). */
  log(message: string, snapshot: ProgressSnapshot): void;
  now(): number;
  timers: Timers;
  /** Between log lines when not live (default 15 s). */
  logEveryMs?: number;
  /** Between redraws of the live line, so elapsed time and ETA move (default 1 s). */
  redrawEveryMs?: number;
  /** Terminal width: the live line is cut to fit (default 120). */
  columns?: number;
}

export const DEFAULT_LOG_EVERY_MS = 15_000;
const MIN_REDRAW_GAP_MS = 100;
const CLEAR_LINE = '\r\x1b[2K';

export function createProgress(options: ProgressOptions): Progress {
  const state = new ProgressState();
  const { now, timers } = options;
  let timer: unknown = null;
  let ended = false;
  let drawn = false;
  let lastDraw = Number.NEGATIVE_INFINITY;

  const line = () => formatProgress(state.snapshot(now()));
  const draw = (force: boolean) => {
    if (!options.live || ended || !state.started) return;
    const t = now();
    if (!force && t - lastDraw < MIN_REDRAW_GAP_MS) return;
    lastDraw = t;
    const width = Math.max(20, (options.columns ?? 120) - 1);
    const text = line();
    options.write(`${CLEAR_LINE}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    drawn = true;
  };
  const tick = () => {
    if (ended || !state.started) return;
    if (options.live) draw(true);
    else {
      const snapshot = state.snapshot(now());
      options.log(`progress: ${formatProgress(snapshot)}`, snapshot);
    }
  };
  const ensureTimer = () => {
    if (timer !== null || ended) return;
    timer = timers.setInterval(
      tick,
      options.live ? (options.redrawEveryMs ?? 1000) : (options.logEveryMs ?? DEFAULT_LOG_EVERY_MS),
    );
  };
  const changed = () => draw(false);

  return {
    stage(label, stageOptions = {}) {
      if (ended) return;
      state.stage(label, stageOptions, now());
      ensureTimer();
      draw(true);
    },
    grow(n = 1) {
      state.grow(n);
      changed();
    },
    totalKnown() {
      state.totalKnown();
      changed();
    },
    advance(n = 1) {
      state.advance(n);
      changed();
    },
    note(text) {
      state.setNote(text);
    },
    callStarted() {
      state.callStarted();
      changed();
    },
    callEnded() {
      state.callEnded();
      changed();
    },
    end() {
      if (ended) return;
      ended = true;
      if (timer !== null) timers.clearInterval(timer);
      timer = null;
      if (drawn) options.write(CLEAR_LINE);
    },
  };
}

/** For `--no-progress` and for callers that report nothing. */
export const noProgress: Progress = {
  stage: () => {},
  grow: () => {},
  totalKnown: () => {},
  advance: () => {},
  note: () => {},
  callStarted: () => {},
  callEnded: () => {},
  end: () => {},
};
