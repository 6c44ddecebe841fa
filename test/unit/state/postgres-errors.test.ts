import { describe, expect, it } from 'vitest';
import { StateError } from '../../../src/state/errors.js';
import { asPostgresStateError, postgresKind } from '../../../src/state/postgres/errors.js';
import { maskPostgresUrl, withoutPassword } from '../../../src/state/postgres/url.js';

const code = (c: string, message = 'x') => Object.assign(new Error(message), { code: c });

describe('PostgreSQL state errors', () => {
  it('maps driver and server codes to state kinds, and leaves other errors alone', () => {
    expect(postgresKind(code('ECONNREFUSED'))).toBe('unreachable');
    expect(postgresKind(new Error('Connection terminated unexpectedly'))).toBe('unreachable');
    expect(postgresKind(new Error('timeout exceeded when trying to connect'))).toBe('unreachable');
    expect(postgresKind(code('57P01'))).toBe('unreachable');
    expect(postgresKind(code('28P01'))).toBe('auth');
    expect(postgresKind(code('42501'))).toBe('permission');
    expect(postgresKind(code('57014'))).toBe('timeout');
    // pg's query_timeout, and the deadline ragwatch's query runner puts on a query that hangs in the driver
    expect(postgresKind(new Error('Query read timeout'))).toBe('timeout');
    expect(postgresKind(new Error('Query read timeout: no answer within 15000 ms'))).toBe('timeout');
    expect(postgresKind(code('53100'))).toBe('full');
    expect(postgresKind(code('25006'))).toBe('readonly');
    expect(postgresKind(code('23505'))).toBeNull();
    const other = new Error('a bug');
    expect(asPostgresStateError(other, 'postgres://u:***@h/d')).toBe(other);
  });

  it('says which key and where, with the URL masked, and whether retrying can help', () => {
    const err = asPostgresStateError(
      code('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      maskPostgresUrl('postgres://rw:pw-123456@db:5432/x'),
    );
    expect(err).toBeInstanceOf(StateError);
    const e = err as StateError;
    expect(e.message).toBe(
      'state.url: postgres://rw:***@db:5432/x does not answer (PostgreSQL unreachable) (ECONNREFUSED)',
    );
    expect(e.shortCode).toBe('state:unreachable');
    expect(e.isInput).toBe(false);
    expect((asPostgresStateError(code('28P01'), 'postgres://h/d') as StateError).isInput).toBe(true);
    // SQLite's messages are unchanged.
    expect(new StateError('/var/lib/ragwatch/ragwatch.db', 'full').message).toMatch(
      /^state\.path: \/var\/lib\/ragwatch\/ragwatch\.db cannot be written: the disk is full/,
    );
  });

  it('masks passwords in URLs and texts', () => {
    expect(maskPostgresUrl('postgres://rw:s3cr%40t@db:5432/x?sslmode=require')).toBe(
      'postgres://rw:***@db:5432/x?sslmode=require',
    );
    expect(maskPostgresUrl('postgresql://db/x?password=abc')).toBe('postgresql://db/x?password=***');
    expect(maskPostgresUrl('postgres://no host at all')).toBe('postgres://***');
    expect(withoutPassword('failed for postgres://rw:s3cr@t@db', 'postgres://rw:s3cr%40t@db:5432/x')).toBe(
      'failed for postgres://rw:***@db',
    );
  });
});
