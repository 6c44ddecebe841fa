import { describe, it } from 'vitest';
import { checkLive } from './live-check.js';

/**
 * OpenLLMetry (OTLP/protobuf through its own exporter) with the OpenAI SDK, run live: its NodeSDK is
 * process-wide, so it has a file (a process) of its own. The LlamaIndex and LangChain variants take
 * 3-5 s each to load and are checked through their committed fixtures only.
 */
describe('OpenLLMetry, live', () => {
  it('openllmetry-openai', () => checkLive('openllmetry-openai'), 60_000);
});
