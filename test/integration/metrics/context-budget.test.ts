import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { judgeClientsFromConfig } from '../../../src/judge/index.js';
import { estimateTokens } from '../../../src/metrics/budget.js';
import { scoreSample } from '../../../src/metrics/index.js';
import { configSchema } from '../../helpers/config.js';

let server: JudgeServer;
beforeAll(async () => {
  server = await startJudgeServer({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server.close();
});

describe('a sample with 10,000 retrieved chunks', () => {
  it('sends the judge whole leading chunks within maxContextTokens and scores faithfulness on them, not on emptied chunks', async () => {
    const config = configSchema.parse({
      judge: { baseUrl: server.url, maxAttempts: 1 },
      embeddings: { model: server.embeddingModel },
    });
    // The first chunk supports the answer; the other 9,999 are about something else.
    const contexts = ['Note 0: Redis keeps the whole dataset in memory and serves reads from RAM.'];
    for (let i = 1; i < 10_000; i++) contexts.push(`Note ${i}: the office cafeteria opens at noon on weekdays.`);
    const sample = {
      traceId: 'many',
      question: 'Where does Redis keep its dataset?',
      answer: 'Redis keeps the whole dataset in memory.',
      contexts,
      meta: {},
    };
    const [result] = await scoreSample(sample, ['faithfulness'], {
      options: config.metrics,
      ...judgeClientsFromConfig(config, { sleep: async () => {} }),
    });

    const chat = server.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chat).toHaveLength(1);
    const sent = JSON.stringify(chat[0]!.body);
    // the prompt stays near the budget (6,000 tokens of chunks plus the instructions), far from 70k
    expect(estimateTokens(sent)).toBeLessThan(config.metrics.maxContextTokens * 2);
    expect(sent).toContain('Note 0: Redis keeps the whole dataset in memory');
    expect(sent).not.toContain('Note 9999:');
    expect(result, JSON.stringify(result).slice(0, 600)).toMatchObject({ status: 'scored' });
    expect(result?.status === 'scored' && result.value).toBeGreaterThan(0.5);
    expect(result?.status === 'scored' && result.details.truncated).toMatchObject({ contexts: { chunks: 10_000 } });
  });
});
