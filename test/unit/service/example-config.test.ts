import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { z } from 'zod';
import { configSchema } from '../../helpers/config.js';

const file = fileURLToPath(new URL('../../../config/ragwatch.example.yaml', import.meta.url));
const text = readFileSync(file, 'utf8');

/** Every key path of the schema, walking through defaults, prefaults and optionals. */
function keyPaths(schema: z.ZodType, prefix: string[] = []): string[][] {
  let s = schema as unknown as {
    _zod: { def: { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> } };
  };
  while (['default', 'prefault', 'optional', 'nullable'].includes(s._zod.def.type))
    s = s._zod.def.innerType as unknown as typeof s;
  if (s._zod.def.type !== 'object') return [prefix];
  const shape = (s as unknown as { shape: Record<string, z.ZodType> }).shape;
  return Object.entries(shape).flatMap(([key, child]) => [
    [...prefix, key],
    ...keyPaths(child, [...prefix, key]).filter((p) => p.length > prefix.length + 1),
  ]);
}

function lookup(value: unknown, path: string[]): boolean {
  let node = value;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

describe('config/ragwatch.example.yaml', () => {
  it('is a valid configuration that equals the defaults', () => {
    const parsed = configSchema.parse(parse(text));
    expect(parsed).toEqual(configSchema.parse({}));
  });

  it('lists every key of the schema, set or commented out, each with a comment', () => {
    const doc = parse(text) as unknown;
    const lines = text.split('\n');
    for (const path of keyPaths(configSchema as unknown as z.ZodType)) {
      const key = path.at(-1)!;
      const present =
        lookup(doc, path) ||
        lines.some((l) => l.trim().startsWith('#') && new RegExp(`(^#\\s*|[{,]\\s*)${key}:`).test(l.trim()));
      expect(present, path.join('.')).toBe(true);
    }
    // every top-level section is introduced by a comment somewhere above or within it
    expect(lines.filter((l) => l.trim().startsWith('#')).length).toBeGreaterThan(80);
  });
});
