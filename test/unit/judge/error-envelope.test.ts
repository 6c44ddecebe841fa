import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorBodyMessage, withErrorEnvelope } from '../../../src/judge/error-envelope.js';

const answering = (
  status: number,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) => (async () => new Response(body, { status, headers })) as unknown as typeof fetch;

describe('judge error bodies', () => {
  it('finds the message in every shape servers use', () => {
    expect(errorBodyMessage('{"error":{"message":"model not found","type":"NotFoundError"}}')).toBe('model not found');
    expect(
      errorBodyMessage(
        '{"object":"error","message":"The model `x` does not exist.","type":"NotFoundError","code":404}',
      ),
    ).toBe('The model `x` does not exist.');
    expect(errorBodyMessage('{"detail":"Not Found"}')).toBe('Not Found');
    expect(errorBodyMessage('{"detail":[{"loc":["body","model"],"msg":"field required"}]}')).toBe(
      '[{"loc":["body","model"],"msg":"field required"}]',
    );
    expect(errorBodyMessage('{"error":"rate limited"}')).toBe('rate limited');
    expect(errorBodyMessage('upstream connect error')).toBe('upstream connect error');
    expect(errorBodyMessage('<html><body>502 Bad Gateway</body></html>')).toBeUndefined();
    expect(errorBodyMessage('{}')).toBeUndefined();
    expect(errorBodyMessage('null')).toBeUndefined();
    expect(errorBodyMessage(`{"message":"${'x'.repeat(2000)}"}`)).toHaveLength(500);
  });

  it('rewrites a flat error body into OpenAI’s envelope, keeping the status and the headers the SDK reads', async () => {
    const fetch = withErrorEnvelope(
      answering(429, '{"object":"error","message":"too many requests","type":"RateLimitError","code":429}', {
        'content-type': 'application/json',
        'retry-after': '7',
        'x-request-id': 'r-1',
      }),
    );
    const res = await fetch('http://127.0.0.1:1/v1/chat/completions');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('x-request-id')).toBe('r-1');
    expect(await res.json()).toEqual({
      error: { message: 'too many requests', type: 'RateLimitError', code: 429, param: null },
    });
  });

  it('leaves successes, envelopes and bodies without a message as they are', async () => {
    const ok = await withErrorEnvelope(answering(200, '{"message":"fine"}'))('http://x');
    expect(await ok.text()).toBe('{"message":"fine"}');
    const envelope = '{"error":{"message":"bad","type":"x"}}';
    expect(await (await withErrorEnvelope(answering(400, envelope))('http://x')).text()).toBe(envelope);
    expect(await (await withErrorEnvelope(answering(500, '{"foo":1}'))('http://x')).text()).toBe('{"foo":1}');
    expect(
      await (
        await withErrorEnvelope(answering(502, '<html>bad gateway</html>', { 'content-type': 'text/html' }))('http://x')
      ).text(),
    ).toBe('<html>bad gateway</html>');
  });

  it('never throws on whatever a failing server sends back (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary' }), fc.json()),
        fc.integer({ min: 400, max: 599 }),
        async (body, status) => {
          const res = await withErrorEnvelope(answering(status, body))('http://x');
          expect(res.status).toBe(status);
          const text = await res.text();
          let parsed: unknown;
          try {
            parsed = JSON.parse(body);
          } catch {
            expect(text).toBe(body);
            return;
          }
          const envelope =
            typeof parsed === 'object' &&
            parsed !== null &&
            typeof (parsed as { error?: unknown }).error === 'object' &&
            (parsed as { error?: unknown }).error !== null;
          const message = errorBodyMessage(body);
          if (envelope || message === undefined) expect(text).toBe(body);
          else expect((JSON.parse(text) as { error: { message: string } }).error.message).toBe(message);
        },
      ),
      { numRuns: 200 },
    );
  });
});
