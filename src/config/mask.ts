/** Keys whose values are secrets, wherever they appear in the configuration or a log record. */
export const SECRET_KEY_PATTERN = /(secret|api[_-]?key|password|passwd|token|authorization|cookie|credential)/i;

/**
 * Mappings whose every value is masked whatever its key is called: the headers ragwatch sends to the RAG service
 * carry its credentials under any name (X-Api-Key, X-Tenant-Token, a gateway's own header).
 */
const ALL_SECRET_CONTAINERS = new Set(['headers']);

/** Returns a copy of `value` with every secret replaced by a short, non-reversible hint. */
export function maskSecrets<T>(value: T): T {
  return walk(value, '', false) as T;
}

function walk(value: unknown, key: string, inSecretContainer: boolean): unknown {
  if (typeof value === 'string') {
    if (inSecretContainer) return maskHeaderValue(value);
    return SECRET_KEY_PATTERN.test(key) ? maskValue(value) : maskUrlPassword(value);
  }
  if (Array.isArray(value)) return value.map((v) => walk(v, key, inSecretContainer));
  if (value && typeof value === 'object') {
    const container = inSecretContainer || ALL_SECRET_CONTAINERS.has(key);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k, container)]));
  }
  return value;
}

/** A URL's password (`postgres://user:password@host`, `?password=`) masked, whatever key holds the URL. */
export function maskUrlPassword(value: string): string {
  return value
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@\s:]*):[^/@\s]*@/i, '$1:***@')
    .replace(/([?&](?:password|sslpassword)=)[^&#\s]*/gi, '$1***');
}

export function maskValue(secret: string): string {
  if (secret === '') return '';
  if (secret.length <= 8) return '***';
  return `${secret.slice(0, 3)}***${secret.slice(-2)}`;
}

const ENV_REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/g;

/**
 * A header value with everything but its `${NAME}` environment references masked: `Bearer ${RAG_TOKEN}` shows as
 * `***${RAG_TOKEN}` (which variable it reads, never a value), a literal token as `***`.
 */
function maskHeaderValue(value: string): string {
  if (value === '') return '';
  const references = value.match(ENV_REFERENCE) ?? [];
  const literal = value.replace(ENV_REFERENCE, '').trim();
  return `${literal === '' ? '' : '***'}${references.join('')}`;
}
