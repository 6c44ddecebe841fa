import { describe, expect, it } from 'vitest';
import { HeldFailures } from '../../../src/online/held-failures.js';
import { OutageDetector } from '../../../src/online/outage.js';

const signal = new AbortController().signal;

function detector(up: Record<string, boolean>) {
  const asked: string[] = [];
  const probe = (key: string) => async () => {
    asked.push(key);
    return up[key] ?? true;
  };
  const d = new OutageDetector(
    { langfuse: probe('langfuse'), judge: probe('judge'), 'langfuse:write': probe('langfuse:write') },
    { now: () => 0 },
    0,
  );
  return { d, asked };
}

describe('HeldFailures', () => {
  it('holds failures until a success on the channel, then charges them: they failed alone', async () => {
    const { d } = detector({});
    const held = new HeldFailures<string>(d, 3);
    expect(await held.failed('judge', 'judge', 'a', signal)).toEqual({ charge: [], refund: [], outage: false });
    expect(await held.failed('judge', 'judge', 'b', signal)).toEqual({ charge: [], refund: [], outage: false });
    expect(held.succeeded('langfuse:read')).toEqual([]);
    expect(held.succeeded('judge')).toEqual(['a', 'b']);
    // the streak starts again after a success
    await held.failed('judge', 'judge', 'c', signal);
    await held.failed('judge', 'judge', 'd', signal);
    expect(held.succeeded('judge')).toEqual(['c', 'd']);
  });

  it('refunds everything held and every later failure once the streak reaches the threshold', async () => {
    const { d } = detector({});
    const held = new HeldFailures<string>(d, 3);
    await held.failed('langfuse:write', 'langfuse', 'a', signal);
    await held.failed('langfuse:write', 'langfuse', 'b', signal);
    expect(await held.failed('langfuse:write', 'langfuse', 'c', signal)).toEqual({
      charge: [],
      refund: ['a', 'b', 'c'],
      outage: true,
    });
    expect(held.isOutage('langfuse:write')).toBe(true);
    expect(await held.failed('langfuse:write', 'langfuse', 'e', signal)).toEqual({
      charge: [],
      refund: ['e'],
      outage: true,
    });
    // other channels are untouched
    expect(held.isOutage('langfuse:read')).toBe(false);
  });

  it('declares an outage at once when the channel probe says down, asking the channel probe before the dependency', async () => {
    const { d, asked } = detector({ 'langfuse:write': false, langfuse: true });
    const held = new HeldFailures<string>(d, 3);
    expect(await held.failed('langfuse:write', 'langfuse', 'a', signal)).toEqual({
      charge: [],
      refund: ['a'],
      outage: true,
    });
    expect(asked).toEqual(['langfuse:write']);
  });

  it('settles the rest: charged after a success, refunded when two or more failed with none succeeding, else by the probe', async () => {
    const { d } = detector({ judge: false });
    const held = new HeldFailures<string>(d, 5);
    held.succeeded('langfuse:read');
    await held.failed('langfuse:read', 'langfuse', 'r1', signal);
    await held.failed('langfuse:write', 'langfuse', 'w1', signal);
    await held.failed('langfuse:write', 'langfuse', 'w2', signal);
    const rest = await held.settleRest((c) => (c === 'judge' ? 'judge' : 'langfuse'), signal);
    expect(rest.charge).toEqual(['r1']);
    expect(rest.refund).toEqual(['w1', 'w2']);
    expect(rest.outageChannels).toEqual(['langfuse:write']);

    const alone = new HeldFailures<string>(detector({ langfuse: true }).d, 5);
    await alone.failed('langfuse:read', 'langfuse', 'x', signal);
    expect((await alone.settleRest(() => 'langfuse', signal)).charge).toEqual(['x']);
    expect(alone.takeAll()).toEqual([]);
  });

  it('does not lose a failure held while another one declares the outage during its probe', async () => {
    let release!: (up: boolean) => void;
    const slow = new OutageDetector({ judge: () => new Promise<boolean>((r) => (release = r)) }, { now: () => 0 }, 0);
    const held = new HeldFailures<string>(slow, 2);
    const first = held.failed('judge', 'judge', 'a', signal);
    const second = await held.failed('judge', 'judge', 'b', signal);
    expect(second).toEqual({ charge: [], refund: ['a', 'b'], outage: true });
    release(true);
    expect(await first).toEqual({ charge: [], refund: [], outage: true });
  });
});
