import { randomUUID } from 'node:crypto';
import { StoreError } from './dataset-table.js';

export type QueueObjectType = 'TRACE' | 'OBSERVATION' | 'SESSION';
export type QueueItemStatus = 'PENDING' | 'COMPLETED';

export interface AnnotationQueueRecord {
  id: string;
  name: string;
  description: string | null;
  scoreConfigIds: string[];
  /** Creation order: queues and items are listed by it, as Langfuse lists them by its creation time. */
  seq: number;
  createdAt: number;
  updatedAt: number;
}

export interface AnnotationQueueItemRecord {
  id: string;
  queueId: string;
  objectId: string;
  objectType: QueueObjectType;
  status: QueueItemStatus;
  completedAt: number | null;
  seq: number;
  createdAt: number;
  updatedAt: number;
}

export interface QueueAssignmentRecord {
  queueId: string;
  userId: string;
}

export interface AnnotationQueueSnapshot {
  queues: AnnotationQueueRecord[];
  items: AnnotationQueueItemRecord[];
  assignments: QueueAssignmentRecord[];
}

/**
 * Annotation queues, their items and user assignments, as Langfuse keeps them in PostgreSQL (so both the v3
 * and the v4 personality serve them). Queues and items are listed oldest first, as Langfuse pages them: by a
 * creation sequence, so two created in the same millisecond keep the order they were created in.
 */
export class AnnotationQueueTable {
  private readonly queueMap = new Map<string, AnnotationQueueRecord>();
  private readonly itemMap = new Map<string, AnnotationQueueItemRecord>();
  private assignmentList: QueueAssignmentRecord[] = [];
  private lastSeq = 0;

  constructor(
    private readonly now: () => number,
    private readonly changed: () => void,
  ) {}

  createQueue(input: { name: string; description?: string | null; scoreConfigIds: string[] }): AnnotationQueueRecord {
    const now = this.now();
    const record: AnnotationQueueRecord = {
      id: randomUUID(),
      name: input.name,
      description: input.description ?? null,
      scoreConfigIds: [...input.scoreConfigIds],
      seq: ++this.lastSeq,
      createdAt: now,
      updatedAt: now,
    };
    this.queueMap.set(record.id, record);
    this.changed();
    return record;
  }

  queues(): AnnotationQueueRecord[] {
    return [...this.queueMap.values()].sort(bySeq);
  }

  getQueue(id: string): AnnotationQueueRecord | undefined {
    return this.queueMap.get(id);
  }

  addItem(
    queueId: string,
    input: { objectId: string; objectType: QueueObjectType; status?: QueueItemStatus | null },
  ): AnnotationQueueItemRecord {
    this.requireQueue(queueId);
    const now = this.now();
    const status = input.status ?? 'PENDING';
    const record: AnnotationQueueItemRecord = {
      id: randomUUID(),
      queueId,
      objectId: input.objectId,
      objectType: input.objectType,
      status,
      completedAt: status === 'COMPLETED' ? now : null,
      seq: ++this.lastSeq,
      createdAt: now,
      updatedAt: now,
    };
    this.itemMap.set(record.id, record);
    this.changed();
    return record;
  }

  items(queueId: string, status?: QueueItemStatus): AnnotationQueueItemRecord[] {
    this.requireQueue(queueId);
    return [...this.itemMap.values()]
      .filter((i) => i.queueId === queueId && (status === undefined || i.status === status))
      .sort(bySeq);
  }

  getItem(queueId: string, itemId: string): AnnotationQueueItemRecord | undefined {
    const item = this.itemMap.get(itemId);
    return item && item.queueId === queueId ? item : undefined;
  }

  updateItem(queueId: string, itemId: string, patch: { status?: QueueItemStatus | null }): AnnotationQueueItemRecord {
    const item = this.getItem(queueId, itemId);
    if (!item) throw new StoreError('not_found', 'Annotation queue item not found');
    if (patch.status) {
      const now = this.now();
      item.completedAt = patch.status === 'COMPLETED' ? (item.status === 'COMPLETED' ? item.completedAt : now) : null;
      item.status = patch.status;
      item.updatedAt = now;
    }
    this.changed();
    return item;
  }

  deleteItem(queueId: string, itemId: string): void {
    if (!this.getItem(queueId, itemId)) throw new StoreError('not_found', 'Annotation queue item not found');
    this.itemMap.delete(itemId);
    this.changed();
  }

  assign(queueId: string, userId: string): QueueAssignmentRecord {
    this.requireQueue(queueId);
    const existing = this.assignmentList.find((a) => a.queueId === queueId && a.userId === userId);
    if (existing) return existing;
    const record = { queueId, userId };
    this.assignmentList.push(record);
    this.changed();
    return record;
  }

  unassign(queueId: string, userId: string): void {
    this.requireQueue(queueId);
    this.assignmentList = this.assignmentList.filter((a) => !(a.queueId === queueId && a.userId === userId));
    this.changed();
  }

  assignments(queueId: string): QueueAssignmentRecord[] {
    return this.assignmentList.filter((a) => a.queueId === queueId);
  }

  snapshot(): AnnotationQueueSnapshot {
    return {
      queues: [...this.queueMap.values()],
      items: [...this.itemMap.values()],
      assignments: [...this.assignmentList],
    };
  }

  restore(snapshot: AnnotationQueueSnapshot | undefined): void {
    if (!snapshot) return;
    const seqs = [...snapshot.queues, ...snapshot.items].map((r) => r.seq).filter((seq) => seq !== undefined);
    this.lastSeq = Math.max(this.lastSeq, ...seqs);
    // A file saved before the sequence lists its records in creation order (a Map keeps insertion order).
    for (const q of snapshot.queues) this.queueMap.set(q.id, { ...q, seq: q.seq ?? ++this.lastSeq });
    for (const i of snapshot.items) this.itemMap.set(i.id, { ...i, seq: i.seq ?? ++this.lastSeq });
    this.assignmentList = [...snapshot.assignments];
  }

  private requireQueue(id: string): AnnotationQueueRecord {
    const queue = this.queueMap.get(id);
    if (!queue) throw new StoreError('not_found', 'Annotation queue not found');
    return queue;
  }
}

function bySeq(a: { seq: number }, b: { seq: number }): number {
  return a.seq - b.seq;
}
