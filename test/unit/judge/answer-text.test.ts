import { describe, expect, it } from 'vitest';
import { parseJsonAnswer, stripFences, stripThinking } from '../../../src/judge/answer-text.js';

describe('parseJsonAnswer', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['```json\n{"a":1}\n```', { a: 1 }],
    ['```\n[1,2]\n```', [1, 2]],
    ['<think>the user wants {"a":2}</think>\n{"a":1}', { a: 1 }],
    ['reasoning that was never opened</think>{"a":1}', { a: 1 }],
    ['<THINK>x</THINK>```json\n{"a":1}```', { a: 1 }],
    ['Here is the JSON: {"a": "}{"} — done', { a: '}{' }],
  ])('reads %j', (content, expected) => {
    expect(parseJsonAnswer(content)).toEqual({ ok: true, value: expected });
  });

  it.each([null, undefined, '', '   '])('reports an empty answer (%j)', (content) => {
    expect(parseJsonAnswer(content)).toEqual({ ok: false, error: 'the answer is empty' });
  });

  it.each(['{"claims": ["a", ', 'not json at all', '{"a": 1', '<think>only thinking</think>'])(
    'reports %j as invalid JSON',
    (content) => {
      const result = parseJsonAnswer(content);
      expect(result.ok).toBe(false);
    },
  );

  it.each([
    { claims: [{ claim: 'see </think> here', chunks: [], verdict: 1 }] },
    { reason: '<think>not a thought</think>' },
    { reason: '```json' },
    ['```', '</think>{"a":1}'],
  ])('reads valid JSON as it is, whatever its strings look like (%j)', (value) => {
    expect(parseJsonAnswer(JSON.stringify(value))).toEqual({ ok: true, value });
    expect(parseJsonAnswer(`  ${JSON.stringify(value, null, 2)}\n`)).toEqual({ ok: true, value });
  });

  it('strips thinking and fences without touching the inside', () => {
    expect(stripThinking('<think>a</think> {"x":"<think>"}')).toBe('{"x":"<think>"}');
    expect(stripFences('```json\n{"x":"```"}\n```')).toBe('{"x":"```"}');
  });
});
