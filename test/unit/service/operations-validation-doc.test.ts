import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { configSchema } from '../../helpers/config.js';

const doc = readFileSync(fileURLToPath(new URL('../../../docs/operations.md', import.meta.url)), 'utf8');

type Node = {
  _zod: { def: { type: string; innerType?: unknown; in?: unknown; valueType?: unknown } };
  shape?: Record<string, unknown>;
  minValue?: number;
  maxValue?: number;
};

/** Every numeric key of the schema with the range it enforces. */
function ranges(schema: unknown, prefix: string[] = [], out: Array<{ key: string; min: number; max: number }> = []) {
  let s = schema as Node;
  for (;;) {
    const { type } = s._zod.def;
    if (['default', 'prefault', 'optional', 'nullable'].includes(type)) s = s._zod.def.innerType as Node;
    else if (type === 'pipe') s = s._zod.def.in as Node;
    else break;
  }
  const { type } = s._zod.def;
  if (type === 'number') out.push({ key: prefix.join('.'), min: s.minValue as number, max: s.maxValue as number });
  else if (type === 'object')
    for (const [k, child] of Object.entries(s.shape ?? {})) ranges(child, [...prefix, k], out);
  else if (type === 'record') ranges(s._zod.def.valueType, [...prefix, '*'], out);
  return out;
}

describe('docs/operations.md lists every numeric range the schema enforces', () => {
  const keys = ranges(configSchema as unknown as z.ZodType);

  it.each(keys.map((k) => [k.key, k] as const))('%s', (_name, { key, min, max }) => {
    expect(Number.isFinite(min) && Number.isFinite(max), `${key} has no range`).toBe(true);
    const parent = key.split('.').slice(0, -1).join('.');
    const row = doc
      .split('\n')
      .find(
        (line) =>
          line.startsWith('|') &&
          (line.includes(`\`${key}\``) || line.includes(`\`${parent}.*\``)) &&
          /\bto\b/.test(line),
      );
    expect(row, `${key} is not in the ranges table`).toBeDefined();
    expect(row, key).toContain(`${min} to ${max}`);
  });
});
