import { describe, expect, it } from 'vitest';
import { generatorFrom, personalDataCheck, reviewTraceBody } from '../../../src/golden/edges.js';
import { createJudgeClient } from '../../../src/judge/index.js';
import { configSchema, loadConfig } from '../../helpers/config.js';

describe('golden edges from the configuration', () => {
  const judge = createJudgeClient({ baseUrl: 'http://127.0.0.1:1/v1', model: 'judge' });

  it('generates with the judge unless golden.generator names another model or endpoint', () => {
    expect(generatorFrom(configSchema.parse({}), judge)).toBe(judge);
    expect(generatorFrom(configSchema.parse({ golden: { generator: {} } }), judge)).toBe(judge);
    const other = generatorFrom(
      configSchema.parse({ golden: { generator: { model: 'llama-70b', baseUrl: 'http://127.0.0.1:2/v1' } } }),
      judge,
    );
    expect(other).not.toBe(judge);
    expect(other.model).toBe('llama-70b');
  });

  it('takes the generator key from RAGWATCH_GENERATOR_API_KEY, masked like every secret', () => {
    const loaded = loadConfig({ env: { RAGWATCH_GENERATOR_API_KEY: 'sk-generator-0123' }, cwd: '/nonexistent' });
    expect(loaded.ok && loaded.config.golden.generator).toEqual({ apiKey: 'sk-generator-0123' });
  });

  it('finds personal data with the configured anonymizer even when anonymizing is off', () => {
    const check = personalDataCheck(configSchema.parse({ anonymize: { enabled: false } }));
    expect(check.found('Escribe a laura.gomez.ruiz@gmail.com o llama al 612 345 678.')).toBe(true);
    expect(check.found('Las devoluciones se aceptan durante 30 días naturales.')).toBe(false);
    expect(check.redact('Escribe a laura.gomez.ruiz@gmail.com.')).toBe('Escribe a <EMAIL_1>.');
  });

  it('writes review traces in ragwatch’s own environment with the chunks as a retriever step', () => {
    const body = reviewTraceBody(
      {
        id: 'a'.repeat(32),
        question: 'q?',
        reference: 'r',
        stratum: 'multi-hop',
        language: 'en',
        chunks: [{ id: 'c1', text: 't' }],
        candidateId: 'cand',
        candidatesDataset: 'ds',
        timestampMs: 0,
      },
      'ragwatch',
    );
    expect(body).toMatchObject({
      name: 'ragwatch-golden-review',
      environment: 'ragwatch',
      input: { question: 'q?', stratum: 'multi-hop' },
      output: { reference: 'r' },
    });
    expect(body.observations).toEqual([
      { name: 'source-chunks', type: 'retriever', input: { question: 'q?' }, output: [{ id: 'c1', text: 't' }] },
    ]);
  });
});
