import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { junitIncomplete, junitReport } from '../../../src/experiment/junit.js';
import { buildReport } from '../../../src/experiment/report/index.js';
import type { CompleteReport } from '../../../src/experiment/verdict.js';
import { runTool } from '../deploy/tools.js';
import { reportInput, sampleOutcomes } from '../../fixtures/experiment/report-input.js';

/** `experiment run --junit` output against the JUnit schema stored in the repository, with Debian's xmllint. */
const XSD = new URL('../../fixtures/junit/junit.xsd', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'ragwatch-junit-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function validate(name: string, xml: string) {
  const file = join(work, `${name}.xml`);
  writeFileSync(file, xml);
  return runTool('xmllint', ['--noout', '--schema', XSD, file], { debianPackage: 'libxml2-utils' });
}

describe('the JUnit report validates against the stored schema (xmllint)', () => {
  const cases: Array<[string, Parameters<typeof reportInput>[0]]> = [
    ['passed', { outcomes: sampleOutcomes(0.3) }],
    ['failed', { outcomes: sampleOutcomes(-0.4) }],
    [
      'not-enough-evidence',
      {
        outcomes: sampleOutcomes(0.3),
        gate: { rule: 'interval', minItems: 30, minAbstention: 0.8, minAbstentionItems: 10 },
      },
    ],
  ];
  it.each(cases)('%s', (name, input) => {
    const report = buildReport(reportInput(input)) as CompleteReport;
    const res = validate(name, junitReport(report));
    expect(res.stderr).toContain('validates');
    expect(res.status).toBe(0);
  });

  it('an incomplete run', () => {
    const res = validate('incomplete', junitIncomplete('weekly-2026-W48', 'judge unreachable', '2026-11-23T03:10:00Z'));
    expect(res.status, res.stderr).toBe(0);
  });

  it('and the schema is not a no-op: a report missing a required attribute fails', () => {
    const res = validate(
      'broken',
      '<testsuites><testsuite name="x" tests="1"><testcase name="a"/></testsuite></testsuites>',
    );
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/fails to validate/);
  });
});
