import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ExitCode } from '../../src/exit-codes.js';

/** docs/ci.md's pipeline examples are valid YAML of their CI system's shape and run the gate the docs describe. */
const DOC = readFileSync(new URL('../../docs/ci.md', import.meta.url), 'utf8');
const blocks = [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!) as Record<string, unknown>);

type GithubJob = { steps: Array<{ run?: string; uses?: string }> };
type GitlabJob = {
  script: string[];
  artifacts: { reports: { junit: string } };
  allow_failure: { exit_codes: number[] };
};

describe('the CI examples in docs/ci.md', () => {
  it('are two YAML documents: a GitHub Actions workflow and a GitLab CI pipeline', () => {
    expect(blocks).toHaveLength(2);
  });

  it('GitHub Actions: a job whose step runs the gate with --junit and --json and keeps the files', () => {
    const workflow = blocks[0] as { on: unknown; jobs: Record<string, GithubJob> };
    expect(workflow.on).toBeDefined();
    const steps = Object.values(workflow.jobs)[0]!.steps;
    const gate = steps.find((s) => s.run?.includes('experiment run'))!;
    expect(gate.run).toMatch(/--junit \S+\.xml/);
    expect(gate.run).toContain('--json');
    expect(gate.run).toContain('--compare-with last-passed');
    expect(steps.some((s) => s.uses?.startsWith('actions/upload-artifact'))).toBe(true);
  });

  it('GitLab CI: the gate with its JUnit report, and "not enough evidence" allowed by its exit code', () => {
    const job = (blocks[1] as Record<string, GitlabJob>)['rag-release-gate']!;
    expect(job.script.join('\n')).toMatch(/experiment run[\s\S]*--junit ragwatch-gate\.xml/);
    expect(job.artifacts.reports.junit).toBe('ragwatch-gate.xml');
    expect(job.allow_failure.exit_codes).toEqual([ExitCode.notEnoughEvidence]);
  });
});
