import { describe, expect, it } from 'vitest';
import { hasTaskParts, promptParts, splitContexts, taskMessage } from '@ragwatch/devkit/judge/request-text.js';
import type { JudgeRequest } from '@ragwatch/devkit/judge/types.js';

const req = (lastUser: string): JudgeRequest => ({
  body: {},
  model: 'm',
  messages: [],
  system: '',
  lastUser,
  mode: 'json_schema',
});

describe('promptParts', () => {
  it('reads labelled prompts', () => {
    const parts = promptParts(
      req(
        'question: What is Redis?\ncontext: [1] Redis is fast. [2] It is in memory.\nanswer: Redis is fast.\nreference: Redis is an in-memory store.\nstatements: ["a.", "b."]',
      ),
    );
    expect(parts).toMatchObject({
      question: 'What is Redis?',
      answer: 'Redis is fast.',
      contexts: ['Redis is fast.', 'It is in memory.'],
      reference: 'Redis is an in-memory store.',
      statements: ['a.', 'b.'],
      language: 'en',
    });
  });

  it('reads JSON prompts', () => {
    const parts = promptParts(
      req(
        JSON.stringify({
          pregunta: '¿Qué es Redis?',
          respuesta: 'Es una base de datos en memoria.',
          contextos: ['uno', 'dos'],
        }),
      ),
    );
    expect(parts).toMatchObject({
      question: '¿Qué es Redis?',
      answer: 'Es una base de datos en memoria.',
      contexts: ['uno', 'dos'],
      language: 'es',
    });
  });

  it('splits contexts by markers, else by paragraphs', () => {
    expect(splitContexts('Context 1: alpha\nContext 2: beta')).toEqual(['alpha', 'beta']);
    expect(splitContexts('alpha\n\nbeta')).toEqual(['alpha', 'beta']);
    expect(splitContexts('["x", "y"]')).toEqual(['x', 'y']);
    expect(splitContexts('single')).toEqual(['single']);
  });
});

describe('taskMessage', () => {
  const task = { role: 'user', content: 'answer: Redis is fast.' };
  it('skips a trailing repair turn', () => {
    expect(
      taskMessage([
        task,
        { role: 'assistant', content: '{"bad' },
        { role: 'user', content: 'Your previous answer could not be used.' },
      ]),
    ).toBe(task.content);
  });
  it('keeps a final message that carries a task (few-shot conversations)', () => {
    const final = { role: 'user', content: 'answer: Postgres is relational.' };
    expect(taskMessage([task, { role: 'assistant', content: '{"claims": []}' }, final])).toBe(final.content);
  });
  it('takes the last user message otherwise', () => {
    expect(
      taskMessage([
        { role: 'system', content: 's' },
        { role: 'user', content: 'plain' },
      ]),
    ).toBe('plain');
    expect(taskMessage([{ role: 'system', content: 's' }])).toBe('');
    expect(hasTaskParts('{"answer": "x"}')).toBe(true);
    expect(hasTaskParts('Please answer again.')).toBe(false);
  });
});
