import { execAll } from '../text/exec-all.js';
import type { Candidate, Recognizer } from '../types.js';

const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"'`]{3,2000}/gi;
/** Query or fragment parameters that carry a person's data or a credential whenever they have a value. */
const PERSONAL_PARAMS = new Set([
  'email',
  'mail',
  'e-mail',
  'correo',
  'user',
  'username',
  'usuario',
  'login',
  'name',
  'nombre',
  'apellido',
  'apellidos',
  'surname',
  'first_name',
  'firstname',
  'fname',
  'last_name',
  'lastname',
  'lname',
  'fullname',
  'full_name',
  'phone',
  'tel',
  'telefono',
  'mobile',
  'movil',
  'msisdn',
  'dni',
  'nif',
  'nie',
  'passport',
  'pasaporte',
  'dob',
  'birthdate',
  'birth_date',
  'fecha_nacimiento',
  'address',
  'direccion',
  'iban',
  'card',
  'tarjeta',
  'pan',
  'token',
  'access_token',
  'id_token',
  'refresh_token',
  'apikey',
  'api_key',
  'key',
  'secret',
  'client_secret',
  'password',
  'pwd',
  'pass',
  'session',
  'sessionid',
  'session_id',
  'sid',
  'auth',
  'signature',
  'sig',
  'customer',
  'cliente',
  'customer_email',
  'contact',
  'recipient',
  'to',
  'destinatario',
]);
const EMAIL_LIKE = /[^@\s]+@[^@\s]+\.[^@\s]+/;
const ID_LIKE = /\b\d{8}[A-Za-z]\b|\b[XYZxyz]\d{7}[A-Za-z]\b|\+?\d{9,}/;

/** URLs whose query (or fragment) carries personal data or credentials; plain links stay. */
export const urlRecognizer: Recognizer = {
  name: 'url',
  types: ['URL'],
  find(text) {
    const out: Candidate[] = [];
    for (const m of execAll(URL_PATTERN, text)) {
      const raw = m[0].replace(/[.,;:!?)\]}»”]+$/, '');
      const q = raw.search(/[?#]/);
      if (q === -1) continue;
      if (!personalQuery(raw.slice(q + 1))) continue;
      out.push({ type: 'URL', start: m.index, end: m.index + raw.length, score: 0.9, normalized: raw });
    }
    return out;
  },
};

function personalQuery(query: string): boolean {
  for (const pair of query.split(/[&;#]/)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = safeDecode(pair.slice(0, eq)).toLowerCase();
    const value = safeDecode(pair.slice(eq + 1).replace(/\+/g, ' '));
    if (value.length === 0) continue;
    if (PERSONAL_PARAMS.has(name) && value.length >= 2) return true;
    if (name === 'code' && value.length >= 16) return true;
    if (EMAIL_LIKE.test(value) || ID_LIKE.test(value)) return true;
  }
  return false;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
