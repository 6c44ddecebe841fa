/** HTTP plumbing of the stand-in: JSON bodies, vLLM-shaped errors, and the stand-in disclaimer header. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const STANDIN_HEADER = 'x-ragwatch-standin';
export const STANDIN_NOTICE = 'judge stand-in: answers come from lexical rules; not a quality judge';

/** An error answered with vLLM's error envelope `{error: {message, type, param, code}}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = status === 404 ? 'NotFoundError' : status >= 500 ? 'InternalServerError' : 'BadRequestError',
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', [STANDIN_HEADER]: STANDIN_NOTICE, ...headers });
  res.end(text);
}

export function sendRaw(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', [STANDIN_HEADER]: STANDIN_NOTICE });
  res.end(text);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { error: { message: err.message, type: err.type, param: err.param, code: err.status } });
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Request headers without credentials, for the request log. */
export function safeHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (k === 'authorization' || k === 'proxy-authorization' || k === 'cookie' || k === 'api-key' || k === 'x-api-key')
      continue;
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
