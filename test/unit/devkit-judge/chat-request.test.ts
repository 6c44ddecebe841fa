import { describe, expect, it } from 'vitest';
import { parseChat, type ChatSettings } from '@ragwatch/devkit/judge/chat-request.js';
import { HttpError } from '@ragwatch/devkit/judge/http-util.js';

const settings: ChatSettings = { legacyGuidedFields: 'reject', autoToolChoice: false };
const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

function errorOf(body: unknown, s = settings): HttpError {
  try {
    parseChat(body, 'served', s);
  } catch (err) {
    return err as HttpError;
  }
  throw new Error('expected an error');
}

describe('parseChat', () => {
  it("rejects greedy n > 1 with vLLM's message; sampling n > 1 is fine", () => {
    expect(errorOf({ ...base, temperature: 0, n: 2 })).toMatchObject({
      status: 400,
      message: 'n must be 1 when using greedy sampling, got 2.',
      param: null,
    });
    expect(errorOf({ ...base, temperature: 0.000001, n: 2 }).message).toBe(
      'n must be 1 when using greedy sampling, got 2.',
    );
    expect(parseChat({ ...base, temperature: 0.3, n: 2 }, 'served', settings).n).toBe(2);
    expect(parseChat({ ...base, n: 2 }, 'served', settings).temperature).toBe(1);
  });

  it.each(['guided_json', 'guided_regex', 'guided_choice', 'guided_grammar', 'guided_decoding_backend'])(
    'rejects %s, or drops it under ignore',
    (field) => {
      expect(errorOf({ ...base, [field]: {} })).toMatchObject({ status: 400, param: field });
      expect(
        parseChat({ ...base, [field]: {} }, 'served', { ...settings, legacyGuidedFields: 'ignore' }).ignoredFields,
      ).toEqual([field]);
    },
  );

  it('reads structured output, forced tools and thinking switches', () => {
    const schema = { type: 'object' };
    const structured = parseChat(
      { ...base, response_format: { type: 'json_schema', json_schema: { name: 'n', schema } } },
      'served',
      settings,
    );
    expect(structured.request).toMatchObject({ mode: 'json_schema', schemaName: 'n', schema, model: 'm' });
    const vllmStyle = parseChat({ ...base, structured_outputs: { json: schema } }, 'served', settings);
    expect(vllmStyle.request.mode).toBe('json_schema');
    const tool = parseChat(
      { ...base, tools: [{ type: 'function', function: { name: 't', parameters: schema } }], tool_choice: 'required' },
      'served',
      settings,
    );
    expect(tool).toMatchObject({ namedTool: false, request: { mode: 'tool_call', toolName: 't' } });
    expect(parseChat({ ...base, chat_template_kwargs: { enable_thinking: false } }, 'served', settings).thinking).toBe(
      false,
    );
    expect(parseChat({ ...base, model: undefined }, 'served', settings).request.model).toBe('served');
  });

  it('flattens content parts and picks the system text', () => {
    const parsed = parseChat(
      {
        messages: [
          { role: 'system', content: 'sys' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        ],
      },
      'served',
      settings,
    );
    expect(parsed.request).toMatchObject({ system: 'sys', lastUser: 'a\nb' });
  });

  it('validates parameters like vLLM', () => {
    expect(errorOf({ ...base, max_tokens: 0 }).message).toBe('max_tokens must be at least 1, got 0.');
    expect(errorOf({ ...base, temperature: -1 }).message).toBe('temperature must be non-negative, got -1.');
    expect(errorOf({ ...base, messages: 'x' }).status).toBe(400);
    expect(errorOf({ ...base, response_format: { type: 'json_schema', json_schema: { name: 'x' } } }).status).toBe(400);
    expect(errorOf({ ...base, structured_outputs: { json: '{not json' } }).status).toBe(400);
  });
});
