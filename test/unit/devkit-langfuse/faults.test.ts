import { describe, expect, it } from 'vitest';
import { Faults, seededRandom } from '@ragwatch/devkit/langfuse/index.js';

describe('Faults', () => {
  it('matches by method, template, concrete path and glob; the latest pattern wins', () => {
    const faults = new Faults();
    faults.set('/api/public/traces/{traceId}', { latencyMs: 1 });
    faults.set('GET /api/public/v2/*', { latencyMs: 2 });
    faults.set('/api/public/traces/t-9', { latencyMs: 3 });
    expect(faults.knobsFor('GET', '/api/public/traces/{traceId}', '/api/public/traces/abc')?.latencyMs).toBe(1);
    expect(faults.knobsFor('GET', '/api/public/traces/{traceId}', '/api/public/traces/t-9')?.latencyMs).toBe(3);
    expect(faults.knobsFor('GET', '/api/public/v2/observations', '/api/public/v2/observations')?.latencyMs).toBe(2);
    expect(faults.knobsFor('POST', '/api/public/v2/datasets', '/api/public/v2/datasets')).toBeUndefined();
    faults.clear('/api/public/traces/t-9');
    expect(faults.knobsFor('GET', '/api/public/traces/{traceId}', '/api/public/traces/t-9')?.latencyMs).toBe(1);
    faults.clear();
    expect(faults.knobsFor('GET', null, '/api/public/traces/x')).toBeUndefined();
  });

  it('consumes failNext and resetNext, resets before errors', () => {
    const faults = new Faults();
    faults.set('*', { failNext: 1, resetNext: 1, errorStatus: 500 });
    expect(faults.decide('GET', null, '/x').kind).toBe('reset');
    expect(faults.decide('GET', null, '/x')).toMatchObject({ kind: 'error', status: 500 });
    expect(faults.decide('GET', null, '/x').kind).toBe('none');
  });

  it('draws error rates from the injected randomness (reproducible with a seed)', () => {
    const run = () => {
      const faults = new Faults(seededRandom(42));
      faults.set('*', { errorRate: 0.3, errorStatus: 429 });
      return Array.from({ length: 1000 }, () => faults.decide('GET', null, '/x').kind);
    };
    const first = run();
    expect(run()).toEqual(first);
    const errors = first.filter((k) => k === 'error').length;
    expect(errors).toBeGreaterThan(240);
    expect(errors).toBeLessThan(360);
  });
});
