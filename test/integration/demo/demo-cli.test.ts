import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  reportSections,
  SCREENSHOT_RUN,
  SCREENSHOT_UPDATE,
  storedScreenshotSource,
} from '../../helpers/report-sections.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { runCli, spawnCli } from '../../helpers/run-cli.js';

describe('ragwatch demo', () => {
  it('runs with defaults, exits 0 and prints what happened and where to look', async () => {
    const result = await runCli(['demo'], { timeoutMs: 170_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/Langfuse +http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toMatch(/Judge +http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(out).toContain('traces sent       120 of 120, 120 readable back through the API');
    expect(out).toMatch(/by shape +langchain \d+ · openai \d+ · tracing \d+ · ingestion \d+/);
    expect(out).toContain('by language       es 72 (60 %) · en 48 (40 %)');
    expect(out).toContain('rag-golden: 66 items');
    expect(out).toContain('doctor: all');
    expect(out).toContain('[3/5] Online tick');
    expect(out).toMatch(/listed 120 · sampled \d+ · .* scores written [1-9]\d*/);
    expect(out).toMatch(
      /[0-9a-f]{32}  (langchain|openai|tracing|ingestion)\/[a-z-]+ +rag, \S+ +done  ragas-answer-relevancy \d\.\d{3} · ragas-faithfulness \d\.\d{3}/,
    );
    expect(out).toMatch(
      /look at one: curl -u pk-lf-devkit:sk-lf-devkit 'http:\/\/127\.0\.0\.1:\d+\/api\/public\/traces\/[0-9a-f]{32}'/,
    );
    expect(out).toMatch(/second tick right after: success, .* scores written 0: the ledger remembers/);
    expect(out).toContain('[4/5] Golden-set experiment');
    expect(out).toContain(
      'answer relevancy judged against 0.55 instead of metrics.thresholds.answer_relevancy (0.8): the stand-in judge',
    );
    expect(out).toContain('[5/5] Golden set from the corpus');
    expect(out).toMatch(/corpus export: 67 chunks in .*; 2 left out for personal data/);
    expect(out).toMatch(/review: a scripted reviewer annotated \d+ queue items in Langfuse/);
    expect(out).toMatch(/published rag-golden-v1: \d+ items, single-hop \d+ dev \/ \d+ test/);
    expect(out).toMatch(/experiment on rag-golden-v1: run demo-rag-golden-v1, \d+ items/);
    expect(out).toContain('demo: all 5 steps completed');
    // The servers are gone: no command to try against them, but where the reports stay and how to keep them.
    expect(out).not.toContain('Where to look');
    const kept = /Servers stopped; the reports stay in (\S*ragwatch-demo-reports-\w+)\./.exec(out)![1]!;
    expect(existsSync(join(kept, 'demo-degraded', 'report.html'))).toBe(true);
    // The README's screenshot shows this report: its sections are the ones it shows (else regenerate it).
    const sections = reportSections(readFileSync(join(kept, SCREENSHOT_RUN, 'report.html'), 'utf8'));
    expect(sections, `the report's sections changed: regenerate the screenshot with ${SCREENSHOT_UPDATE}`).toEqual(
      storedScreenshotSource().sections,
    );
    rmSync(kept, { recursive: true, force: true });
    expect(out).toContain('npm run demo -- --keep');
  }, 180_000);

  it('rejects bad options with exit code 2 and one line per problem', async () => {
    const result = await runCli(['demo', '--personality', 'v5', '--traces', 'lots'], { timeoutMs: 110_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('demo: --personality: must be v3 or v4 (got v5)');
    expect(result.stderr).toContain('demo: --traces: must be an integer between 1 and 5000 (got lots)');
    expect(result.stdout).toBe('');
  }, 120_000);

  it('prints a JSON report against a v4 stand-in, where legacy ingestion traces are not sent', async () => {
    const { code, stdout, stderr } = await runCliInProcess([
      'demo',
      '--personality',
      'v4',
      '--traces',
      '25',
      '--seed',
      'json',
      '--json',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      personality: string;
      ok: boolean;
      reports: { dir: string; url: string };
      steps: Array<{
        name: string;
        ok: boolean;
        data: {
          emitted: { total: number; byShape: Record<string, number> };
          skipped: unknown[];
          dataset: { items: number };
        };
      }>;
    };
    rmSync(report.reports.dir, { recursive: true, force: true });
    expect(report.personality).toBe('v4');
    expect(report.ok).toBe(true);
    const seed = report.steps.find((s) => s.name === 'seed')!;
    expect(seed.data.emitted.byShape.ingestion).toBe(0);
    expect(seed.data.skipped.length).toBeGreaterThan(0);
    expect(seed.data.emitted.total + seed.data.skipped.length).toBe(25);
    expect(seed.data.dataset.items).toBe(66);
    expect(report.steps.map((s) => s.name)).toEqual(['seed', 'doctor', 'online', 'experiment', 'golden']);
    const golden = report.steps.find((s) => s.name === 'golden')! as unknown as {
      ok: boolean;
      data: { published: { datasetName: string; items: number } };
    };
    expect(golden.ok).toBe(true);
    expect(golden.data.published).toMatchObject({ datasetName: 'rag-golden-v1', items: expect.any(Number) });
    expect(report.steps.find((s) => s.name === 'online')!.ok).toBe(true);
  }, 120_000);

  it('keeps the servers up with --keep until Ctrl-C, then stops them and exits 0', async () => {
    const child = spawnCli(['demo', '--keep', '--traces', '12']);
    let out = '';
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('press Ctrl-C')) resolve();
      });
      child.on('exit', () => reject(new Error(`demo exited early:\n${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await ready;
    const url = /Langfuse +(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
    const auth = `Basic ${Buffer.from('pk-lf-devkit:sk-lf-devkit').toString('base64')}`;
    const live = await fetch(`${url}/api/public/v2/observations?limit=1`, { headers: { authorization: auth } });
    expect(live.status).toBe(200);
    expect(out).toContain('Where to look (the servers stay up until Ctrl-C):');
    expect(out).toContain("/api/public/traces?limit=5'");

    // The report links in the runs' metadata open while the servers are up.
    const runs = (await (
      await fetch(`${url}/api/public/datasets/rag-golden/runs`, { headers: { authorization: auth } })
    ).json()) as { data: Array<{ name: string; metadata: { reportUrl: string } }> };
    expect(runs.data.map((r) => r.name).sort()).toEqual(['demo-baseline', 'demo-degraded']);
    for (const run of runs.data) {
      const page = await fetch(run.metadata.reportUrl);
      expect(page.status, run.metadata.reportUrl).toBe(200);
      expect(await page.text()).toContain(`Golden-set report: ${run.name}`);
    }

    // The toy RAG service is kept, with a configuration `experiment run` takes as it is.
    const askUrl = /The toy RAG service answers at (\S+);/.exec(out)![1]!;
    const answer = await fetch(askUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'How do I reset the hub?' }),
    });
    expect(answer.status).toBe(200);
    const configFile = /experiment run --config (\S+)/.exec(out)![1]!;
    const mine = await runCliInProcess(
      ['--config', configFile, 'experiment', 'run', '--split', 'dev', '--run-name', 'mine', '--no-progress'],
      { env: {} },
    );
    // The dev split's 26 scored items are below the default evidence floor: not enough evidence, exit 4.
    expect(mine.code, mine.stderr).toBe(4);
    expect(mine.stdout).toContain('gate: NOT ENOUGH EVIDENCE');
    expect(mine.stdout).toContain('run mine on dataset rag-golden (split dev)');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    rmSync(/files in (\S+), kept after the demo/.exec(out)![1]!, { recursive: true, force: true });
    await expect(
      fetch(`${url}/api/public/v2/observations?limit=1`, { headers: { authorization: auth } }),
    ).rejects.toThrow();
  }, 180_000);
});
