/**
 * A Dockerfile reader for the deploy tests: instructions with their line continuations joined, split
 * into build stages, with exec-form (JSON) and shell-form arguments told apart.
 */

export interface Instruction {
  keyword: string;
  /** The text after the keyword, continuations joined. */
  raw: string;
  /** `--from=build`, `--mount=...`: the leading flags. */
  flags: Record<string, string>;
  /** What follows the flags. */
  body: string;
  line: number;
}

export interface Stage {
  name: string;
  /** Image or earlier stage name it starts from, ARG defaults substituted. */
  from: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i] as string;
    if (/^\s*(#|$)/.test(first)) continue;
    const start = i;
    let joined = first;
    while (/\\\s*$/.test(joined) && i + 1 < lines.length) {
      i++;
      const next = lines[i] as string;
      if (/^\s*#/.test(next)) continue; // comments inside a continued instruction are dropped
      joined = joined.replace(/\\\s*$/, ' ') + next;
    }
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(joined);
    if (!m) throw new Error(`Dockerfile line ${start + 1}: cannot parse ${JSON.stringify(joined)}`);
    const keyword = (m[1] as string).toUpperCase();
    const raw = (m[2] as string).trim();
    const flags: Record<string, string> = {};
    let body = raw;
    for (;;) {
      const f = /^--([a-z-]+)(?:=(\S*))?\s+/.exec(body);
      if (!f) break;
      flags[f[1] as string] = f[2] ?? 'true';
      body = body.slice(f[0].length);
    }
    instructions.push({ keyword, raw, flags, body, line: start + 1 });
  }

  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'ARG' && stages.length === 0) {
      const [name, value] = ins.body.split('=', 2);
      args[(name as string).trim()] = (value ?? '').trim();
      continue;
    }
    if (ins.keyword === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.body);
      if (!m) throw new Error(`Dockerfile line ${ins.line}: cannot parse FROM ${ins.body}`);
      const from = (m[1] as string).replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => args[a ?? b] ?? '');
      stages.push({ name: m[2] ?? String(stages.length), from, instructions: [] });
      continue;
    }
    const stage = stages[stages.length - 1];
    if (!stage) throw new Error(`Dockerfile line ${ins.line}: ${ins.keyword} before FROM`);
    stage.instructions.push(ins);
  }
  return { args, stages };
}

/** Exec form (`["a", "b"]`) → argv; shell form → `['/bin/sh', '-c', text]`. */
export function commandArgv(body: string): string[] {
  const trimmed = body.trim();
  if (trimmed.startsWith('[')) {
    const parsed: unknown = JSON.parse(trimmed);
    if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === 'string'))
      throw new Error(`not an exec form: ${body}`);
    return parsed as string[];
  }
  return ['/bin/sh', '-c', trimmed];
}

/** `ENV A=1 B="two words"` (and the legacy `ENV A 1`) → pairs. */
export function envPairs(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  const legacy = /^([A-Za-z_][A-Za-z0-9_]*)\s+([^=]*)$/.exec(body.trim());
  if (legacy) {
    out[legacy[1] as string] = (legacy[2] as string).trim();
    return out;
  }
  for (const m of body.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
    const value = m[2] as string;
    out[m[1] as string] = value.startsWith('"') ? (JSON.parse(value) as string) : value;
  }
  return out;
}

/** The instructions of a stage and of the stages it is built on, oldest first. */
export function lineage(stages: Stage[], name: string): Stage[] {
  const stage = stages.find((s) => s.name === name);
  if (!stage) return [];
  return [...lineage(stages, stage.from), stage];
}

/**
 * Docker's .dockerignore matching: the last pattern that matches a path (or one of its parent
 * directories) decides; `!` re-includes.
 */
export function dockerignoreFilter(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = (negate ? l.slice(1) : l).replace(/^\/+|\/+$/g, '');
      return { negate, re: globToRegExp(pattern) };
    });
  return (path: string) => {
    const parts = path.split('/');
    let included = true;
    for (const rule of rules) {
      for (let n = 1; n <= parts.length; n++) {
        if (rule.re.test(parts.slice(0, n).join('/'))) {
          included = rule.negate;
          break;
        }
      }
    }
    return included;
  };
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
