import { startLangfuseServer, type LangfuseServer } from '../../langfuse/index.js';
import { V4_EXPANDED_METADATA, V4_MAX_PAGE_SIZE, V4_TRACE_FIELDS } from 'ragwatch/langfuse/resources/observations.js';
import { startScriptedLlmServer } from '../emit/scripted-llm.js';
import { startOtlpTee } from './otlp-tee.js';
import type { Expectation, Integration, ScenarioEnv } from './types.js';

/** One scenario's trace as each read path of Langfuse returns it, with what it should yield. */
export interface CapturedTrace {
  integration: string;
  scenario: string;
  traceId: string;
  expectation: Expectation;
  /** `GET /api/public/traces/{id}` of a v3 server. */
  v3: Record<string, unknown>;
  /** `GET /api/public/v2/observations?traceId=…` of a v4 server, queried as ragwatch's v4 read path does. */
  v4: Record<string, unknown>;
}

const KEYS = { publicKey: 'pk-lf-integrations', secretKey: 'sk-lf-integrations' };

/**
 * Runs an integration's scenarios against a v3 and a v4 Langfuse stand-in at once (through a tee, so both
 * receive the very requests the SDK sent) and reads each scenario's trace back the way ragwatch does.
 * Each scenario must produce exactly one new trace. Tracing SDKs keep process-wide state: capture one
 * integration per process.
 */
export async function captureIntegration<E extends ScenarioEnv>(
  integration: Integration<E>,
  options: { only?: string[] } = {},
): Promise<CapturedTrace[]> {
  const v3 = await startLangfuseServer({ personality: 'v3', ...KEYS });
  const v4 = await startLangfuseServer({ personality: 'v4', ...KEYS });
  const tee = await startOtlpTee([v3.url, v4.url]);
  const llm = await startScriptedLlmServer();
  const captured: CapturedTrace[] = [];
  try {
    const session = await integration.start({ baseUrl: tee.url, ...KEYS }, llm);
    try {
      await session.flush();
      for (const scenario of integration.scenarios) {
        if (options.only && !options.only.includes(scenario.name)) continue;
        const before = new Set(v3.store.traces().map((t) => t.id));
        const expectation = await scenario.run(session.env);
        await session.flush();
        if (llm.pending() > 0)
          throw new Error(
            `${integration.name}/${scenario.name}: ${llm.pending()} scripted completion(s) never asked for`,
          );
        const fresh = v3.store.traces().filter((t) => !before.has(t.id));
        if (fresh.length !== 1) {
          throw new Error(
            `${integration.name}/${scenario.name}: expected one new trace, found ${fresh.length} (${fresh.map((t) => t.name).join(', ')})`,
          );
        }
        const traceId = fresh[0]!.id;
        captured.push({
          integration: integration.name,
          scenario: scenario.name,
          traceId,
          expectation,
          v3: await readJson(v3, `/api/public/traces/${encodeURIComponent(traceId)}`),
          v4: await readJson(v4, `/api/public/v2/observations?${v4TraceQuery(traceId)}`),
        });
      }
    } finally {
      await session.shutdown();
    }
  } finally {
    await llm.close();
    await tee.close();
    await v3.close();
    await v4.close();
  }
  return captured;
}

/** The query ragwatch's v4 read path sends for one trace's observations (`getTraceV4`). */
function v4TraceQuery(traceId: string): string {
  return new URLSearchParams({
    traceId,
    limit: String(V4_MAX_PAGE_SIZE),
    fields: V4_TRACE_FIELDS,
    expandMetadata: V4_EXPANDED_METADATA,
  }).toString();
}

async function readJson(server: LangfuseServer, path: string): Promise<Record<string, unknown>> {
  const auth = Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64');
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Basic ${auth}` } });
  if (!res.ok) throw new Error(`GET ${path} on the ${server.personality} stand-in: HTTP ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}
