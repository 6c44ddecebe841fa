import { scoreIdFor, type ScoreToWrite, type WriteScoresResult } from '../langfuse/index.js';

/** Where a job's scores go: each caller learns which of its own scores Langfuse took. */
export interface ScoreWriter {
  write(scores: ScoreToWrite[]): Promise<WriteScoresResult>;
}

/** The Langfuse call the batcher sends its batches through (`writeScores` of `src/langfuse/resources/scores.ts`). */
export interface ScoreSink {
  writeScores(scores: ScoreToWrite[]): Promise<WriteScoresResult>;
}

interface Waiting {
  scores: ScoreToWrite[];
  resolve: (result: WriteScoresResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Gathers the scores written at about the same time into one ingestion call (up to `maxEvents`, or after
 * `maxDelayMs`), and hands each caller back its own part of the 207 answer. The online job's traces finish
 * one by one and share calls; the weekly run writes all its items' scores at once. Each caller still waits for
 * its own scores to be acknowledged (a trace's ledger entry is marked done only then).
 */
export class ScoreBatcher implements ScoreWriter {
  private waiting: Waiting[] = [];
  private count = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: ScoreSink,
    private readonly maxEvents = 100,
    private readonly maxDelayMs = 25,
  ) {}

  write(scores: ScoreToWrite[]): Promise<WriteScoresResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ scores, resolve, reject });
      this.count += scores.length;
      if (this.count >= this.maxEvents) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxDelayMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    this.count = 0;
    if (batch.length === 0) return;
    this.sink.writeScores(batch.flatMap((w) => w.scores)).then(
      (result) => {
        const written = new Set(result.written);
        const failed = new Map(result.failed.map((f) => [f.id, f]));
        for (const w of batch) {
          const ids = w.scores.map((s) => scoreIdFor(s.traceId, s.name));
          w.resolve({
            written: ids.filter((id) => written.has(id)),
            failed: ids.flatMap((id) => (failed.has(id) ? [failed.get(id)!] : [])),
          });
        }
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
      },
    );
  }
}
