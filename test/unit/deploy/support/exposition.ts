/**
 * Parses a Prometheus text exposition (what /metrics answers) into the names a query can select:
 * each family, its sample names (a histogram's _bucket/_sum/_count) and the label names of its series.
 */

export interface ExportedFamily {
  name: string;
  type: string;
  /** Label names seen on this family's series (empty while a labelled family has no series yet). */
  labels: Set<string>;
  samples: number;
}

const SUFFIXES: Record<string, string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  gaugehistogram: ['_bucket', '_gsum', '_gcount'],
  summary: ['', '_sum', '_count'],
  counter: ['', '_total'],
};

/** Selectable name → its family. */
export function parseExposition(text: string): Map<string, ExportedFamily> {
  const families = new Map<string, ExportedFamily>();
  const byName = new Map<string, ExportedFamily>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE ([A-Za-z_:][A-Za-z0-9_:]*) (\w+)/.exec(line);
    if (type) {
      const family: ExportedFamily = {
        name: type[1] as string,
        type: type[2] as string,
        labels: new Set(),
        samples: 0,
      };
      families.set(family.name, family);
      for (const suffix of SUFFIXES[family.type] ?? ['']) byName.set(family.name + suffix, family);
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const sample =
      /^([A-Za-z_:][A-Za-z0-9_:]*)(\{(.*)\})?\s+([-+]?(\d+(\.\d*)?([eE][-+]?\d+)?|\.\d+|NaN|Inf))(\s+-?\d+)?\s*$/.exec(
        line,
      );
    if (!sample) throw new Error(`not an exposition line: ${JSON.stringify(line)}`);
    const name = sample[1] as string;
    let family = byName.get(name);
    if (!family) {
      family = { name, type: 'untyped', labels: new Set(), samples: 0 };
      byName.set(name, family);
    }
    family.samples++;
    for (const m of (sample[3] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)="(?:[^"\\]|\\.)*"/g)) {
      if (m[1] !== 'le' && m[1] !== 'quantile') family.labels.add(m[1] as string);
    }
  }
  return byName;
}
