import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDemo, type DemoStep } from '@ragwatch/devkit/demo/run-demo.js';

describe('runDemo', () => {
  it('runs steps in order against both stand-ins, records failures without stopping, and cleans up', async () => {
    const seen: string[] = [];
    const probe: DemoStep = {
      name: 'probe',
      title: 'probe the stand-ins',
      async run(env) {
        const models = await fetch(`${env.judge.url}/models`);
        const projects = await fetch(`${env.langfuse.url}/api/public/projects`, {
          headers: {
            authorization: `Basic ${Buffer.from(`${env.langfuse.publicKey}:${env.langfuse.secretKey}`).toString('base64')}`,
          },
        });
        seen.push('probe');
        return { ok: models.ok && projects.ok, lines: [`judge ${models.status}`, `langfuse ${projects.status}`] };
      },
    };
    const broken: DemoStep = {
      name: 'broken',
      title: 'a step that throws',
      async run() {
        seen.push('broken');
        throw new Error('boom');
      },
    };
    const after: DemoStep = {
      name: 'after',
      title: 'runs after a failure and sees earlier results',
      async run(env) {
        seen.push('after');
        return { ok: true, lines: [String(env.results.get('broken')?.ok)] };
      },
    };
    const events: string[] = [];
    const run = await runDemo({
      personality: 'v4',
      seed: 's',
      traces: 1,
      steps: [probe, broken, after],
      onReady: (env) =>
        events.push(
          `ready ${env.config.langfuse.baseUrl === env.langfuse.url} ${env.config.judge.baseUrl === env.judge.url}`,
        ),
      onStepStart: (s, i, total) => events.push(`start ${s.name} ${i + 1}/${total}`),
    });
    try {
      expect(seen).toEqual(['probe', 'broken', 'after']);
      expect(events).toEqual(['ready true true', 'start probe 1/3', 'start broken 2/3', 'start after 3/3']);
      expect(run.steps.map((s) => [s.name, s.result.ok])).toEqual([
        ['probe', true],
        ['broken', false],
        ['after', true],
      ]);
      expect(run.steps[1]!.result.lines).toEqual(['failed: boom']);
      expect(run.steps[2]!.result.lines).toEqual(['false']);
      expect(run.ok).toBe(false);
      expect(run.env.config.langfuse.apiGeneration).toBe('v4');
      expect(run.env.config.state.path.startsWith(run.env.workDir)).toBe(true);
      expect(existsSync(run.env.workDir)).toBe(true);
    } finally {
      await run.close();
    }
    expect(existsSync(run.env.workDir)).toBe(false);
    rmSync(run.env.reports.dir, { recursive: true, force: true });
    await expect(fetch(`${run.env.judge.url}/models`)).rejects.toThrow();
  });

  it('gives each run a fresh reports directory, served while the servers run and kept after', async () => {
    const write: DemoStep = {
      name: 'write',
      title: 'write a report',
      async run(env) {
        mkdirSync(join(env.config.experiment.reportsDir, 'r1'));
        writeFileSync(join(env.config.experiment.reportsDir, 'r1', 'report.html'), '<!doctype html><title>r1</title>');
        const served = await fetch(`${env.config.experiment.publicUrl}/reports/r1/report.html`);
        return { ok: served.status === 200 && (await served.text()).includes('r1'), lines: [] };
      },
    };
    const runs = [
      await runDemo({ personality: 'v3', seed: 's', traces: 1, steps: [write] }),
      await runDemo({ personality: 'v3', seed: 's', traces: 1, steps: [write] }),
    ];
    for (const run of runs) await run.close();
    const [a, b] = runs.map((r) => r.env);
    expect(runs.every((r) => r.ok)).toBe(true);
    expect(a!.reports.dir).not.toBe(b!.reports.dir);
    expect(a!.config.experiment.reportsDir).toBe(a!.reports.dir);
    for (const env of [a!, b!]) {
      expect(existsSync(join(env.reports.dir, 'r1', 'report.html'))).toBe(true);
      rmSync(env.reports.dir, { recursive: true, force: true });
    }
    await expect(fetch(`${a!.reports.url}/reports/`)).rejects.toThrow();
  });
});
