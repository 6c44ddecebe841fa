/**
 * The state of one long piece of work, and how it reads on one line. Pure: the clock is passed in, so the
 * same snapshot always formats the same way.
 */

export interface StageOptions {
  /** What is counted (plural): `items`, `traces`, `samples`. */
  unit?: string;
  /** How many there are, when known up front. */
  total?: number;
}

export interface ProgressSnapshot {
  /** What is being done, e.g. `experiment: clean pass`. */
  label: string;
  unit: string;
  done: number;
  /** null while nothing says how many there will be. */
  total: number | null;
  /** False while the total may still grow (a listing goes on). */
  totalFinal: boolean;
  /** Judge calls sent and not answered yet. */
  inFlight: number;
  elapsedMs: number;
  /** Remaining time at the stage's average pace; null until there is a final total and a first item done. */
  etaMs: number | null;
  /** Free text after the counts (`listed 340`). */
  note: string;
}

export class ProgressState {
  private label = '';
  private unit = 'items';
  private done = 0;
  private total: number | null = null;
  private totalFinal = false;
  private note = '';
  private stageStart = 0;
  private inFlight = 0;
  private active = false;

  get started(): boolean {
    return this.active;
  }

  stage(label: string, options: StageOptions, now: number): void {
    this.active = true;
    this.label = label;
    this.unit = options.unit ?? 'items';
    this.done = 0;
    this.total = options.total ?? null;
    this.totalFinal = options.total !== undefined;
    this.note = '';
    this.stageStart = now;
  }

  grow(n: number): void {
    this.total = (this.total ?? 0) + n;
  }

  totalKnown(): void {
    this.total ??= this.done;
    this.totalFinal = true;
  }

  advance(n: number): void {
    this.done += n;
  }

  setNote(text: string): void {
    this.note = text;
  }

  callStarted(): void {
    this.inFlight += 1;
  }

  callEnded(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  snapshot(now: number): ProgressSnapshot {
    const elapsedMs = Math.max(0, now - this.stageStart);
    return {
      label: this.label,
      unit: this.unit,
      done: this.done,
      total: this.total,
      totalFinal: this.totalFinal,
      inFlight: this.inFlight,
      elapsedMs,
      etaMs: eta(this.done, this.total, this.totalFinal, elapsedMs),
      note: this.note,
    };
  }
}

function eta(done: number, total: number | null, final: boolean, elapsedMs: number): number | null {
  if (!final || total === null || done <= 0 || elapsedMs <= 0) return null;
  return Math.max(0, ((total - done) * elapsedMs) / done);
}

/** `0:35`, `12:04`, `1:02:09`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** `experiment: clean pass 12/66 items (18 %) · 3 judge calls in flight · 0:35 elapsed · ETA 1:42` */
export function formatProgress(s: ProgressSnapshot): string {
  const parts: string[] = [];
  let counts: string;
  if (s.total === null) counts = `${s.done} ${s.unit}`;
  else if (!s.totalFinal) counts = `${s.done}/${s.total}+ ${s.unit}`;
  else counts = `${s.done}/${s.total} ${s.unit}${s.total > 0 ? ` (${Math.floor((100 * s.done) / s.total)} %)` : ''}`;
  parts.push(`${s.label} ${counts}`);
  if (s.note) parts.push(s.note);
  parts.push(`${s.inFlight} judge call${s.inFlight === 1 ? '' : 's'} in flight`);
  parts.push(`${formatDuration(s.elapsedMs)} elapsed`);
  if (s.etaMs !== null && s.total !== null && s.done < s.total) parts.push(`ETA ${formatDuration(s.etaMs)}`);
  return parts.join(' · ');
}
