import { describe, expect, it } from 'vitest';
import { FaultController } from '@ragwatch/devkit/judge/faults.js';
import { Script } from '@ragwatch/devkit/judge/script.js';
import type { JudgeRequest } from '@ragwatch/devkit/judge/types.js';

describe('FaultController', () => {
  it('serves next-N faults FIFO per route, persistent ones first, latency on top', () => {
    const f = new FaultController(1);
    f.next('http_500', 2).next('truncated', 1).always('latency', { ms: 5, route: 'all' });
    expect(f.take('chat')).toEqual({ fault: { kind: 'http_500' }, latencyMs: 5 });
    expect(f.take('embeddings')).toEqual({ latencyMs: 5 });
    expect(f.take('chat').fault?.kind).toBe('http_500');
    expect(f.take('chat').fault?.kind).toBe('truncated');
    expect(f.take('chat').fault).toBeUndefined();
    expect(f.counts()).toEqual({ http_500: 2, truncated: 1, latency: 5 });
  });

  it('lets a persistent fault win and leaves queued ones for later', () => {
    const f = new FaultController(1);
    f.next('http_503', 1).always('hang');
    expect(f.take('chat').fault?.kind).toBe('hang');
    f.clear('hang');
    expect(f.take('chat').fault?.kind).toBe('http_503');
  });

  it('applies all-route knobs only where they make sense', () => {
    const f = new FaultController(1);
    f.always('malformed_json', { route: 'all' });
    expect(f.take('embeddings').fault?.kind).toBe('malformed_json');
    expect(() => f.always('wrong_schema', { route: 'models' })).toThrow(/does not apply/);
  });

  it('draws rates from its seed', () => {
    const draw = () => {
      const f = new FaultController(99).rate('http_500', 0.3);
      return Array.from({ length: 50 }, () => f.take('chat').fault?.kind ?? '-').join(',');
    };
    expect(draw()).toBe(draw());
    const hits = draw()
      .split(',')
      .filter((k) => k === 'http_500').length;
    expect(hits).toBeGreaterThan(5);
    expect(hits).toBeLessThan(30);
  });
});

const request = (lastUser: string, schemaName?: string): JudgeRequest => ({
  body: {},
  model: 'm',
  messages: [],
  system: '',
  lastUser,
  mode: 'json_schema',
  ...(schemaName ? { schemaName } : {}),
});

describe('Script', () => {
  it('prefers content + name over content over name, and queues limited entries', () => {
    const s = new Script();
    s.answer({ schema: 'a', value: 'name' })
      .answer({ match: 'x', value: 'content' })
      .answer({ schema: 'a', match: /X/i, value: 'both' });
    expect(s.take(request('x', 'a'))?.value).toBe('both');
    expect(s.take(request('x', 'b'))?.value).toBe('content');
    expect(s.take(request('y', 'a'))?.value).toBe('name');
    expect(s.take(request('y', 'b'))).toBeUndefined();
    s.answer({ schema: 'a', value: 'first', times: 1 }).answer({ schema: 'a', value: 'second', times: 1 });
    expect([
      s.take(request('y', 'a'))?.value,
      s.take(request('y', 'a'))?.value,
      s.take(request('y', 'a'))?.value,
    ]).toEqual(['first', 'second', 'name']);
  });

  it('keeps vectors as given and isolates them from callers', () => {
    const s = new Script();
    const v = [1, 2];
    s.embedding('t', v);
    v[0] = 9;
    const got = s.vectorFor('t')!;
    got[1] = 9;
    expect(s.vectorFor('t')).toEqual([1, 2]);
    expect(() => s.answer({ schema: 'a' })).toThrow(/value or raw/);
  });
});
