import { describe, expect, it } from 'vitest';
import { StateError } from '../../../src/state/errors.js';
import { asPostgresStateError, postgresKind } from '../../../src/state/postgres/errors.js';
import { maskPostgresUrl, withLibpqSslModes, withoutPassword } from '../../../src/state/postgres/url.js';

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

  it('says a TLS mismatch is configuration (exit 2), with what the server or the TLS layer said', () => {
    expect(postgresKind(new Error('The server does not support SSL connections'))).toBe('tls');
    expect(postgresKind(code('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'))).toBe('tls');
    expect(
      postgresKind(code('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames")),
    ).toBe('tls');
    expect(
      postgresKind(code('28000', 'no pg_hba.conf entry for host "10.0.0.5", user "rw", database "x", no encryption')),
    ).toBe('tls');
    expect(postgresKind(code('28000', 'role "rw" is not permitted to log in'))).toBe('auth');
    const err = asPostgresStateError(
      new Error('The server does not support SSL connections'),
      'postgres://rw:***@db:5432/x?sslmode=require',
    ) as StateError;
    expect(err.isInput).toBe(true);
    expect(err.message).toBe(
      "state.url: postgres://rw:***@db:5432/x?sslmode=require does not match the TLS setting (the URL's sslmode, state.tls): The server does not support SSL connections",
    );
  });

  it('reads the URL’s sslmode as libpq does, so the driver neither upgrades it nor prints its warning', () => {
    expect(withLibpqSslModes('postgres://h/d?sslmode=require')).toBe(
      'postgres://h/d?sslmode=require&uselibpqcompat=true',
    );
    expect(withLibpqSslModes('postgres://h/d?sslmode=verify-ca&sslrootcert=/ca.pem')).toBe(
      'postgres://h/d?sslmode=verify-ca&sslrootcert=/ca.pem&uselibpqcompat=true',
    );
    for (const url of [
      'postgres://h/d',
      'postgres://h/d?sslmode=verify-full',
      'postgres://h/d?sslmode=disable',
      'postgres://h/d?sslmode=require&uselibpqcompat=true',
    ])
      expect(withLibpqSslModes(url)).toBe(url);
  });
});
