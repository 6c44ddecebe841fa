import { mkdtempSync, renameSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { asStateError, isStateError, kindOfCode, StateError } from '../../../src/state/errors.js';
import { openSqliteState } from '../../../src/state/index.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const entry = (i: number) => ({
  traceId: `t-${i}-${'x'.repeat(200)}`,
  traceTimestamp: i,
  environment: null,
  traceName: 'rag',
  sampleRate: 0.1,
});

describe('state errors', () => {
  it('maps SQLite and file-system codes to kinds, and tells input problems (2) from the disk (3)', () => {
    expect(kindOfCode('SQLITE_FULL')).toBe('full');
    expect(kindOfCode('SQLITE_READONLY_DIRECTORY')).toBe('readonly');
    expect(kindOfCode('SQLITE_CORRUPT_INDEX')).toBe('corrupt');
    expect(kindOfCode('SQLITE_BUSY_SNAPSHOT')).toBe('busy');
    expect(kindOfCode('SQLITE_IOERR_WRITE')).toBe('io');
    expect(kindOfCode('EACCES')).toBe('readonly');
    expect(kindOfCode('SQLITE_CONSTRAINT')).toBeNull();
    expect(new StateError('/s.db', 'readonly', 'SQLITE_READONLY').isInput).toBe(true);
    expect(new StateError('/s.db', 'full', 'SQLITE_FULL').isInput).toBe(false);
    expect(new StateError('/s.db', 'full', 'SQLITE_FULL').shortCode).toBe('state:full');
    const plain = new Error('boom');
    expect(asStateError(plain, '/s.db')).toBe(plain);
    expect(
      isStateError(
        asStateError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), '/s.db'),
      ),
    ).toBe(true);
  });

  it('reports a failed write in health until a write succeeds again (SQLITE_FULL from a page limit)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ragwatch-state-errors-'));
    let db: Database | undefined;
    const state = openSqliteState({ path: join(dir, 'state.db'), configure: (c) => (db = c) });
    expect(await state.health()).toEqual({ ok: true });
    db!.pragma(`max_page_count = ${db!.pragma('page_count', { simple: true }) as number}`);
    let failure: unknown;
    for (let i = 0; i < 500 && !failure; i++)
      await state.ensureEntry(entry(i), i).catch((err: unknown) => (failure = err));
    expect(failure).toMatchObject({
      name: 'StateError',
      kind: 'full',
      code: 'SQLITE_FULL',
      detail: 'database or disk is full',
    });
    const health = await state.health();
    expect(health.ok).toBe(false);
    expect(!health.ok && health.problem.kind).toBe('full');
    // reads do not clear it; a write that goes through does
    await state.countByStatus();
    expect((await state.health()).ok).toBe(false);
    db!.pragma('max_page_count = 1073741823');
    await state.ensureEntry(entry(9999), 1);
    expect(await state.health()).toEqual({ ok: true });
    await state.close();
    expect(await state.health()).toMatchObject({ ok: false, problem: { kind: 'closed' } });
  });

  it('tells a deleted and a replaced file from the one it opened', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ragwatch-state-errors-'));
    const path = join(dir, 'state.db');
    const state = openSqliteState({ path });
    copyFileSync(path, join(dir, 'copy.db'));
    renameSync(join(dir, 'copy.db'), path);
    expect(await state.health()).toMatchObject({ ok: false, problem: { kind: 'replaced' } });
    rmSync(path);
    expect(await state.health()).toMatchObject({ ok: false, problem: { kind: 'deleted' } });
    await state.close();
  });
});
