import { expect } from 'vitest';
import { captureIntegration, INTEGRATIONS } from '@ragwatch/devkit/corpus/integrations/index.js';
import { extractRagSample } from '../../../src/extract/extract.js';
import { traceShape } from '../../helpers/trace-shape.js';
import {
  integrationExpectations,
  loadIntegrationTrace,
  READ_PATHS,
  traceFromBody,
} from '../../unit/extract/integration-fixtures.js';

/**
 * Runs an integration's scenarios live with the installed packages and checks, for each trace on both read
 * paths, that extraction gives what the app used and that the trace has the shape of the committed fixture
 * (a package upgrade that changes what it records fails here: regenerate with npm run fixtures:integrations).
 */
export async function checkLive(name: string): Promise<void> {
  const integration = await INTEGRATIONS[name]!();
  const captured = await captureIntegration(integration);
  const committed = integrationExpectations(name);
  expect(captured.map((c) => c.scenario).sort()).toEqual(Object.keys(committed.scenarios).sort());
  for (const c of captured) {
    expect(c.expectation, `${name}/${c.scenario}: the app's own values`).toEqual(
      committed.scenarios[c.scenario]!.expect,
    );
    for (const path of READ_PATHS) {
      const label = `${name}/${c.scenario} (${path})`;
      const trace = traceFromBody(path, c.traceId, c[path]);
      expect(traceShape(trace), `${label}: shape differs from the committed fixture`).toEqual(
        traceShape(loadIntegrationTrace(name, c.scenario, path)),
      );
      const result = extractRagSample(trace);
      const want = c.expectation;
      if (want.kind === 'skip') {
        expect(result, label).toMatchObject({ ok: false, reason: want.reason });
        continue;
      }
      if (!result.ok) throw new Error(`${label}: skipped with ${result.reason} (${result.detail ?? ''})`);
      expect(
        {
          question: result.sample.question,
          answer: result.sample.answer,
          contexts: result.sample.contexts,
          from: result.parts.contexts.from,
        },
        label,
      ).toEqual({
        question: want.question,
        answer: want.answer,
        contexts: want.contexts,
        from: want.contextsFrom,
      });
    }
  }
}
