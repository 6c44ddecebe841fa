import { isObj, parsed } from './values.js';

/**
 * A small path language for explicit mappings: `output.answer`, `input.messages[-1].content`,
 * `output[*].pageContent`, `metadata["retrieval.documents"]`. `[*]` fans out over a list; negative
 * indexes count from the end. JSON-looking strings met on the way are parsed.
 */

export type PathStep = { key: string } | { index: number } | { all: true };

export function parsePath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  const re = /\.?([^.[\]]+)|\[(-?\d+)\]|\[\*\]|\[["']([^"']+)["']\]/g;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(path)) !== null) {
    if (m.index !== consumed) throw new Error(`invalid path "${path}" at character ${consumed + 1}`);
    consumed = m.index + m[0].length;
    if (m[1] !== undefined) steps.push(m[1] === '*' ? { all: true } : { key: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else if (m[3] !== undefined) steps.push({ key: m[3] });
    else steps.push({ all: true });
  }
  if (consumed !== path.length || steps.length === 0) throw new Error(`invalid path "${path}"`);
  return steps;
}

/** Every value the path reaches (several when it fans out). */
export function evaluatePath(root: unknown, steps: PathStep[]): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const raw of current) {
      const value = parsed(raw);
      if ('all' in step) {
        if (Array.isArray(value)) next.push(...value);
        else if (isObj(value)) next.push(...Object.values(value));
      } else if ('index' in step) {
        if (Array.isArray(value)) {
          const i = step.index < 0 ? value.length + step.index : step.index;
          if (i >= 0 && i < value.length) next.push(value[i]);
        }
      } else if (isObj(value) && step.key in value) {
        next.push(value[step.key]);
      } else if (Array.isArray(value) && /^\d+$/.test(step.key)) {
        const item = value[Number(step.key)];
        if (item !== undefined) next.push(item);
      }
    }
    current = next;
  }
  return current.filter((v) => v !== undefined && v !== null);
}
