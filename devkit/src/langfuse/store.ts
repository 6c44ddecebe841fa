import { randomUUID } from 'node:crypto';
import { mergeObservation, mergeTrace, type ObservationInput, type TraceInput } from './merge.js';
import { ScoreTable, type ScoreInput } from './score-table.js';
import { DatasetTable } from './dataset-table.js';
import { AnnotationQueueTable, type AnnotationQueueSnapshot } from './annotation-queue-table.js';
import { deriveExperimentRuns, type ExperimentRun } from './experiment-runs.js';
import type {
  DatasetRunView,
  ObservationRecord,
  Personality,
  ScoreConfigRecord,
  ScoreRecord,
  TraceRecord,
} from './types.js';

export type { ObservationInput, TraceInput } from './merge.js';
export type { ScoreInput } from './score-table.js';

export interface StoreOptions {
  personality: Personality;
  now?: () => number;
  projectId?: string;
}

export interface StoreSnapshot {
  version: 1;
  traces: TraceRecord[];
  observations: ObservationRecord[];
  scores: ScoreRecord[];
  scoreConfigs: ScoreConfigRecord[];
  datasets: ReturnType<DatasetTable['snapshot']>;
  /** Absent in snapshots written before the stand-in served annotation queues. */
  annotationQueues?: AnnotationQueueSnapshot;
}

/**
 * The in-memory Langfuse project. Tests and the demo seed and inspect it directly; the HTTP routes read and
 * write it through the same methods. `version` changes on every write so read paths can cache sorted views.
 */
export class LangfuseStore {
  readonly personality: Personality;
  readonly projectId: string;
  readonly now: () => number;
  private readonly traceMap = new Map<string, TraceRecord>();
  private readonly observationMap = new Map<string, ObservationRecord>();
  private readonly observationsByTrace = new Map<string, Set<string>>();
  private readonly scoreTable = new ScoreTable();
  private readonly configMap = new Map<string, ScoreConfigRecord>();
  readonly datasetTable: DatasetTable;
  readonly annotationQueues: AnnotationQueueTable;
  private changeListeners: (() => void)[] = [];
  private readonly dropped: { id: string; name: string; reason: string; at: number }[] = [];
  private writeVersion = 0;
  private writeDelayMs = 0;
  private latestVisible = 0;
  private sortedTracesCache: { version: number; list: TraceRecord[] } | null = null;
  private sortedObservationsCache: { version: number; list: ObservationRecord[] } | null = null;

  constructor(options: StoreOptions) {
    this.personality = options.personality;
    this.now = options.now ?? Date.now;
    this.projectId = options.projectId ?? 'devkit-project';
    this.datasetTable = new DatasetTable(this.now, () => this.changed());
    this.annotationQueues = new AnnotationQueueTable(this.now, () => this.changed());
  }

  get version(): number {
    return this.writeVersion;
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.push(listener);
    return () => {
      this.changeListeners = this.changeListeners.filter((l) => l !== listener);
    };
  }

  /** Latest `visibleAt` of any record: once the clock passes it, nothing is hidden by a write-side lag. */
  get latestVisibleAt(): number {
    return this.latestVisible;
  }

  /** Runs `write` so that the traces/observations it creates stay hidden from reads for `delayMs`. */
  withVisibilityDelay<T>(delayMs: number, write: () => T): T {
    const previous = this.writeDelayMs;
    this.writeDelayMs = Math.max(0, delayMs);
    try {
      return write();
    } finally {
      this.writeDelayMs = previous;
    }
  }

  private delayed<T extends { visibleAt?: number }>(input: T): T {
    if (this.writeDelayMs <= 0 || input.visibleAt !== undefined) return input;
    return { ...input, visibleAt: this.now() + this.writeDelayMs };
  }

  changed(): void {
    this.writeVersion++;
    for (const listener of this.changeListeners) listener();
  }

  // ── traces ────────────────────────────────────────────────────────────────

  /** Creates or merges a trace (Langfuse semantics: absent/null fields keep the old value, tags union). */
  upsertTrace(input: TraceInput): TraceRecord {
    const existing = this.traceMap.get(input.id);
    const record = mergeTrace(existing, this.delayed(input), this.now());
    if (!existing) this.traceMap.set(record.id, record);
    this.latestVisible = Math.max(this.latestVisible, record.visibleAt);
    this.changed();
    return record;
  }

  getTrace(id: string): TraceRecord | undefined {
    return this.traceMap.get(id);
  }

  traces(): TraceRecord[] {
    return [...this.traceMap.values()];
  }

  get traceCount(): number {
    return this.traceMap.size;
  }

  /** All traces, newest timestamp first (ties: id descending); cached until the next write. */
  tracesByTimeDesc(): TraceRecord[] {
    if (this.sortedTracesCache?.version !== this.writeVersion) {
      const list = [...this.traceMap.values()].sort(
        (a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
      );
      this.sortedTracesCache = { version: this.writeVersion, list };
    }
    return this.sortedTracesCache.list;
  }

  // ── observations ──────────────────────────────────────────────────────────

  upsertObservation(input: ObservationInput): ObservationRecord {
    const existing = this.observationMap.get(input.id);
    const previousTraceId = existing?.traceId ?? null;
    const record = mergeObservation(existing, this.delayed(input), this.now());
    if (!existing) this.observationMap.set(record.id, record);
    this.latestVisible = Math.max(this.latestVisible, record.visibleAt);
    if (previousTraceId !== record.traceId) {
      if (previousTraceId !== null) this.observationsByTrace.get(previousTraceId)?.delete(record.id);
      if (record.traceId !== null) {
        let ids = this.observationsByTrace.get(record.traceId);
        if (!ids) this.observationsByTrace.set(record.traceId, (ids = new Set()));
        ids.add(record.id);
      }
    }
    this.changed();
    return record;
  }

  getObservation(id: string): ObservationRecord | undefined {
    return this.observationMap.get(id);
  }

  observations(): ObservationRecord[] {
    return [...this.observationMap.values()];
  }

  observationsOfTrace(traceId: string): ObservationRecord[] {
    const ids = this.observationsByTrace.get(traceId);
    if (!ids) return [];
    const list: ObservationRecord[] = [];
    for (const id of ids) {
      const record = this.observationMap.get(id);
      if (record) list.push(record);
    }
    return list.sort((a, b) => a.startTime - b.startTime);
  }

  /** Observations ordered as Langfuse's v2 endpoint pages them: startTime, traceId, id, all descending. */
  observationsByTimeDesc(): ObservationRecord[] {
    if (this.sortedObservationsCache?.version !== this.writeVersion) {
      const list = [...this.observationMap.values()].sort(compareObservationsDesc);
      this.sortedObservationsCache = { version: this.writeVersion, list };
    }
    return this.sortedObservationsCache.list;
  }

  // ── scores ────────────────────────────────────────────────────────────────

  /** Writes a score row: same id + name + UTC date of `timestamp` replaces, anything else adds a row. */
  upsertScore(input: ScoreInput): ScoreRecord {
    const record = this.scoreTable.upsert(input, this.now());
    this.changed();
    return record;
  }

  scores(filter: { traceId?: string; name?: string; id?: string } = {}): ScoreRecord[] {
    return this.scoreTable.list(filter);
  }

  /** Langfuse acknowledges a score that fails config validation, then drops it in its worker; so does this. */
  recordDroppedScore(entry: { id: string; name: string; reason: string }): void {
    this.dropped.push({ ...entry, at: this.now() });
  }

  droppedScores(): readonly { id: string; name: string; reason: string; at: number }[] {
    return this.dropped;
  }

  // ── score configs ─────────────────────────────────────────────────────────

  createScoreConfig(
    input: Omit<ScoreConfigRecord, 'id' | 'createdAt' | 'updatedAt' | 'isArchived'> & {
      id?: string;
      isArchived?: boolean;
    },
  ): ScoreConfigRecord {
    const now = this.now();
    const record: ScoreConfigRecord = {
      id: input.id ?? randomUUID(),
      name: input.name,
      dataType: input.dataType,
      isArchived: input.isArchived ?? false,
      minValue: input.minValue ?? null,
      maxValue: input.maxValue ?? null,
      categories: input.categories ?? null,
      description: input.description ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.configMap.set(record.id, record);
    this.changed();
    return record;
  }

  scoreConfigs(): ScoreConfigRecord[] {
    return [...this.configMap.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  }

  getScoreConfig(id: string): ScoreConfigRecord | undefined {
    return this.configMap.get(id);
  }

  // ── datasets (delegated) ──────────────────────────────────────────────────

  createDataset(...args: Parameters<DatasetTable['createDataset']>) {
    return this.datasetTable.createDataset(...args);
  }

  getDataset(name: string) {
    return this.datasetTable.getDataset(name);
  }

  datasets() {
    return this.datasetTable.datasets();
  }

  createDatasetItem(...args: Parameters<DatasetTable['createDatasetItem']>) {
    return this.datasetTable.createDatasetItem(...args);
  }

  getDatasetItem(id: string) {
    return this.datasetTable.getItem(id);
  }

  datasetItems(datasetName: string) {
    return this.datasetTable.items(datasetName);
  }

  recordDatasetRunItem(...args: Parameters<DatasetTable['recordRunItem']>) {
    return this.datasetTable.recordRunItem(...args);
  }

  /**
   * Dataset runs as the personality records them: v3 from `POST /dataset-run-items`, v4 from observations
   * carrying `langfuse.experiment.*` attributes whose dataset is this one. Newest first.
   */
  datasetRuns(datasetName: string): DatasetRunView[] {
    const dataset = this.datasetTable.getDataset(datasetName);
    if (!dataset) return [];
    if (this.personality === 'v3') return this.datasetTable.runs(dataset);
    return this.experimentRuns()
      .filter((run) => run.datasetId === dataset.id)
      .map((run) => ({
        ...run,
        datasetId: dataset.id,
        datasetName: dataset.name,
      }));
  }

  /** v4 experiments derived from observations: one per experiment id, items are the item root spans. */
  experimentRuns(): ExperimentRun[] {
    return deriveExperimentRuns(this.observationMap.values());
  }

  // ── persistence ───────────────────────────────────────────────────────────

  snapshot(): StoreSnapshot {
    return {
      version: 1,
      traces: this.traces(),
      observations: this.observations(),
      scores: this.scoreTable.list({}),
      scoreConfigs: [...this.configMap.values()],
      datasets: this.datasetTable.snapshot(),
      annotationQueues: this.annotationQueues.snapshot(),
    };
  }

  restore(snapshot: StoreSnapshot): void {
    for (const t of snapshot.traces) {
      t.visibleAt ??= t.ingestedAt;
      this.traceMap.set(t.id, t);
    }
    for (const o of snapshot.observations) {
      o.visibleAt ??= o.ingestedAt;
      this.observationMap.set(o.id, o);
      if (o.traceId !== null) {
        let ids = this.observationsByTrace.get(o.traceId);
        if (!ids) this.observationsByTrace.set(o.traceId, (ids = new Set()));
        ids.add(o.id);
      }
    }
    this.scoreTable.restore(snapshot.scores);
    for (const c of snapshot.scoreConfigs) this.configMap.set(c.id, c);
    this.datasetTable.restore(snapshot.datasets);
    this.annotationQueues.restore(snapshot.annotationQueues);
    this.writeVersion++;
  }
}

export function compareObservationsDesc(a: ObservationRecord, b: ObservationRecord): number {
  if (a.startTime !== b.startTime) return b.startTime - a.startTime;
  const at = a.traceId ?? '';
  const bt = b.traceId ?? '';
  if (at !== bt) return at < bt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
