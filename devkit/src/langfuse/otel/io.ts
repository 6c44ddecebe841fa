import { toAttributes, type Attributes } from './attributes.js';

/** Input/output extraction (Langfuse SDK attributes first, then the common instrumentation conventions). */

const IO_KEYS = [
  'langfuse.trace.input',
  'langfuse.trace.output',
  'langfuse.observation.input',
  'langfuse.observation.output',
  'ai.prompt.messages',
  'ai.prompt',
  'ai.toolCall.args',
  'ai.response.text',
  'ai.result.text',
  'ai.toolCall.result',
  'ai.response.object',
  'ai.result.object',
  'ai.response.toolCalls',
  'ai.result.toolCalls',
  'mlflow.spanInputs',
  'mlflow.spanOutputs',
  'traceloop.entity.input',
  'traceloop.entity.output',
  'input.value',
  'output.value',
  'input',
  'output',
  'gen_ai.system_instructions',
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
];

const IO_PREFIXES = [
  'gen_ai.prompt',
  'gen_ai.completion',
  'llm.input_messages',
  'llm.output_messages',
  'langfuse.trace.metadata',
  'langfuse.observation.metadata',
  'ai.telemetry.metadata',
];

interface SpanEvent {
  name?: string;
  attributes?: unknown;
}

export interface ExtractedIo {
  input: unknown;
  output: unknown;
  /** Attributes not used as input/output or metadata, stringified: Langfuse keeps them in `metadata.attributes`. */
  filteredAttributes: Record<string, string>;
}

/** Rebuilds `gen_ai.prompt.0.content`-style flattened keys into arrays/objects. */
function nest(a: Attributes, prefix: string): unknown {
  if (a[prefix]) return a[prefix];
  const keys = Object.keys(a)
    .filter((k) => k.startsWith(`${prefix}.`))
    .map((k) => k.slice(prefix.length + 1));
  const root: Record<string, unknown> | unknown[] = keys.some((k) => /^\d+(\.|$)/.test(k)) ? [] : {};
  for (const key of keys) {
    const path = key.split('.');
    let node = root as Record<string, unknown>;
    for (let i = 0; i < path.length - 1; i++) {
      const part = path[i]!;
      if (part === '__proto__' || part === 'constructor' || part === 'prototype') break;
      node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
      node = node[part] as Record<string, unknown>;
    }
    const last = path[path.length - 1]!;
    if (last !== '__proto__' && last !== 'constructor' && last !== 'prototype') node[last] = a[`${prefix}.${key}`];
  }
  return root;
}

/** The Vercel AI SDK (instrumentation scope `ai`): prompt, tool arguments, response text or tool calls. */
function vercelAiSdkIo(a: Attributes): { input: unknown; output: unknown } {
  const first = (keys: string[]) => keys.find((k) => k in a);
  const inputKey = first(['ai.prompt.messages', 'ai.prompt', 'ai.toolCall.args']);
  const input = inputKey ? a[inputKey] : undefined;
  if ('ai.response.text' in a && 'ai.response.toolCalls' in a) {
    return {
      input,
      output: JSON.stringify({
        role: 'assistant',
        content: a['ai.response.text'],
        tool_calls: a['ai.response.toolCalls'],
      }),
    };
  }
  if ('ai.response.text' in a && Boolean(a['ai.response.text'])) return { input, output: a['ai.response.text'] };
  const outputKey = first([
    'ai.result.text',
    'ai.toolCall.result',
    'ai.response.object',
    'ai.result.object',
    'ai.response.toolCalls',
    'ai.result.toolCalls',
  ]);
  return { input, output: outputKey ? a[outputKey] : undefined };
}

export function extractIo(
  a: Attributes,
  events: SpanEvent[],
  domain: 'trace' | 'observation',
  scopeName = '',
): ExtractedIo {
  const filtered: Record<string, string> = {};
  for (const [key, value] of Object.entries(a)) {
    if (IO_KEYS.includes(key) || IO_PREFIXES.some((p) => key.startsWith(p))) continue;
    filtered[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const done = (input: unknown, output: unknown): ExtractedIo => ({
    input: input ?? null,
    output: output ?? null,
    filteredAttributes: filtered,
  });

  const input =
    domain === 'trace' && a['langfuse.trace.input'] ? a['langfuse.trace.input'] : a['langfuse.observation.input'];
  const output =
    domain === 'trace' && a['langfuse.trace.output'] ? a['langfuse.trace.output'] : a['langfuse.observation.output'];
  if (input != null || output != null) return done(input, output);

  if (scopeName === 'ai') {
    const io = vercelAiSdkIo(a);
    return done(io.input, io.output);
  }

  const inputEvents = events.filter((e) =>
    ['gen_ai.system.message', 'gen_ai.user.message', 'gen_ai.assistant.message', 'gen_ai.tool.message'].includes(
      e.name ?? '',
    ),
  );
  const outputEvents = events.filter((e) => e.name === 'gen_ai.choice');
  if (inputEvents.length > 0 || outputEvents.length > 0) {
    const inputs = inputEvents.map((e) => ({
      role: (e.name ?? '').replace('gen_ai.', '').replace('.message', ''),
      ...toAttributes(e.attributes),
    }));
    const outputs = outputEvents.map((e) => toAttributes(e.attributes));
    return done(
      inputs.length > 0 ? inputs : null,
      outputs.length === 1 ? outputs[0] : outputs.length > 0 ? outputs : null,
    );
  }

  const pairs: [string, string][] = [
    ['mlflow.spanInputs', 'mlflow.spanOutputs'],
    ['traceloop.entity.input', 'traceloop.entity.output'],
    ['input.value', 'output.value'],
    ['input', 'output'],
  ];
  for (const [i, o] of pairs) {
    if (a[i] || a[o]) return done(a[i], a[o]);
  }
  if (Object.keys(a).some((k) => k.startsWith('gen_ai.prompt') || k.startsWith('gen_ai.completion'))) {
    return done(nest(a, 'gen_ai.prompt'), nest(a, 'gen_ai.completion'));
  }
  if (Object.keys(a).some((k) => k.startsWith('llm.input_messages') || k.startsWith('llm.output_messages'))) {
    return done(nest(a, 'llm.input_messages'), nest(a, 'llm.output_messages'));
  }
  if (a['gen_ai.input.messages'] || a['gen_ai.output.messages'])
    return done(a['gen_ai.input.messages'], a['gen_ai.output.messages']);
  if (a['gen_ai.tool.call.arguments'] || a['gen_ai.tool.call.result']) {
    return done(a['gen_ai.tool.call.arguments'], a['gen_ai.tool.call.result']);
  }
  return done(null, null);
}
