/**
 * Scripted mode: a test fixes exact answers (per schema or tool name, per content of the last user message,
 * or both) and exact embedding vectors (per input text). Scripted entries win over every rule. When several
 * entries match, the more specific wins (content + name over content over name); between equals, entries
 * limited by `times` are used first (oldest first), else the latest added wins.
 */
import type { JudgeRequest } from './types.js';

export interface ScriptedAnswer {
  /** `response_format.json_schema.name` to match. */
  schema?: string;
  /** Forced tool name to match. */
  tool?: string;
  /** Substring of, or pattern tested on, the last user message. */
  match?: string | RegExp;
  /** The answer (validated against the request's schema), or a function of the request. */
  value?: unknown;
  /** Content sent verbatim, unvalidated (e.g. deliberately broken JSON). Wins over `value`. */
  raw?: string;
  /** Thinking put into `reasoning_content` (or `<think>` in content) for this answer. */
  reasoning?: string;
  /** Use the entry this many times, then drop it (default: forever). */
  times?: number;
}

interface Entry extends ScriptedAnswer {
  order: number;
  used: number;
}

export class Script {
  private readonly answers: Entry[] = [];
  private readonly vectors = new Map<string, number[]>();
  private counter = 0;

  answer(entry: ScriptedAnswer): this {
    if (entry.value === undefined && entry.raw === undefined) throw new Error('a scripted answer needs value or raw');
    this.answers.push({ ...entry, order: this.counter++, used: 0 });
    return this;
  }

  /** Exact vector returned for this exact input text. */
  embedding(text: string, vector: number[]): this {
    this.vectors.set(text, [...vector]);
    return this;
  }

  embeddings(vectors: Record<string, number[]> | Map<string, number[]>): this {
    const entries = vectors instanceof Map ? [...vectors.entries()] : Object.entries(vectors);
    for (const [text, vector] of entries) this.embedding(text, vector);
    return this;
  }

  clear(): this {
    this.answers.length = 0;
    this.vectors.clear();
    return this;
  }

  vectorFor(text: string): number[] | undefined {
    const v = this.vectors.get(text);
    return v ? [...v] : undefined;
  }

  /** The winning scripted answer for the request (its use is counted), if any. */
  take(request: JudgeRequest): ScriptedAnswer | undefined {
    let best: Entry | undefined;
    let bestScore = -1;
    for (const e of this.answers) {
      if (e.times !== undefined && e.used >= e.times) continue;
      const score = specificity(e, request);
      if (score < 0) continue;
      if (score > bestScore || (score === bestScore && best !== undefined && preferred(e, best))) {
        best = e;
        bestScore = score;
      }
    }
    if (!best) return undefined;
    best.used += 1;
    const value = typeof best.value === 'function' ? (best.value as (r: JudgeRequest) => unknown)(request) : best.value;
    return { ...best, value };
  }
}

/**
 * Between equally specific entries: limited ones (`times`) first, oldest first, so a test can queue "first
 * this, then that"; among unlimited ones the latest added, so a test can override an earlier answer.
 */
function preferred(candidate: Entry, current: Entry): boolean {
  const limited = (e: Entry) => e.times !== undefined;
  if (limited(candidate) !== limited(current)) return limited(candidate);
  return limited(candidate) ? candidate.order < current.order : candidate.order > current.order;
}

/** -1 when the entry does not match; otherwise higher is more specific. */
function specificity(e: ScriptedAnswer, request: JudgeRequest): number {
  let score = 0;
  if (e.schema !== undefined) {
    if (request.schemaName !== e.schema) return -1;
    score += 1;
  }
  if (e.tool !== undefined) {
    if (request.toolName !== e.tool) return -1;
    score += 1;
  }
  if (e.match !== undefined) {
    const hit =
      typeof e.match === 'string'
        ? request.lastUser.includes(e.match)
        : new RegExp(e.match.source, e.match.flags.replace('g', '')).test(request.lastUser);
    if (!hit) return -1;
    score += 2;
  }
  return score;
}
