import { describe, expect, it } from 'vitest';
import { createOpenApiValidator } from '../../helpers/openapi.js';

const validator = createOpenApiValidator();

const trace = {
  id: 't',
  timestamp: '2025-01-01T00:00:00.000Z',
  name: null,
  sessionId: null,
  release: null,
  version: null,
  userId: null,
  tags: [],
  public: false,
  environment: 'default',
  htmlPath: '/p',
  observations: [],
  scores: [],
};

describe('OpenAPI exchange validator', () => {
  it('accepts nullable fields and reports missing required ones', () => {
    expect(
      validator.validate({ method: 'GET', path: '/api/public/traces/t', status: 200, responseBody: trace }),
    ).toEqual([]);
    const { htmlPath: _dropped, ...withoutPath } = trace;
    expect(
      validator.validate({ method: 'GET', path: '/api/public/traces/t', status: 200, responseBody: withoutPath }),
    ).toEqual(["trace_get response 200 must have required property 'htmlPath'"]);
  });

  it('checks date-time formats, query parameters and undeclared statuses', () => {
    const violations = validator.validate({
      method: 'GET',
      path: '/api/public/v2/observations',
      query: { limit: 'ten', typo: '1' },
      status: 418,
      responseBody: {},
    });
    expect(violations).toContain('observations_getMany: unknown query parameter "typo"');
    expect(violations.some((v) => v.includes('query "limit"'))).toBe(true);
    expect(violations).toContain('observations_getMany: status 418 is not declared in the spec');
    expect(
      validator.validate({
        method: 'GET',
        path: '/api/public/traces/t',
        status: 200,
        responseBody: { ...trace, timestamp: 'yesterday' },
      }),
    ).toEqual(['trace_get response 200/timestamp must match format "date-time"']);
  });

  it('narrows discriminated unions to the branch named by the discriminator', () => {
    const batch = (event: unknown) => ({
      method: 'POST',
      path: '/api/public/ingestion',
      requestBody: { batch: [event] },
    });
    expect(
      validator.validate(batch({ id: 'e', timestamp: 'x', type: 'score-create', body: { name: 'n', value: 1 } })),
    ).toEqual([]);
    const violations = validator.validate(batch({ id: 'e', timestamp: 'x', type: 'score-create', body: { value: 1 } }));
    expect(violations).toEqual(["ingestion_batch request body/batch/0/body must have required property 'name'"]);
    expect(validator.validate(batch({ id: 'e', timestamp: 'x', type: 'no-such-event', body: {} })).join()).toMatch(
      /allowed values/,
    );
  });

  it('matches literal paths before templated ones and names unknown operations', () => {
    expect(validator.operationId('GET', '/api/public/v2/datasets')).toBe('datasets_list');
    expect(validator.operationId('GET', '/api/public/v2/datasets/golden')).toBe('datasets_get');
    expect(validator.validate({ method: 'GET', path: '/api/public/nope' })).toEqual([
      'GET /api/public/nope: no such operation in the spec',
    ]);
  });
});
