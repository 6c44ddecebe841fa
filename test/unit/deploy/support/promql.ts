/**
 * Reads the metric names (and the label names of their matchers) out of PromQL expressions, so the
 * deploy tests can check that alerts and dashboards only use what ragwatch's /metrics exports.
 * A tokenizer, not a full parser: it knows PromQL's functions-by-syntax (an identifier before `(`),
 * aggregation modifiers, vector-matching keywords and Grafana's `$variables`.
 */

export interface MetricUse {
  name: string;
  /** Label names used in this selector's matchers (`{outcome!="ok"}` → outcome). */
  labels: string[];
}

const AGGREGATIONS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'group',
  'stddev',
  'stdvar',
  'count',
  'count_values',
  'bottomk',
  'topk',
  'quantile',
  'limitk',
  'limit_ratio',
]);
/** Keywords followed by a parenthesised list of label names, not an expression. */
const LABEL_LIST_KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const KEYWORDS = new Set(['bool', 'and', 'or', 'unless', 'offset', 'atan2', 'inf', 'nan', 'start', 'end']);

/** Grafana's built-in interval variables become a fixed duration; other variables stay out of the way. */
export function substituteGrafanaVariables(expr: string): string {
  return expr
    .replace(/\$__(rate_interval|interval|range)\b|\$\{__(rate_interval|interval|range)\}/g, '5m')
    .replace(/\$__range_s\b/g, '300');
}

type Token = { kind: 'ident'; text: string } | { kind: 'matchers'; text: string } | { kind: 'punct'; text: string };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '#') {
      while (i < input.length && input[i] !== '\n') i++;
    } else if (c === '"' || c === "'" || c === '`') {
      i = skipString(input, i);
      tokens.push({ kind: 'punct', text: 'string' });
    } else if (c === '{') {
      const start = i;
      i++;
      while (i < input.length && input[i] !== '}') {
        const d = input[i] as string;
        i = d === '"' || d === "'" || d === '`' ? skipString(input, i) : i + 1;
      }
      if (i >= input.length) throw new Error(`unclosed { in ${JSON.stringify(input)}`);
      i++;
      tokens.push({ kind: 'matchers', text: input.slice(start + 1, i - 1) });
    } else if (c === '[') {
      const end = input.indexOf(']', i);
      if (end < 0) throw new Error(`unclosed [ in ${JSON.stringify(input)}`);
      i = end + 1;
      tokens.push({ kind: 'punct', text: 'range' });
    } else if (/[A-Za-z_:]/.test(c)) {
      const m = /^[A-Za-z_:][A-Za-z0-9_:]*/.exec(input.slice(i)) as RegExpExecArray;
      tokens.push({ kind: 'ident', text: m[0] });
      i += m[0].length;
    } else if (/[0-9.]/.test(c)) {
      // Numbers and durations (5m, 1h30m, 0.8, 1e3, 0x1f).
      const m = /^(0x[0-9a-fA-F]+|[0-9.]+(e[+-]?[0-9]+)?([a-z]+[0-9.]*)*)/.exec(input.slice(i)) as RegExpExecArray;
      i += Math.max(1, m[0].length);
      tokens.push({ kind: 'punct', text: 'number' });
    } else {
      tokens.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return tokens;
}

function skipString(input: string, start: number): number {
  const quote = input[start];
  let i = start + 1;
  while (i < input.length && input[i] !== quote) i += input[i] === '\\' && quote !== '`' ? 2 : 1;
  if (i >= input.length) throw new Error(`unclosed string in ${JSON.stringify(input)}`);
  return i + 1;
}

function matcherLabels(text: string): { labels: string[]; name: string | null } {
  const labels: string[] = [];
  let name: string | null = null;
  const re = /([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)/g;
  for (const m of text.matchAll(re)) {
    const label = m[1] as string;
    if (label === '__name__' && m[2] === '=') name = JSON.parse((m[3] as string).replace(/^'|'$/g, '"'));
    else labels.push(label);
  }
  return { labels, name };
}

/** Every metric selector in a PromQL expression, in order of appearance. */
export function metricUses(expression: string): MetricUse[] {
  const tokens = tokenize(substituteGrafanaVariables(expression));
  const uses: MetricUse[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    const next = tokens[i + 1];
    if (t.kind === 'matchers') {
      // A selector without a name: `{__name__="x", ...}`.
      const { labels, name } = matcherLabels(t.text);
      if (name) uses.push({ name, labels });
      continue;
    }
    if (t.kind !== 'ident') continue;
    if (LABEL_LIST_KEYWORDS.has(t.text)) {
      // Skip the label list that follows.
      if (next?.text === '(') {
        let j = i + 1;
        while (j < tokens.length && tokens[j]?.text !== ')') j++;
        i = j;
      }
      continue;
    }
    if (KEYWORDS.has(t.text.toLowerCase())) continue;
    if (next?.kind === 'punct' && next.text === '(') continue; // a function call
    if (AGGREGATIONS.has(t.text) && next?.kind === 'ident' && LABEL_LIST_KEYWORDS.has(next.text)) continue;
    const matchers = next?.kind === 'matchers' ? matcherLabels(next.text).labels : [];
    uses.push({ name: t.text, labels: matchers });
  }
  return uses;
}

export function metricNames(expression: string): string[] {
  return [...new Set(metricUses(expression).map((u) => u.name))];
}
