import { isIP } from 'node:net';
import type { Candidate, Recognizer } from '../types.js';
import { hasCueBefore } from '../text/context.js';
import { factsOf } from '../text/facts.js';
import { matchInWindowList, matchInWindows, runWindows } from '../text/windows.js';

const IPV4 = /(?<![\p{L}\p{N}.])(?:\d{1,3}\.){3}\d{1,3}(?![\p{N}]|\.\d)/gu;
// Hex groups and colons, optionally ending in an embedded IPv4 and a zone id; node:net decides.
const IPV6 =
  /(?<![\p{L}\p{N}:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?:%[\p{L}\p{N}]+)?(?![\p{L}\p{N}:])/gu;
const IPV6_TRIGGER = /::|[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{0,4}:/g;
const VERSION_CUE =
  /\b(?:v|version|versión|release|build|firmware|art|articulo|apartado|seccion|section|clause|clausula|norma|iso|une|oid|paragraph|parrafo|capitulo|chapter|punto)\.?\s*$/;
/** Addresses that identify no one: unspecified, loopback, broadcast. */
const NOT_PERSONAL_V4 = /^(?:0\.0\.0\.0|127\.\d+\.\d+\.\d+|255\.255\.255\.255)$/;
/** "10.0.0.0/8" is a network range, not a host. */
const CIDR_SUFFIX = /^\/\d{1,3}(?!\d)/;
const IP_CUE =
  /\b(?:ip|ipv4|ipv6|address|direccion|host|servidor|server|cliente|client|origen|source|conexion|connection|login|acceso|access)\b[^\n]{0,25}$/;

/** IPv4 and IPv6 addresses, confirmed by `node:net` isIP. Dotted numbers after "versión"/"artículo" stay. */
export const ipAddressRecognizer: Recognizer = {
  name: 'ip-address',
  types: ['IP_ADDRESS'],
  find(text, facts = factsOf(text)) {
    const out: Candidate[] = [];
    // An IPv4 address lies inside one run of digits and dots.
    for (const m of matchInWindowList(
      text,
      runWindows(text, facts.digitRuns, 4, 1, 2, (_start, _end, dots) => dots >= 3),
      IPV4,
    )) {
      if (isIP(m[0]) !== 4 || NOT_PERSONAL_V4.test(m[0])) continue;
      if (
        hasCueBefore(text, m.index, VERSION_CUE, 20) ||
        CIDR_SUFFIX.test(text.slice(m.index + m[0].length, m.index + m[0].length + 4))
      )
        continue;
      const score = hasCueBefore(text, m.index, IP_CUE) ? 0.95 : 0.85;
      out.push({ type: 'IP_ADDRESS', start: m.index, end: m.index + m[0].length, score, normalized: m[0] });
    }
    if (facts.hexColon) {
      for (const m of matchInWindows(text, IPV6_TRIGGER, IPV6, 40, 60)) {
        const value = m[0];
        const bare = value.split('%')[0]!;
        if (
          bare.length < 3 ||
          !/[0-9a-f]/i.test(bare) ||
          isIP(bare) !== 6 ||
          /^(?:::1?|::ffff:0\.0\.0\.0)$/i.test(bare)
        )
          continue;
        if (CIDR_SUFFIX.test(text.slice(m.index + value.length, m.index + value.length + 5))) continue;
        const score = hasCueBefore(text, m.index, IP_CUE) ? 0.95 : 0.85;
        out.push({
          type: 'IP_ADDRESS',
          start: m.index,
          end: m.index + value.length,
          score,
          normalized: bare.toLowerCase(),
        });
      }
    }
    return out;
  },
};
