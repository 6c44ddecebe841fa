import type { FieldText } from './anonymizer.js';

/**
 * The string leaves of a JSON value, each named by its path (`metadata.user.email`, `tags[1]`, `["a key"]`), and
 * a way to put anonymized texts back: how `anonymize --format jsonl` treats keys it does not know.
 */
export interface JsonLeaves {
  fields: FieldText[];
  /** A copy of the value with the leaves replaced, in the order of `fields`. */
  rebuild(texts: readonly string[]): unknown;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (PLAIN_KEY.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

export function jsonLeaves(value: unknown, path = ''): JsonLeaves {
  const fields: FieldText[] = [];
  const collect = (node: unknown, at: string): void => {
    if (typeof node === 'string') fields.push({ field: at, text: node });
    else if (Array.isArray(node)) node.forEach((child, i) => collect(child, childPath(at, i)));
    else if (node !== null && typeof node === 'object') {
      for (const [k, child] of Object.entries(node)) collect(child, childPath(at, k));
    }
  };
  collect(value, path);
  return {
    fields,
    rebuild(texts) {
      let next = 0;
      const build = (node: unknown): unknown => {
        if (typeof node === 'string') return texts[next++];
        if (Array.isArray(node)) return node.map(build);
        if (node !== null && typeof node === 'object') {
          const out: Record<string, unknown> = {};
          for (const [k, child] of Object.entries(node)) setOwn(out, k, build(child));
          return out;
        }
        return node;
      };
      return build(value);
    },
  };
}

/** `obj[key] = value` that keeps a `__proto__` key an own property, as JSON.parse made it. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
