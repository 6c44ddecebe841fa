import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../helpers/run-cli.js';
import { seed, startStack, type Personality, type Stack } from './harness.js';

const MIN = 60_000;
const stacks: Stack[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const pricing = { currency: 'EUR', promptPerMillion: 0.3, completionPerMillion: 1.2, embeddingsPerMillion: 0.02 };

describe.each<Personality>(['v3', 'v4'])('judge.pricing on the online job (%s)', (personality) => {
  it("puts each score's cost beside its tokens, equal to the tokens at the configured prices", async () => {
    const stack = await startStack(personality);
    stacks.push(stack);
    await seed(stack, personality, 30, new Date(Date.now() - 11 * MIN), 3, 20);
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-cost-'));
    dirs.push(dir);
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(
      file,
      stringify({
        langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
        judge: { baseUrl: stack.judge.url, model: stack.judge.model, pricing },
        embeddings: { model: stack.judge.embeddingModel },
        sampling: { rate: 1 },
        state: { path: join(dir, 'state.db') },
        log: { level: 'silent' },
      }),
    );
    const r = await runCli(['--config', file, 'sample', '--once', '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const scores = stack.lf.store.scores().filter((s) => s.name.startsWith('ragas-'));
    expect(scores.length).toBeGreaterThan(10);
    // Answer relevancy embeds its generated questions: those tokens are priced at the embeddings rate.
    expect(
      scores.some((s) => ((s.metadata as { usage: { embeddingTokens?: number } }).usage.embeddingTokens ?? 0) > 0),
    ).toBe(true);
    for (const s of scores) {
      const usage = (s.metadata as { usage: Record<string, number | string> }).usage;
      const embedding = (usage.embeddingTokens as number | undefined) ?? 0;
      const byHand =
        ((usage.promptTokens as number) * 0.3 + (usage.completionTokens as number) * 1.2 + embedding * 0.02) /
        1_000_000;
      expect(usage.promptTokens).toBeGreaterThan(0);
      expect(usage.currency).toBe('EUR');
      expect(usage.cost, JSON.stringify(usage)).toBeCloseTo(byHand, 12);
    }
  });
});
