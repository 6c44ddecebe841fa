import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/internal/index.js';
import { classifyError } from '../../../src/judge/failure.js';

/** The one Retry-After parser, with the judge's clock. */
const retryAfter = (headers: Headers, now: () => number) => parseRetryAfter(headers, now());

const now = () => Date.parse('2025-01-01T00:00:00Z');

describe('classifyError', () => {
  const apiError = (status: number, headers: Record<string, string> = {}) =>
    OpenAI.APIError.generate(status, { message: `status ${status}` }, undefined, new Headers(headers));

  it.each([408, 409, 429, 500, 502, 503, 504])('retries HTTP %i', (status) => {
    expect(classifyError(apiError(status), false, false, now)).toMatchObject({
      kind: `http_${status}`,
      retryable: true,
    });
  });

  it.each([400, 401, 403, 404, 422])('does not retry HTTP %i', (status) => {
    expect(classifyError(apiError(status), false, false, now)).toMatchObject({
      kind: `http_${status}`,
      retryable: false,
    });
  });

  it('carries the Retry-After of a 429', () => {
    expect(classifyError(apiError(429, { 'retry-after': '3' }), false, false, now).retryAfterMs).toBe(3000);
  });

  it('tells timeouts, caller aborts and connection errors apart', () => {
    const abort = new OpenAI.APIUserAbortError();
    expect(classifyError(abort, true, false, now)).toMatchObject({ kind: 'timeout', retryable: true });
    expect(classifyError(abort, false, true, now)).toMatchObject({ kind: 'aborted', retryable: false });
    expect(classifyError(new OpenAI.APIConnectionTimeoutError(), false, false, now)).toMatchObject({
      kind: 'timeout',
      retryable: true,
    });
    expect(
      classifyError(new OpenAI.APIConnectionError({ cause: new Error('ECONNRESET') }), false, false, now),
    ).toMatchObject({
      kind: 'connection',
      retryable: true,
      message: 'connection error: ECONNRESET',
    });
    expect(classifyError(new SyntaxError('Unexpected token'), false, false, now)).toMatchObject({
      kind: 'invalid_response',
      retryable: true,
    });
  });
});

describe('retryAfter', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(retryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfter(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(retryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }), now)).toBe(10_000);
    expect(retryAfter(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(0);
    expect(retryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfter(new Headers(), now)).toBeUndefined();
  });
});
