/** Keys whose values are secrets, wherever they appear in the configuration or a log record. */
export const SECRET_KEY_PATTERN = /(secret|api_?key|password|passwd|token|authorization|cookie|credential)/i;

/** Returns a copy of `value` with every secret replaced by a short, non-reversible hint. */
export function maskSecrets<T>(value: T): T {
  return walk(value, '') as T;
}

function walk(value: unknown, key: string): unknown {
  if (typeof value === 'string' && SECRET_KEY_PATTERN.test(key)) return maskValue(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
  }
  return value;
}

export function maskValue(secret: string): string {
  if (secret === '') return '';
  if (secret.length <= 8) return '***';
  return `${secret.slice(0, 3)}***${secret.slice(-2)}`;
}
