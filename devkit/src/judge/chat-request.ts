/**
 * Validates a chat completion body the way vLLM does where it matters, and builds the request view rules
 * see. Error messages that clients may match on are vLLM's own (e.g. greedy sampling with n > 1).
 */
import { HttpError } from './http-util.js';
import { taskMessage } from './request-text.js';
import { SchemaCompileError, validatorFor } from './schema-check.js';
import type { JudgeMessage, JudgeRequest } from './types.js';

/** vLLM's sampling epsilon: a temperature below it is greedy. */
const SAMPLING_EPS = 1e-5;

export const LEGACY_GUIDED_FIELDS = [
  'guided_json',
  'guided_regex',
  'guided_choice',
  'guided_grammar',
  'guided_decoding_backend',
  'guided_whitespace_pattern',
] as const;

export interface ChatSettings {
  legacyGuidedFields: 'reject' | 'ignore';
  autoToolChoice: boolean;
}

export interface ParsedChat {
  request: JudgeRequest;
  n: number;
  maxTokens?: number;
  temperature: number;
  /** `chat_template_kwargs.enable_thinking !== false`. */
  thinking: boolean;
  tools?: unknown[];
  /** True when the tool was forced by name (vLLM then answers `finish_reason: 'stop'`). */
  namedTool: boolean;
  /** Legacy fields dropped under the `ignore` policy. */
  ignoredFields: string[];
}

export function parseChat(body: unknown, servedModel: string, settings: ChatSettings): ParsedChat {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'request body must be a JSON object');
  const b = body as Record<string, unknown>;
  const ignoredFields: string[] = [];
  for (const field of LEGACY_GUIDED_FIELDS) {
    if (!(field in b)) continue;
    if (settings.legacyGuidedFields === 'ignore') {
      ignoredFields.push(field);
      continue;
    }
    throw new HttpError(
      400,
      `\`${field}\` was removed in vLLM 0.12: use \`response_format: {"type": "json_schema", "json_schema": {...}}\` ` +
        '(or `structured_outputs`). A real vLLM ≥ 0.12 ignores the field silently and answers unconstrained; ' +
        'this stand-in rejects it so the mistake is loud.',
      'BadRequestError',
      field,
    );
  }
  const messages = parseMessages(b.messages);
  const n = integerField(b, 'n', 1);
  if (n < 1) throw new HttpError(400, `n must be at least 1, got ${n}.`, 'BadRequestError', 'n');
  const temperature = numberField(b, 'temperature', 1.0);
  if (!(temperature >= 0))
    throw new HttpError(400, `temperature must be non-negative, got ${temperature}.`, 'BadRequestError', 'temperature');
  if (temperature > 2)
    throw new HttpError(400, `temperature must be in [0, 2], got ${temperature}.`, 'BadRequestError', 'temperature');
  if (temperature < SAMPLING_EPS && n > 1)
    throw new HttpError(400, `n must be 1 when using greedy sampling, got ${n}.`);
  const maxTokensRaw = b.max_completion_tokens ?? b.max_tokens;
  let maxTokens: number | undefined;
  if (maxTokensRaw !== undefined && maxTokensRaw !== null) {
    if (typeof maxTokensRaw !== 'number' || !Number.isInteger(maxTokensRaw))
      throw new HttpError(400, 'max_tokens must be an integer', 'BadRequestError', 'max_tokens');
    if (maxTokensRaw < 1)
      throw new HttpError(400, `max_tokens must be at least 1, got ${maxTokensRaw}.`, 'BadRequestError', 'max_tokens');
    maxTokens = maxTokensRaw;
  }
  if (b.seed !== undefined && b.seed !== null && (typeof b.seed !== 'number' || !Number.isInteger(b.seed))) {
    throw new HttpError(400, 'seed must be an integer', 'BadRequestError', 'seed');
  }
  const kwargs = b.chat_template_kwargs;
  const thinking = !(
    typeof kwargs === 'object' &&
    kwargs !== null &&
    (kwargs as Record<string, unknown>).enable_thinking === false
  );

  const base = {
    body: b,
    model: typeof b.model === 'string' && b.model !== '' ? b.model : servedModel,
    messages,
    system: messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => m.content)
      .join('\n\n'),
    lastUser: taskMessage(messages),
  };
  const tools = Array.isArray(b.tools) && b.tools.length > 0 ? (b.tools as unknown[]) : undefined;
  const forced = forcedTool(b.tool_choice, tools, settings);
  if (forced) {
    const request: JudgeRequest = {
      ...base,
      mode: 'tool_call',
      toolName: forced.name,
      schema: compiled(forced.parameters, 'tools'),
    };
    return { request, n, maxTokens, temperature, thinking, tools, namedTool: forced.named, ignoredFields };
  }
  const structured = structuredFormat(b);
  const request: JudgeRequest = { ...base, ...structured };
  return { request, n, maxTokens, temperature, thinking, tools, namedTool: false, ignoredFields };
}

function parseMessages(value: unknown): JudgeMessage[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new HttpError(400, 'messages must be a non-empty list', 'BadRequestError', 'messages');
  return value.map((m, i) => {
    if (typeof m !== 'object' || m === null || typeof (m as { role?: unknown }).role !== 'string') {
      throw new HttpError(400, `messages[${i}] must be an object with a role`, 'BadRequestError', 'messages');
    }
    const { role, content } = m as { role: string; content?: unknown };
    return { role, content: flattenContent(content) };
  });
}

function flattenContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .filter((t) => t !== '')
      .join('\n');
  }
  return '';
}

function forcedTool(
  choice: unknown,
  tools: unknown[] | undefined,
  settings: ChatSettings,
): { name: string; parameters: unknown; named: boolean } | undefined {
  const fn = (t: unknown) => (t as { function?: { name?: unknown; parameters?: unknown } } | null)?.function;
  if (typeof choice === 'object' && choice !== null) {
    const name = (choice as { function?: { name?: unknown } }).function?.name;
    if (typeof name !== 'string')
      throw new HttpError(400, 'tool_choice.function.name must be a string', 'BadRequestError', 'tool_choice');
    const tool = tools?.find((t) => fn(t)?.name === name);
    if (!tool)
      throw new HttpError(400, `Tool '${name}' has not been passed in \`tools\`.`, 'BadRequestError', 'tool_choice');
    return { name, parameters: fn(tool)?.parameters ?? { type: 'object', properties: {} }, named: true };
  }
  if (!tools || choice === 'none') return undefined;
  if (choice === 'auto' || choice === undefined || choice === null) {
    if (!settings.autoToolChoice) {
      if (choice === undefined || choice === null) return undefined;
      throw new HttpError(
        400,
        '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        'BadRequestError',
        'tool_choice',
      );
    }
  } else if (choice !== 'required') {
    throw new HttpError(
      400,
      `tool_choice must be 'none', 'auto', 'required' or a named function`,
      'BadRequestError',
      'tool_choice',
    );
  }
  const first = fn(tools[0]);
  if (typeof first?.name !== 'string')
    throw new HttpError(400, 'tools[0].function.name must be a string', 'BadRequestError', 'tools');
  return { name: first.name, parameters: first.parameters ?? { type: 'object', properties: {} }, named: false };
}

function structuredFormat(b: Record<string, unknown>): Pick<JudgeRequest, 'mode' | 'schemaName' | 'schema'> {
  const so = b.structured_outputs as { json?: unknown } | undefined;
  if (so && typeof so === 'object' && so.json !== undefined) {
    let schema: unknown = so.json;
    if (typeof so.json === 'string') {
      try {
        schema = JSON.parse(so.json) as unknown;
      } catch {
        throw new HttpError(
          400,
          'structured_outputs.json must be a JSON schema (object or JSON text)',
          'BadRequestError',
          'structured_outputs',
        );
      }
    }
    return { mode: 'json_schema', schema: compiled(schema, 'structured_outputs') };
  }
  const rf = b.response_format as { type?: unknown; json_schema?: { name?: unknown; schema?: unknown } } | undefined;
  if (rf === undefined || rf === null || rf.type === 'text') return { mode: 'text' };
  if (rf.type === 'json_object') return { mode: 'json_object' };
  if (rf.type !== 'json_schema')
    throw new HttpError(
      400,
      `response_format.type must be one of 'text', 'json_object', 'json_schema'`,
      'BadRequestError',
      'response_format',
    );
  const js = rf.json_schema;
  if (!js || typeof js !== 'object' || js.schema === undefined) {
    throw new HttpError(
      400,
      'When response_format type is `json_schema`, `json_schema` must be provided with a `schema`.',
      'BadRequestError',
      'response_format',
    );
  }
  return {
    mode: 'json_schema',
    schemaName: typeof js.name === 'string' ? js.name : undefined,
    schema: compiled(js.schema, 'response_format'),
  };
}

function compiled(schema: unknown, param: string): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    throw new HttpError(400, 'the JSON schema must be an object', 'BadRequestError', param);
  try {
    validatorFor(schema as Record<string, unknown>);
  } catch (err) {
    if (err instanceof SchemaCompileError) throw new HttpError(400, err.message, 'BadRequestError', param);
    throw err;
  }
  return schema as Record<string, unknown>;
}

function integerField(b: Record<string, unknown>, key: string, fallback: number): number {
  const v = b[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new HttpError(400, `${key} must be an integer`, 'BadRequestError', key);
  return v;
}

function numberField(b: Record<string, unknown>, key: string, fallback: number): number {
  const v = b[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new HttpError(400, `${key} must be a number`, 'BadRequestError', key);
  return v;
}
