import type { Candidate, Recognizer } from '../types.js';
import { validEmail } from '../validators/email.js';
import { isRoleMailbox } from './role-mailboxes.js';

const LOCAL_CHAR = /[\p{L}\p{N}\p{M}._%+'=-]/u;
const DOMAIN_CHAR = /[\p{L}\p{N}\p{M}.-]/u;
const MAX_PART = 255;

/**
 * Emails, found from each '@' outwards instead of with one big regex: linear time, and Unicode local parts
 * and domains are kept whole (a regex limited to ASCII would cut `josé.muñoz@…` to `muñoz@…`). Role mailboxes of an
 * organisation ("soporte@empresa.es") are not personal data and stay (see role-mailboxes.ts).
 */
export const emailRecognizer: Recognizer = {
  name: 'email',
  types: ['EMAIL'],
  find(text) {
    const out: Candidate[] = [];
    let at = text.indexOf('@');
    while (at !== -1) {
      let s = at;
      while (s > 0 && at - s < MAX_PART && LOCAL_CHAR.test(text[s - 1]!)) s--;
      while (s < at && /['.=+-]/.test(text[s]!)) s++;
      let e = at + 1;
      while (e < text.length && e - at < MAX_PART && DOMAIN_CHAR.test(text[e]!)) e++;
      while (e > at + 1 && /[.-]/.test(text[e - 1]!)) e--;
      const local = text.slice(s, at);
      const domain = text.slice(at + 1, e);
      if (validEmail(local, domain)) {
        const normalized = `${local}@${domain}`.normalize('NFC').toLowerCase();
        const sep = normalized.lastIndexOf('@');
        if (!isRoleMailbox(normalized.slice(0, sep), normalized.slice(sep + 1))) out.push({ type: 'EMAIL', start: s, end: e, score: 0.95, normalized });
      }
      at = text.indexOf('@', Math.max(at + 1, e));
    }
    return out;
  },
};
