import { scoreIdFor } from '../langfuse/index.js';
import type { OnlineLangfuse, ScoreToWrite, WriteScoresResult } from './ports.js';

interface Waiting {
  scores: ScoreToWrite[];
  resolve: (result: WriteScoresResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Gathers the scores of traces finishing at about the same time into one ingestion call (up to
 * `maxEvents`, or after `maxDelayMs`), and hands each trace back its own part of the 207 answer. Each trace
 * still waits for its own scores to be acknowledged before its ledger entry is marked done.
 */
export class ScoreBatcher {
  private waiting: Waiting[] = [];
  private count = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly langfuse: Pick<OnlineLangfuse, 'writeScores'>,
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
    this.langfuse.writeScores(batch.flatMap((w) => w.scores)).then(
      (result) => {
        const written = new Set(result.written);
        const failed = new Map(result.failed.map((f) => [f.id, f]));
        for (const w of batch) {
          const ids = w.scores.map((s) => scoreIdFor(s.traceId, s.name));
          w.resolve({ written: ids.filter((id) => written.has(id)), failed: ids.flatMap((id) => (failed.has(id) ? [failed.get(id)!] : [])) });
        }
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
      },
    );
  }
}
