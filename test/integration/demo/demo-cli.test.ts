import { describe, expect, it } from 'vitest';
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
    expect(out).toContain('[3/4] Online tick');
    expect(out).toMatch(/listed 120 · sampled \d+ · .* scores written [1-9]\d*/);
    expect(out).toMatch(/[0-9a-f]{32}  (langchain|openai|tracing|ingestion)\/[a-z-]+ +rag, \S+ +done  ragas-answer-relevancy \d\.\d{3} · ragas-faithfulness \d\.\d{3}/);
    expect(out).toMatch(/look at one: curl -u pk-lf-devkit:sk-lf-devkit 'http:\/\/127\.0\.0\.1:\d+\/api\/public\/traces\/[0-9a-f]{32}'/);
    expect(out).toMatch(/second tick right after: success, .* scores written 0: the ledger remembers/);
    expect(out).toContain('[4/4] Golden-set experiment');
    expect(out).toContain("/api/public/traces?limit=5'");
    expect(out).toContain('demo: all 4 steps completed');
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
    const { code, stdout, stderr } = await runCliInProcess(['demo', '--personality', 'v4', '--traces', '25', '--seed', 'json', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      personality: string;
      ok: boolean;
      steps: Array<{ name: string; ok: boolean; data: { emitted: { total: number; byShape: Record<string, number> }; skipped: unknown[]; dataset: { items: number } } }>;
    };
    expect(report.personality).toBe('v4');
    expect(report.ok).toBe(true);
    const seed = report.steps.find((s) => s.name === 'seed')!;
    expect(seed.data.emitted.byShape.ingestion).toBe(0);
    expect(seed.data.skipped.length).toBeGreaterThan(0);
    expect(seed.data.emitted.total + seed.data.skipped.length).toBe(25);
    expect(seed.data.dataset.items).toBe(66);
    expect(report.steps.map((s) => s.name)).toEqual(['seed', 'doctor', 'online', 'experiment']);
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
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/api/public/v2/observations?limit=1`, { headers: { authorization: auth } })).rejects.toThrow();
  }, 180_000);
});
