import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHashedTraceName, traceNameKey } from '../../../src/internal/index.js';
import { createTraceNameLabels } from '../../../src/service/trace-name-label.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/state/migrations.js';
import { openSqliteState } from '../../../src/state/index.js';
import { rateFor } from '../../../src/online/sampler.js';
import { TRACE_NAMES } from '../../helpers/trace-names.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-trace-names-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('trace names in the ledger', () => {
  it('keeps an identifier as written and any other name as a hash, never the text', async () => {
    expect(traceNameKey('rag-answer')).toBe('rag-answer');
    expect(traceNameKey('chat answer')).toBe('chat answer');
    expect(traceNameKey(null)).toBeNull();
    const question = traceNameKey('¿Dónde está mi pedido? Soy Ana García')!;
    expect(isHashedTraceName(question)).toBe(true);
    expect(traceNameKey(question)).toBe(question);
    expect(traceNameKey('call 611223344')).not.toContain('611223344');

    const path = join(dir, 'state.db');
    const state = openSqliteState({ path });
    await state.ensureEntries(
      TRACE_NAMES.map((name, i) => ({
        traceId: `t${i}`,
        traceTimestamp: 1,
        environment: null,
        traceName: name,
        sampleRate: 1,
      })),
      1,
    );
    await state.ensureEntry(
      { traceId: 'one', traceTimestamp: 1, environment: null, traceName: 'Pregunta de Ana', sampleRate: 1 },
      1,
    );
    for (const [i, name] of TRACE_NAMES.entries())
      expect((await state.getEntry(`t${i}`))?.traceName).toBe(traceNameKey(name));
    expect((await state.getEntry('one'))?.traceName).toBe(traceNameKey('Pregunta de Ana'));
    await state.close();
    const raw = new BetterSqlite3(path, { readonly: true });
    const stored = (raw.prepare('SELECT trace_name FROM ledger').all() as { trace_name: string }[]).map(
      (r) => r.trace_name,
    );
    raw.close();
    for (const text of ['Ana García', 'ana.garcia@example.com', '611223344', 'Pregunta de Ana']) {
      expect(stored.join('\n')).not.toContain(text);
    }
  });

  it('rewrites the names of a file written before (schema version 6) when it is opened', async () => {
    const path = join(dir, 'old.db');
    const old = new BetterSqlite3(path);
    for (const step of MIGRATIONS.filter((m) => m.version <= 6)) old.exec(step.sql);
    old.pragma('user_version = 6');
    const insert = old.prepare(
      `INSERT INTO ledger (trace_id, status, trace_timestamp, trace_name, sample_rate, first_seen_at, updated_at)
       VALUES (?, 'done', 1, ?, 1, 1, 1)`,
    );
    TRACE_NAMES.forEach((name, i) => insert.run(`t${i}`, name));
    insert.run('unnamed', null);
    old.close();

    const state = openSqliteState({ path });
    for (const [i, name] of TRACE_NAMES.entries())
      expect((await state.getEntry(`t${i}`))?.traceName).toBe(traceNameKey(name));
    expect((await state.getEntry('unnamed'))?.traceName).toBeNull();
    await state.close();
    const raw = new BetterSqlite3(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(JSON.stringify(raw.prepare('SELECT * FROM ledger').all())).not.toContain('Ana García');
    raw.close();
  });

  it('gives a name and its key the same metric label', () => {
    const labels = createTraceNameLabels();
    for (const name of TRACE_NAMES) expect(labels.label(traceNameKey(name))).toBe(labels.label(name));
    expect(labels.label('¿Dónde está mi pedido? Soy Ana García')).toBe('other');
    expect(labels.label(null)).toBe('unnamed');
  });

  it('leaves sampling.rateByTraceName to the names as the apps write them', () => {
    const policy = { rate: 0.05, salt: 's', rateByTraceName: { 'Pregunta de Ana': 1, 'rag-answer': 0.5 } };
    expect(rateFor(policy, 'Pregunta de Ana')).toBe(1);
    expect(rateFor(policy, 'rag-answer')).toBe(0.5);
    expect(rateFor(policy, 'other')).toBe(0.05);
  });
});
