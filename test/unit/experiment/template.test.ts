import { describe, expect, it } from 'vitest';
import {
  expandEnv,
  renderBody,
  renderUrl,
  templateVariables,
  TemplateError,
} from '../../../src/experiment/template.js';

describe('request templates', () => {
  const vars = { question: '¿Qué es "Redis"?', distractors: ['a', 'b'], itemId: 'i-1', runName: 'r' };
  it('keeps the type of a whole-string variable and interpolates text inside strings', () => {
    expect(
      renderBody({ q: '{{question}}', extra: '{{ distractors }}', tag: 'run={{runName}}/{{itemId}}', n: 3 }, vars),
    ).toEqual({
      q: '¿Qué es "Redis"?',
      extra: ['a', 'b'],
      tag: 'run=r/i-1',
      n: 3,
    });
  });
  it('percent-encodes URL variables', () => {
    expect(renderUrl('http://rag/ask?q={{question}}', vars)).toBe(
      'http://rag/ask?q=%C2%BFQu%C3%A9%20es%20%22Redis%22%3F',
    );
  });
  it('lists the variables a template uses and rejects unknown ones', () => {
    expect(templateVariables({ a: ['{{question}}', 'x {{runName}}'] })).toEqual(['question', 'runName']);
    expect(() => renderBody('{{nope}}', vars)).toThrow(TemplateError);
  });
  it('reads header secrets from the environment and names a missing one', () => {
    expect(expandEnv('Bearer ${TOKEN}', { TOKEN: 't0k' }, 'h')).toBe('Bearer t0k');
    expect(() => expandEnv('Bearer ${TOKEN}', {}, 'experiment.target.headers.Authorization')).toThrow(
      'experiment.target.headers.Authorization: environment variable TOKEN is not set',
    );
  });
});
