import { describe, expect, it } from 'vitest';
import { scoreIdFor } from '../../../src/langfuse/index.js';
import { anonymizerFromConfig } from '../../../src/anonymize/sample-anonymizer.js';
import { runOnlineTick } from '../../../src/online/job.js';
import { FakeLangfuse, fakeScorer, jobDeps, ManualClock, testSettings } from './fakes.js';
import { parseConfig } from '../../helpers/config.js';

const NOW = Date.parse('2025-03-03T12:00:00Z');
const MIN = 60_000;
const settings = testSettings({
  sampling: { rate: 1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} },
  concurrency: 2,
});

const CLEAN = 'Three of four statements are supported by the second context; the refund period is not mentioned.';
const WITH_EMAIL = 'The answer repeats the contact laura.gomez84@gmail.com, which the context never gives.';

describe('score comments', () => {
  it('the anonymizer says which texts need no second pass, and only when its residual check is no stricter', () => {
    const anonymizer = anonymizerFromConfig(parseConfig({}));
    expect(anonymizer.isClean?.(CLEAN)).toBe(true);
    expect(anonymizer.isClean?.(WITH_EMAIL)).toBe(false);
    expect(anonymizer.isClean?.('')).toBe(true);
    const stricterResidual = anonymizerFromConfig(
      parseConfig({ anonymize: { threshold: 0.6, residualThreshold: 0.4 } }),
    );
    expect(stricterResidual.isClean).toBeUndefined();
    expect(anonymizerFromConfig(parseConfig({ anonymize: { enabled: false } })).isClean?.(WITH_EMAIL)).toBe(true);
  });

  it('publishes a clean reason as it is and never a reason carrying personal data', async () => {
    const lf = new FakeLangfuse([
      { id: 'trace-clean', name: 'rag', timestamp: NOW - 30 * MIN, rag: true },
      { id: 'trace-leaky', name: 'rag', timestamp: NOW - 29 * MIN, rag: true },
    ]);
    const score = fakeScorer((traceId, metric) => ({
      metric,
      status: 'scored',
      value: 0.5,
      reason: traceId === 'trace-clean' ? CLEAN : WITH_EMAIL,
      details: {},
      promptVersion: 'p1',
      usage: { calls: 1, promptTokens: 1, completionTokens: 1, latencyMs: 1 },
    }));
    const deps = jobDeps(lf, new ManualClock(NOW), { score, anonymizer: anonymizerFromConfig(parseConfig({})) });
    const report = await runOnlineTick(deps, settings);
    expect(report.evaluated).toBe(2);
    expect(lf.scores.get(scoreIdFor('trace-clean', 'ragas-faithfulness'))!.comment).toBe(CLEAN);
    const leaky = lf.scores.get(scoreIdFor('trace-leaky', 'ragas-faithfulness'))!;
    expect(leaky.comment ?? '').not.toContain('laura.gomez84@gmail.com');
    expect(leaky.comment ?? '').not.toContain('gomez84');
  });
});
