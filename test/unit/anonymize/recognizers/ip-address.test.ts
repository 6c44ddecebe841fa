import { describe, expect, it } from 'vitest';
import { ipAddressRecognizer } from '../../../../src/anonymize/recognizers/ip-address.js';
import { found } from '../helpers.js';

describe('IP address recognizer', () => {
  it('finds IPv4 and IPv6 addresses confirmed by node:net', () => {
    expect(found(ipAddressRecognizer, 'desde 83.44.120.7 y 2001:db8::8a2e:370:7334 y fe80::1%eth0.')).toEqual([
      '83.44.120.7',
      '2001:db8::8a2e:370:7334',
      'fe80::1%eth0',
    ]);
  });
  it('finds addresses at the very start and end of a text and next to punctuation', () => {
    expect(
      found(ipAddressRecognizer, '83.44.120.7 intentó entrar; luego (10.20.30.40), y al final 192.168.1.23'),
    ).toEqual(['83.44.120.7', '10.20.30.40', '192.168.1.23']);
  });
  it('leaves versions, section numbers, times, ranges and non-personal addresses', () => {
    expect(
      found(
        ipAddressRecognizer,
        'versión 10.2.3.4, artículo 1.2.3.4, a las 12:30:45, red 10.0.0.0/8, escucha en 0.0.0.0 y 127.0.0.1, 300.1.1.1',
      ),
    ).toEqual([]);
  });
});
