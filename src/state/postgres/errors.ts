import { isStateError, StateError, type StateErrorKind } from '../errors.js';

/** Node's TLS codes for a certificate the client does not trust or that does not name the server. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The state kind of an error from `pg` or from the socket under it; null when it is none of the server's. */
export function postgresKind(err: unknown): StateErrorKind | null {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : '';
  // TLS asked of a server without it (pg's own message), a certificate not trusted, TLS required by the server
  // (pg_hba.conf's hostssl: "no pg_hba.conf entry … no encryption"): the setting is wrong, not the network.
  if (/does not support SSL connections/i.test(message)) return 'tls';
  if (typeof code === 'string' && (CERTIFICATE_CODES.has(code) || /^ERR_SSL_/.test(code))) return 'tls';
  if (code === '28000' && /no encryption|SSL off/i.test(message)) return 'tls';
  if (typeof code === 'string') {
    if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH)$/.test(code))
      return 'unreachable';
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return 'unreachable';
    if (code === '28P01' || code === '28000') return 'auth';
    if (code === '42501') return 'permission';
    if (code === '57014') return 'timeout';
    if (code === '53100') return 'full';
    if (code === '25006') return 'readonly';
    if (code === '3D000') return 'cantopen';
    if (code === '40001' || code === '40P01' || code === '55P03') return 'busy';
    if (code === '58030') return 'io';
    if (code === 'XX001' || code === 'XX002') return 'corrupt';
  }
  // pg's query_timeout (the server did not answer in time; the connection is dropped) and our own deadline.
  if (/Query read timeout/i.test(message)) return 'timeout';
  if (
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Connection ended/i.test(
      message,
    )
  ) {
    return 'unreachable';
  }
  if (/self[- ]signed certificate|certificate/i.test(message) && !code) return 'tls';
  return null;
}

/** The StateError for a PostgreSQL failure at `location` (a masked URL); other errors are returned as they are. */
export function asPostgresStateError(err: unknown, location: string): unknown {
  if (isStateError(err)) return err;
  const kind = postgresKind(err);
  if (!kind) return err;
  const code = (err as { code?: unknown }).code;
  // The server's and the driver's messages name tables and settings, never row values (values go as parameters).
  return new StateError(
    location,
    kind,
    typeof code === 'string' ? code : undefined,
    err instanceof Error ? err.message : undefined,
  );
}
