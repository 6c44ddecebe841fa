/**
 * What `doctor` adds to a failed connection so a first deployment knows what to change: which host and port
 * refused, that a server speaks no TLS, that Node does not trust a certificate. Read from the system error's
 * code, found on the error or along its causes (fetch, the OpenAI SDK and ragwatch's clients wrap it).
 */

const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);
const NO_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'EPROTO']);

/** The first system error code on `err` or its causes (`ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`, …). */
export function systemCodeOf(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** host:port of a URL, the port spelled out when the scheme implies it. */
function hostPort(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
}

/** A hint for a connection that failed on its way to `url`, or null when the error says nothing more useful. */
export function connectionHint(err: unknown, url: string): string | null {
  const code = systemCodeOf(err);
  if (!code) return null;
  let where: string;
  try {
    where = hostPort(url);
  } catch {
    return null;
  }
  if (code === 'ECONNREFUSED')
    return `connection refused by ${where}: nothing listens there (is the server running, is the port right?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${new URL(url).hostname} does not resolve (DNS, ${code})`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${where} cannot be reached from here (${code})`;
  if (NO_TLS.has(code))
    return `TLS handshake failed with ${where}: the server does not speak TLS there (use http://?) (${code})`;
  if (UNTRUSTED.has(code))
    return `TLS: ${where} presented a certificate Node does not trust (${code}): give Node your CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem`;
  if (code === 'CERT_HAS_EXPIRED') return `TLS: the certificate of ${where} has expired (${code})`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `TLS: the certificate of ${where} does not name ${new URL(url).hostname} (${code}): use the host name it was issued for`;
  return null;
}

/** For a 404 from an OpenAI-compatible server: where its API usually is, when `base` does not end in /v1. */
export function missingV1Hint(base: string, key: string): string | null {
  if (/\/v1\/?$/.test(new URL(base).pathname)) return null;
  return `OpenAI-compatible servers (vLLM) serve the API under /v1: try ${key} ${base.replace(/\/+$/, '')}/v1`;
}
