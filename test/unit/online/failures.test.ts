import { describe, expect, it } from 'vitest';
import { JudgeCallError } from '../../../src/judge/types.js';
import { LangfuseApiError } from '../../../src/langfuse/index.js';
import { kindOf } from '../../../src/errors.js';
import { failedFrom } from '../../../src/metrics/definition.js';
import {
  isCredentialsCode,
  isOutageKind,
  langfuseFailure,
  metricFailure,
  scoreWriteFailure,
  unexpectedFailure,
} from '../../../src/online/failures.js';

describe('failure codes', () => {
  it('reads the kind of judge failures from the errors, never from their messages', () => {
    const judged = (kind: string) =>
      metricFailure(
        failedFrom('faithfulness', new JudgeCallError('judge call failed', true, kind, 4)) as never,
      ).code.split(':')[2];
    expect(judged('http_503')).toBe('http_503');
    expect(judged('connection')).toBe('connection');
    expect(judged('schema_mismatch')).toBe('schema_mismatch');
    expect(kindOf(new LangfuseApiError('request failed with status 502', 'r', 'http', 502, true, 5))).toBe('http_502');
    expect(kindOf(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe('connection');
    expect(
      unexpectedFailure(new Error('internal: something odd about María García'), 'metrics').code.split(':')[1],
    ).toBe('error');
  });

  it('never copies free text into a code', () => {
    const f = metricFailure({
      metric: 'faithfulness',
      status: 'failed',
      error: 'internal: the answer "Juan Pérez, 612345678" broke',
      kind: 'internal',
      dependency: null,
      retryable: false,
    });
    expect(f.code).toBe('metric:faithfulness:error');
    expect(f.outageLike).toBe(false);
  });

  it('tells outage-like kinds', () => {
    for (const k of ['connection', 'timeout', 'http_500', 'http_503', 'http_429', 'rate_limited'])
      expect(isOutageKind(k)).toBe(true);
    for (const k of ['http_400', 'http_404', 'invalid_json', 'schema_mismatch', 'error'])
      expect(isOutageKind(k)).toBe(false);
  });

  it('maps Langfuse and judge errors', () => {
    expect(langfuseFailure(new LangfuseApiError('x', 'GET /api/public/traces/{id}', 'http', 503, true, 5))).toEqual({
      dependency: 'langfuse',
      code: 'langfuse:http_503',
      outageLike: true,
    });
    expect(langfuseFailure(new LangfuseApiError('x', 'r', 'connection', undefined, true, 5))).toMatchObject({
      code: 'langfuse:connection',
      outageLike: true,
    });
    // rejected keys are the same for every trace: an outage of ours, never one trace's failure
    expect(langfuseFailure(new LangfuseApiError('x', 'r', 'http', 401, false, 1))).toMatchObject({
      code: 'langfuse:http_401',
      outageLike: true,
    });
    expect(langfuseFailure(new LangfuseApiError('x', 'r', 'http', 404, false, 1))).toMatchObject({
      code: 'langfuse:http_404',
      outageLike: false,
    });
    expect(langfuseFailure(new LangfuseApiError('x', 'r', 'invalid_json', 200, true, 5))).toMatchObject({
      code: 'langfuse:invalid_json',
      outageLike: true,
    });
    expect(langfuseFailure(new LangfuseApiError('x', 'r', 'protocol', 200, true, 1))).toMatchObject({
      code: 'langfuse:protocol',
      outageLike: true,
    });
    expect(unexpectedFailure(new JudgeCallError('m', true, 'timeout', 3), 'metrics')).toEqual({
      dependency: 'judge',
      code: 'judge:timeout',
      outageLike: true,
      channel: 'judge',
    });
    expect(unexpectedFailure(new TypeError('cannot read x'), 'metrics')).toEqual({
      dependency: null,
      code: 'metrics:error',
      outageLike: false,
    });
    expect(scoreWriteFailure(400, false)).toMatchObject({ code: 'langfuse:ingestion_http_400', outageLike: false });
    expect(scoreWriteFailure(undefined, true)).toMatchObject({
      code: 'langfuse:ingestion_unacknowledged',
      outageLike: true,
    });
    expect(scoreWriteFailure(200, true, 'invalid_json')).toMatchObject({
      code: 'langfuse:ingestion_invalid_json',
      outageLike: true,
      channel: 'langfuse:write',
    });
    expect(scoreWriteFailure(207, true, 'protocol')).toMatchObject({
      code: 'langfuse:ingestion_protocol',
      outageLike: true,
    });
    expect(scoreWriteFailure(403, false, 'http')).toMatchObject({
      code: 'langfuse:ingestion_http_403',
      outageLike: true,
    });
  });

  it('tells the judge answering nonsense (an HTML page) from an answer the trace made unusable', () => {
    const html = metricFailure({
      metric: 'faithfulness',
      status: 'failed',
      error: 'invalid_response: Unexpected token < (after 4 attempts)',
      kind: 'invalid_response',
      dependency: 'judge',
      retryable: true,
    });
    expect(html).toMatchObject({ code: 'metric:faithfulness:invalid_response', outageLike: true, channel: 'judge' });
    const content = metricFailure({
      metric: 'faithfulness',
      status: 'failed',
      error: 'invalid_json: Unexpected end (after 2 attempts)',
      kind: 'invalid_json',
      dependency: 'judge',
      retryable: true,
    });
    expect(content).toMatchObject({ code: 'metric:faithfulness:invalid_json', outageLike: false });
  });

  it('recognises refused credentials in any failure code', () => {
    for (const code of [
      'langfuse:http_401',
      'metric:answer_relevancy:http_403',
      'judge:http_401',
      'langfuse:ingestion_http_401',
      'langfuse:unauthorized',
    ])
      expect(isCredentialsCode(code), code).toBe(true);
    for (const code of [
      'langfuse:http_500',
      'metric:faithfulness:http_400',
      'langfuse:protocol',
      'metric:faithfulness:invalid_json',
    ])
      expect(isCredentialsCode(code), code).toBe(false);
  });
});
