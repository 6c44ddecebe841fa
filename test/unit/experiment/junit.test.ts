import { describe, expect, it } from 'vitest';
import { junitIncomplete, junitReport } from '../../../src/experiment/junit.js';
import { buildReport } from '../../../src/experiment/report/index.js';
import type { CompleteReport } from '../../../src/experiment/verdict.js';
import { reportInput, sampleOutcomes } from '../../fixtures/experiment/report-input.js';

const complete = (input: Parameters<typeof reportInput>[0]) => buildReport(reportInput(input)) as CompleteReport;
const count = (xml: string, tag: string) => (xml.match(new RegExp(`<${tag}[ >]`, 'g')) ?? []).length;
const attr = (xml: string, name: string) => Number(new RegExp(`<testsuites [^>]*${name}="(\\d+)"`).exec(xml)![1]);

describe('the JUnit report of a run', () => {
  it('has a case per gated figure and per gated metric and stratum, the figures in the messages', () => {
    const report = complete({ outcomes: sampleOutcomes(0.3) });
    expect(report.gate.outcome).toBe('passed');
    const xml = junitReport(report);
    const strata = new Set(report.cells.filter((c) => c.split === 'test' && c.stratum !== 'all').map((c) => c.stratum));
    const metrics = report.gate.checks.filter((c) => c.check !== 'abstention').length;
    expect(count(xml, 'testcase')).toBe(report.gate.checks.length + metrics * strata.size);
    expect(attr(xml, 'tests')).toBe(count(xml, 'testcase'));
    expect(xml).toContain('name="faithfulness"');
    expect(xml).toMatch(/faithfulness: \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\], n = \d+, threshold ≥ 0\.85: passed/);
    expect(count(xml, 'failure')).toBe(0);
  });

  it('has failures exactly when the gate failed, and skips what had not enough evidence', () => {
    const failed = junitReport(complete({ outcomes: sampleOutcomes(-0.4) }));
    expect(count(failed, 'failure')).toBeGreaterThan(0);
    expect(attr(failed, 'failures')).toBe(count(failed, 'failure'));
    const undecided = junitReport(
      complete({
        outcomes: sampleOutcomes(0.3),
        gate: { rule: 'point', minItems: 30, minAbstention: 0.5, minAbstentionItems: 1 },
      }),
    );
    expect(count(undecided, 'failure')).toBe(0);
    expect(count(undecided, 'skipped')).toBeGreaterThan(0);
    expect(undecided).toContain('not enough evidence (fewer than 30 items)');
  });

  it('escapes what it quotes and says an incomplete run has no verdict', () => {
    const xml = junitIncomplete('weekly <&> "x"', 'judge unreachable after retries', '2026-11-23T03:10:00.000Z');
    expect(xml).toContain('weekly &lt;&amp;&gt; &quot;x&quot;');
    expect(count(xml, 'error')).toBe(1);
    expect(xml).toContain('timestamp="2026-11-23T03:10:00"');
  });
});
