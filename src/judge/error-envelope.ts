/**
 * OpenAI-compatible servers answer errors in two shapes: OpenAI's `{"error": {"message", "type", "code"}}`
 * (recent vLLM) and a flat `{"object": "error", "message", "type", "code"}` (older vLLM, LiteLLM, TGI) or
 * FastAPI's `{"detail": …}`. The openai SDK reads only the first and reports the others as "status code (no
 * body)". This fetch rewrites the flat shapes into the envelope, so every error carries the server's words.
 */

const MAX_MESSAGE = 500;

/** The server's own message in an error body, whatever its shape; undefined when there is none. */
export function errorBodyMessage(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const text = body.trim();
    return text && !text.startsWith('<') ? text.slice(0, MAX_MESSAGE) : undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  const nested = record.error;
  const fields = [
    typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>).message : undefined,
    typeof nested === 'string' ? nested : undefined,
    record.message,
    record.detail,
  ];
  for (const field of fields) {
    if (typeof field === 'string' && field.trim() !== '') return field.trim().slice(0, MAX_MESSAGE);
    if (field !== undefined && field !== null && typeof field === 'object')
      return JSON.stringify(field).slice(0, MAX_MESSAGE);
  }
  return undefined;
}

/** Wraps `fetch` so a non-2xx JSON answer without OpenAI's `error` object gets one, carrying the server's message. */
export function withErrorEnvelope(inner: typeof fetch = globalThis.fetch): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const res = await inner(input, init);
    if (res.ok) return res;
    const text = await res.text();
    let body = text;
    try {
      const parsed = JSON.parse(text) as Record<string, unknown> | null;
      const hasEnvelope =
        typeof parsed === 'object' && parsed !== null && typeof parsed.error === 'object' && parsed.error !== null;
      const message = hasEnvelope ? undefined : errorBodyMessage(text);
      if (message !== undefined) {
        const p = (parsed ?? {}) as Record<string, unknown>;
        body = JSON.stringify({
          error: { message, type: p.type ?? null, code: p.code ?? res.status, param: p.param ?? null },
        });
      }
    } catch {
      // Not JSON: the SDK quotes a text body as it is.
    }
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  }) as typeof fetch;
}
