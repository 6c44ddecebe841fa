import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { controlFree, withoutControls } from '../../../src/internal/index.js';

/** Issue 29, part 5: what ragwatch prints carries no control characters from the texts it shows. */
describe('terminal text', () => {
  it('drops escape sequences and control characters, keeps lines, tabs and every other character', () => {
    expect(withoutControls('\x1b[31mMal\x1b[0m servicio')).toBe('Mal servicio');
    expect(withoutControls('a\x1b]0;title\x07b\x1b]8;;http://x\x1b\\c')).toBe('abc');
    expect(withoutControls('x\x9b2Jy\x07z\x00\x08\x7f')).toBe('xyz');
    expect(withoutControls('over\rwrite')).toBe('overwrite');
    expect(withoutControls('line 1\r\nline 2\n\tcell')).toBe('line 1\r\nline 2\n\tcell');
    expect(withoutControls('\u202eevil\u2066x\u2069')).toBe('evilx');
    expect(withoutControls('Ñandú, ¿qué tal? 🙂 <PHONE_1>')).toBe('Ñandú, ¿qué tal? 🙂 <PHONE_1>');
  });

  it('a stream that writes text without them, and is the same stream otherwise', async () => {
    const target = Object.assign(new PassThrough(), { isTTY: true });
    let out = '';
    target.on('data', (d) => (out += d));
    const safe = controlFree(target);
    expect((safe as unknown as { isTTY: boolean }).isTTY).toBe(true);
    let called = false;
    safe.write('\x1b[2Jcleared\n', () => (called = true));
    safe.end('\x1b[31mend\n');
    await new Promise((r) => target.on('end', r));
    expect(out).toBe('cleared\nend\n');
    expect(called).toBe(true);
  });
});
