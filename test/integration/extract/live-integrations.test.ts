import { describe, it } from 'vitest';
import { checkLive } from './live-check.js';

/**
 * The integrations that trace through Langfuse's own packages or plain OpenTelemetry, run live with the
 * installed packages (about 6 s together, most of it loading them). OpenLLMetry keeps process-wide
 * state: it runs in live-openllmetry.test.ts.
 */
describe('integrations, live', () => {
  for (const name of ['langfuse-openai', 'otel-genai', 'vercel-ai-sdk', 'langgraph-langfuse', 'openai-agents']) {
    it(name, () => checkLive(name), 60_000);
  }
});
