import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpTee {
  /** Base URL to configure as the Langfuse host. */
  url: string;
  close(): Promise<void>;
}

/**
 * Forwards every request, byte for byte with its headers, to each target in turn and answers with the
 * first target's response: one SDK run lands in a v3 and a v4 Langfuse stand-in at once, under the same ids.
 */
export async function startOtlpTee(targets: string[]): Promise<OtlpTee> {
  if (targets.length === 0) throw new Error('startOtlpTee needs at least one target');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forwardAll = async () => {
        const answers = [];
        for (const target of targets)
          answers.push(await forward(target, req.method ?? 'GET', req.url ?? '/', req.headers, body));
        return answers[0]!;
      };
      forwardAll().then(
        (answer) => {
          res.writeHead(answer.status, answer.headers);
          res.end(answer.body);
        },
        (error: unknown) => {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: `tee: ${(error as Error).message}` }));
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function forward(base: string, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) {
  const url = new URL(path, base);
  const { host: _host, connection: _connection, 'transfer-encoding': _chunked, ...rest } = headers;
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...rest, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const { connection: _c, 'transfer-encoding': _t, ...answerHeaders } = res.headers;
        resolve({ status: res.statusCode ?? 502, headers: answerHeaders, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
