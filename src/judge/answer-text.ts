/**
 * Gets the JSON out of a judge's message content defensively. Content that is JSON as it stands is taken as
 * it is: its strings may hold anything the schema allows, `</think>` and fences included, so nothing is cut
 * out of it first. Otherwise thinking blocks (`<think>…</think>`, also an unclosed one) and markdown fences
 * are stripped, and as a last resort the outermost JSON object or array is cut out of surrounding prose.
 * Returns the parsed value or a description of why there is none.
 */
export type ParsedAnswer = { ok: true; value: unknown } | { ok: false; error: string };

export function stripThinking(content: string): string {
  let text = content.replace(/<think>[\s\S]*?<\/think>/gi, '');
  // A reasoning model that closes thinking without opening it in the content (template opened it).
  const close = text.search(/<\/think>/i);
  if (close >= 0) text = text.slice(close + '</think>'.length);
  return text.trim();
}

export function stripFences(text: string): string {
  const fenced = /^```[\w-]*\s*\n?([\s\S]*?)\n?\s*```$/.exec(text.trim());
  return fenced ? (fenced[1] ?? '').trim() : text.trim();
}

export function parseJsonAnswer(content: string | null | undefined): ParsedAnswer {
  if (content === null || content === undefined || content.trim() === '')
    return { ok: false, error: 'the answer is empty' };
  const whole = tryParse(content);
  if (whole.ok) return whole;
  const text = stripFences(stripThinking(content));
  const direct = tryParse(text);
  if (direct.ok) return direct;
  const embedded = outermostJson(text);
  if (embedded !== undefined) {
    const inner = tryParse(embedded);
    if (inner.ok) return inner;
  }
  return direct;
}

function tryParse(text: string): ParsedAnswer {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: `the answer is not valid JSON (${(err as Error).message})` };
  }
}

/** The first balanced {...} or [...] span, honouring strings and escapes. */
function outermostJson(text: string): string | undefined {
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i += 1;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return undefined;
      if (stack.length === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}
