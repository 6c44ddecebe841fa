import * as traceloop from '@traceloop/node-server-sdk';
import type { LangfuseTarget } from './types.js';

type InstrumentModules = NonNullable<Parameters<typeof traceloop.initialize>[0]>['instrumentModules'];

/**
 * OpenLLMetry pointed at Langfuse as Langfuse's guides set it up: the OTLP base URL is Langfuse's
 * `/api/public/otel` with Basic auth from the project keys, and the SDK's own protobuf exporter. ES module
 * apps hand the instrumented modules over explicitly (`instrumentModules`). Once per process.
 */
export function startTraceloop(target: LangfuseTarget, appName: string, modules: Record<string, unknown>) {
  const auth = Buffer.from(`${target.publicKey}:${target.secretKey}`).toString('base64');
  // The SDK's NodeSDK adds host and process resource attributes (host name, pid, command line); only the
  // service's own attributes belong in the committed fixtures.
  process.env.OTEL_NODE_RESOURCE_DETECTORS ??= 'env';
  traceloop.initialize({
    appName,
    baseUrl: `${target.baseUrl}/api/public/otel`,
    headers: { Authorization: `Basic ${auth}` },
    disableBatch: true,
    silenceInitializationMessage: true,
    traceloopSyncEnabled: false,
    // The SDK's option types name the CommonJS typings of each module; the ES module namespaces are the same objects.
    instrumentModules: modules as InstrumentModules,
  });
  return {
    flush: () => traceloop.forceFlush(),
    shutdown: () => traceloop.forceFlush(),
  };
}
