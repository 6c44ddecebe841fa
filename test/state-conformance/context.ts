import { afterEach, beforeEach } from 'vitest';
import type { StateStore } from '../../src/state/index.js';
import type { BackendInstance, StateBackend } from './backend.js';

/** A fresh state per test, and every connection a test opened closed after it. */
export function freshState(backend: StateBackend) {
  const ctx = {
    instance: null as unknown as BackendInstance,
    store: null as unknown as StateStore,
    opened: [] as StateStore[],
    async open(options?: Parameters<BackendInstance['open']>[0]): Promise<StateStore> {
      const s = await ctx.instance.open(options);
      ctx.opened.push(s);
      return s;
    },
  };
  beforeEach(async () => {
    ctx.instance = await backend.create();
    ctx.opened = [];
    ctx.store = await ctx.open();
  });
  afterEach(async () => {
    for (const s of ctx.opened) await s.close();
    await ctx.instance.dispose();
  });
  return ctx;
}

export const entry = (traceId: string, traceTimestamp = 1000) => ({
  traceId,
  traceTimestamp,
  environment: 'production',
  traceName: 'rag',
  sampleRate: 0.1,
});
