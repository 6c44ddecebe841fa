import { LangfuseClient } from '@langfuse/client';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider } from '@langfuse/tracing';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  startLangfuseServer,
  type Exchange,
  type LangfuseServer,
  type LangfuseServerOptions,
} from '@ragwatch/devkit/langfuse/index.js';
import { watchExchanges } from '../../helpers/openapi.js';

/** A stand-in whose every exchange is validated against the OpenAPI spec; `violations` collects what failed. */
export interface Harness {
  server: LangfuseServer;
  client: LangfuseClient;
  exchanges: Exchange[];
  violations: string[];
  close(): Promise<void>;
}

export async function startHarness(options: LangfuseServerOptions): Promise<Harness> {
  const server = await startLangfuseServer(options);
  const { exchanges, violations } = watchExchanges(server);
  const client = new LangfuseClient({ publicKey: server.publicKey, secretKey: server.secretKey, baseUrl: server.url });
  return {
    server,
    client,
    exchanges,
    violations,
    close: () => server.close(),
  };
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
  provider.register();
  setLangfuseTracerProvider(provider);
  return provider;
}

export const noRetry = { maxRetries: 0 } as const;
