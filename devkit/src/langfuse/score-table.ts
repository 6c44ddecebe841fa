import { randomUUID } from 'node:crypto';
import type { ScoreDataType, ScoreRecord, ScoreSource } from './types.js';
import { normalizeEnvironment, toMetadata, toMillis, utcDate } from './values.js';

export interface ScoreInput {
  id?: string | null;
  name: string;
  value: number;
  stringValue?: string | null;
  dataType: ScoreDataType;
  source?: ScoreSource;
  traceId?: string | null;
  observationId?: string | null;
  sessionId?: string | null;
  datasetRunId?: string | null;
  comment?: string | null;
  metadata?: unknown;
  configId?: string | null;
  queueId?: string | null;
  environment?: string | null;
  /** The event timestamp (defaults to the clock). */
  timestamp?: number | string | Date | null;
}

/**
 * Scores keyed as Langfuse's ClickHouse table orders them: (UTC date of timestamp, name, id). Writing the same
 * key again replaces the row (ReplacingMergeTree); a different name or day adds a second row with the same id.
 */
export class ScoreTable {
  private readonly rows = new Map<string, ScoreRecord>();
  private readonly byTrace = new Map<string, Set<string>>();

  upsert(input: ScoreInput, now: number): ScoreRecord {
    const timestamp = toMillis(input.timestamp) ?? now;
    const id = input.id || randomUUID();
    const key = rowKey(id, input.name, timestamp);
    const previous = this.rows.get(key);
    const record: ScoreRecord = {
      id,
      name: input.name,
      value: input.value,
      stringValue: input.stringValue ?? null,
      dataType: input.dataType,
      source: input.source ?? 'API',
      traceId: input.traceId ?? null,
      observationId: input.observationId ?? null,
      sessionId: input.sessionId ?? null,
      datasetRunId: input.datasetRunId ?? null,
      comment: input.comment ?? null,
      metadata: toMetadata(input.metadata),
      configId: input.configId ?? null,
      queueId: input.queueId ?? null,
      environment: normalizeEnvironment(input.environment ?? 'default'),
      timestamp,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    if (previous?.traceId && previous.traceId !== record.traceId) this.byTrace.get(previous.traceId)?.delete(key);
    this.rows.set(key, record);
    if (record.traceId) {
      let keys = this.byTrace.get(record.traceId);
      if (!keys) this.byTrace.set(record.traceId, (keys = new Set()));
      keys.add(key);
    }
    return record;
  }

  list(filter: { traceId?: string; name?: string; id?: string }): ScoreRecord[] {
    let candidates: Iterable<ScoreRecord>;
    if (filter.traceId !== undefined) {
      const keys = this.byTrace.get(filter.traceId) ?? new Set<string>();
      candidates = [...keys].flatMap((k) => {
        const row = this.rows.get(k);
        return row ? [row] : [];
      });
    } else {
      candidates = this.rows.values();
    }
    const result: ScoreRecord[] = [];
    for (const row of candidates) {
      if (filter.name !== undefined && row.name !== filter.name) continue;
      if (filter.id !== undefined && row.id !== filter.id) continue;
      result.push(row);
    }
    return result.sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : -1));
  }

  restore(rows: ScoreRecord[]): void {
    for (const row of rows) {
      const key = rowKey(row.id, row.name, row.timestamp);
      this.rows.set(key, row);
      if (row.traceId) {
        let keys = this.byTrace.get(row.traceId);
        if (!keys) this.byTrace.set(row.traceId, (keys = new Set()));
        keys.add(key);
      }
    }
  }
}

function rowKey(id: string, name: string, timestamp: number): string {
  return `${utcDate(timestamp)}\u0000${name}\u0000${id}`;
}
