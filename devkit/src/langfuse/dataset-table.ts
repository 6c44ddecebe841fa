import { randomUUID } from 'node:crypto';
import type {
  DatasetItemRecord,
  DatasetRecord,
  DatasetRunItemRecord,
  DatasetRunRecord,
  DatasetRunView,
} from './types.js';
import { toMillis } from './values.js';

/** A store-level failure the HTTP layer maps to a status: `not_found` → 404, `invalid` → 400. */
export class StoreError extends Error {
  constructor(
    readonly kind: 'not_found' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export interface DatasetInput {
  name: string;
  id?: string;
  description?: string | null;
  metadata?: unknown;
  inputSchema?: unknown;
  expectedOutputSchema?: unknown;
}

export interface DatasetItemInput {
  datasetName: string;
  id?: string | null;
  input?: unknown;
  expectedOutput?: unknown;
  metadata?: unknown;
  sourceTraceId?: string | null;
  sourceObservationId?: string | null;
  status?: 'ACTIVE' | 'ARCHIVED' | null;
}

export interface RunItemInput {
  runName: string;
  runDescription?: string | null;
  metadata?: unknown;
  datasetItemId: string;
  traceId: string;
  observationId?: string | null;
  createdAt?: string | number | Date | null;
}

/** Datasets, their items and (v3) recorded runs. */
export class DatasetTable {
  private readonly byName = new Map<string, DatasetRecord>();
  private readonly byId = new Map<string, DatasetRecord>();
  private readonly itemMap = new Map<string, DatasetItemRecord>();
  private readonly runMap = new Map<string, DatasetRunRecord>();
  private readonly runItemMap = new Map<string, DatasetRunItemRecord>();

  constructor(
    private readonly now: () => number,
    private readonly changed: () => void,
  ) {}

  /** Creates a dataset, or updates description/metadata/schemas of the one with that name (Langfuse upserts). */
  createDataset(input: DatasetInput): DatasetRecord {
    const now = this.now();
    const existing = this.byName.get(input.name);
    if (existing) {
      if (input.description !== undefined) existing.description = input.description;
      if (input.metadata !== undefined) existing.metadata = input.metadata;
      if (input.inputSchema !== undefined) existing.inputSchema = input.inputSchema;
      if (input.expectedOutputSchema !== undefined) existing.expectedOutputSchema = input.expectedOutputSchema;
      existing.updatedAt = now;
      this.changed();
      return existing;
    }
    const record: DatasetRecord = {
      id: input.id ?? randomUUID(),
      name: input.name,
      description: input.description ?? null,
      metadata: input.metadata ?? null,
      inputSchema: input.inputSchema ?? null,
      expectedOutputSchema: input.expectedOutputSchema ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.byName.set(record.name, record);
    this.byId.set(record.id, record);
    this.changed();
    return record;
  }

  getDataset(name: string): DatasetRecord | undefined {
    return this.byName.get(name);
  }

  getDatasetById(id: string): DatasetRecord | undefined {
    return this.byId.get(id);
  }

  datasets(): DatasetRecord[] {
    return [...this.byName.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Upserts an item on its id; ids are project-wide, so reusing one in another dataset is refused. */
  createDatasetItem(input: DatasetItemInput): DatasetItemRecord {
    const dataset = this.byName.get(input.datasetName);
    if (!dataset) throw new StoreError('not_found', `Dataset ${input.datasetName} not found`);
    const now = this.now();
    const existing = input.id ? this.itemMap.get(input.id) : undefined;
    if (existing) {
      if (existing.datasetId !== dataset.id) {
        throw new StoreError('invalid', `Dataset item id ${existing.id} already exists in another dataset`);
      }
      if (input.input !== undefined) existing.input = input.input;
      if (input.expectedOutput !== undefined) existing.expectedOutput = input.expectedOutput;
      if (input.metadata !== undefined) existing.metadata = input.metadata;
      if (input.sourceTraceId !== undefined) existing.sourceTraceId = input.sourceTraceId;
      if (input.sourceObservationId !== undefined) existing.sourceObservationId = input.sourceObservationId;
      if (input.status) existing.status = input.status;
      existing.updatedAt = now;
      this.changed();
      return existing;
    }
    const record: DatasetItemRecord = {
      id: input.id ?? randomUUID(),
      datasetId: dataset.id,
      status: input.status ?? 'ACTIVE',
      input: input.input ?? null,
      expectedOutput: input.expectedOutput ?? null,
      metadata: input.metadata ?? null,
      sourceTraceId: input.sourceTraceId ?? null,
      sourceObservationId: input.sourceObservationId ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.itemMap.set(record.id, record);
    this.changed();
    return record;
  }

  getItem(id: string): DatasetItemRecord | undefined {
    return this.itemMap.get(id);
  }

  /** Items of a dataset, newest first (Langfuse's order). */
  items(datasetName: string): DatasetItemRecord[] {
    const dataset = this.byName.get(datasetName);
    if (!dataset) return [];
    return this.allItems().filter((item) => item.datasetId === dataset.id);
  }

  allItems(): DatasetItemRecord[] {
    return [...this.itemMap.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  }

  /** v3: links a trace to a dataset item under a run, creating the run (or updating its description/metadata). */
  recordRunItem(input: RunItemInput): { run: DatasetRunRecord; runItem: DatasetRunItemRecord } {
    const item = this.itemMap.get(input.datasetItemId);
    if (!item || item.status !== 'ACTIVE') throw new StoreError('not_found', 'Dataset item not found');
    const now = this.now();
    let run = [...this.runMap.values()].find((r) => r.datasetId === item.datasetId && r.name === input.runName);
    if (!run) {
      run = {
        id: randomUUID(),
        name: input.runName,
        datasetId: item.datasetId,
        description: input.runDescription ?? null,
        metadata: input.metadata ?? null,
        createdAt: now,
        updatedAt: now,
      };
      this.runMap.set(run.id, run);
    } else {
      if (input.runDescription !== undefined && input.runDescription !== null) run.description = input.runDescription;
      if (input.metadata !== undefined && input.metadata !== null) run.metadata = input.metadata;
      run.updatedAt = now;
    }
    const createdAt = toMillis(input.createdAt) ?? now;
    const runItem: DatasetRunItemRecord = {
      id: randomUUID(),
      datasetRunId: run.id,
      datasetItemId: item.id,
      traceId: input.traceId,
      observationId: input.observationId ?? null,
      createdAt,
      updatedAt: createdAt,
    };
    this.runItemMap.set(runItem.id, runItem);
    this.changed();
    return { run, runItem };
  }

  runs(dataset: DatasetRecord): DatasetRunView[] {
    const runs = [...this.runMap.values()].filter((r) => r.datasetId === dataset.id);
    return runs
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((run) => ({
        id: run.id,
        name: run.name,
        description: run.description,
        metadata: run.metadata,
        datasetId: dataset.id,
        datasetName: dataset.name,
        createdAt: run.createdAt,
        updatedAt: run.updatedAt,
        items: [...this.runItemMap.values()]
          .filter((ri) => ri.datasetRunId === run.id)
          .sort((a, b) => b.createdAt - a.createdAt)
          .map((ri) => ({
            id: ri.id,
            datasetItemId: ri.datasetItemId,
            traceId: ri.traceId,
            observationId: ri.observationId,
            createdAt: ri.createdAt,
          })),
      }));
  }

  snapshot() {
    return {
      datasets: [...this.byName.values()],
      items: [...this.itemMap.values()],
      runs: [...this.runMap.values()],
      runItems: [...this.runItemMap.values()],
    };
  }

  restore(snapshot: ReturnType<DatasetTable['snapshot']>): void {
    for (const d of snapshot.datasets) {
      this.byName.set(d.name, d);
      this.byId.set(d.id, d);
    }
    for (const i of snapshot.items) this.itemMap.set(i.id, i);
    for (const r of snapshot.runs) this.runMap.set(r.id, r);
    for (const ri of snapshot.runItems) this.runItemMap.set(ri.id, ri);
  }
}
