import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider } from '@langfuse/tracing';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  startLangfuseServer,
  type Exchange,
  type LangfuseServer,
  type LangfuseServerOptions,
} from '@ragwatch/devkit/langfuse/index.js';
import { createLangfuseHttp, type LangfuseHttp, type RequestEvent } from '../../../src/langfuse/core/http.js';
import { watchExchanges } from '../../helpers/openapi.js';

/** The devkit Langfuse with every exchange checked against the OpenAPI spec, and ragwatch's client pointed at it. */
export interface Stand {
  server: LangfuseServer;
  http: LangfuseHttp;
  exchanges: Exchange[];
  violations: string[];
  requests: RequestEvent[];
  sleeps: number[];
  close(): Promise<void>;
}

export async function startStand(options: LangfuseServerOptions): Promise<Stand> {
  const server = await startLangfuseServer(options);
  const { exchanges, violations } = watchExchanges(server, { skipFaulted: true });
  const requests: RequestEvent[] = [];
  const sleeps: number[] = [];
  const http = createLangfuseHttp({
    baseUrl: server.url,
    publicKey: server.publicKey,
    secretKey: server.secretKey,
    timeoutMs: 10_000,
    maxAttempts: 4,
    sleep: async (ms) => void sleeps.push(ms),
    onRequest: (e) => requests.push(e),
  });
  return { server, http, exchanges, violations, requests, sleeps, close: () => server.close() };
}

/** A tracer provider exporting through the real `LangfuseSpanProcessor` to the stand-in. */
export function tracingTo(server: LangfuseServer, environment?: string): NodeTracerProvider {
  const processor = new LangfuseSpanProcessor({
    publicKey: server.publicKey,
    secretKey: server.secretKey,
    baseUrl: server.url,
    exportMode: 'immediate',
    ...(environment ? { environment } : {}),
  });
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  provider.register(); // the async context manager that carries propagated attributes
  setLangfuseTracerProvider(provider);
  return provider;
}
