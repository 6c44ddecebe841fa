import type { Rng } from './random.js';

/**
 * Fictional people for the demo traces. Every identifier is well-formed (valid DNI/NIE check letter,
 * IBAN mod-97 and Spanish control digits, Luhn-valid cards, plausible phone ranges), so the anonymizer
 * sees what it meets in production; none of it belongs to anyone.
 */
export type PiiKind = 'person' | 'email' | 'phone' | 'dni' | 'nie' | 'iban' | 'card' | 'address';

export interface DemoPerson {
  locale: 'es' | 'en';
  firstName: string;
  fullName: string;
  email: string;
  phone: string;
  /** DNI for most Spanish residents, NIE for foreign residents; absent for UK/IE customers. */
  idDocument?: { kind: 'dni' | 'nie'; value: string };
  iban: string;
  card: string;
  address: string;
}

const ES_FIRST = [
  'María José',
  'Lucía',
  'Javier',
  'Carmen',
  'Alejandro',
  'Nuria',
  'Íñigo',
  'Marta',
  'Sergio',
  'Ainhoa',
  'Jorge',
  'Rocío',
  'Pablo',
  'Elena',
  'Raúl',
  'Beatriz',
  'Xavier',
  'Montserrat',
  'Óscar',
  'Iratxe',
  'Álvaro',
  'Begoña',
];
const ES_LAST = [
  'García',
  'Fernández',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Ruiz',
  'Díaz',
  'Moreno',
  'Álvarez',
  'Romero',
  'Navarro',
  'Torres',
  'Domínguez',
  'Vázquez',
  'Ramos',
  'Serrano',
  'Castillo',
  'Ortega',
  'Iglesias',
  'Etxeberria',
  'Puig',
  'Núñez',
];
const EN_FIRST = [
  'Oliver',
  'Amelia',
  'George',
  'Isla',
  'Harry',
  'Ava',
  'Jack',
  'Emily',
  'Noah',
  'Sophie',
  'Liam',
  'Grace',
  'Ethan',
  'Chloe',
  'Daniel',
  'Hannah',
  'Siobhan',
  'Ciarán',
];
const EN_LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Davies',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'Roberts',
  'Green',
  "O'Connor",
  'Murphy',
  'Kelly',
  'Byrne',
];

const ES_MAIL_DOMAINS = ['gmail.com', 'hotmail.com', 'yahoo.es', 'outlook.es', 'telefonica.net', 'icloud.com'];
const EN_MAIL_DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.co.uk', 'btinternet.com', 'eircom.net', 'icloud.com'];

const ES_STREETS = [
  'Calle de Alcalá',
  'Avenida de la Constitución',
  'Carrer de Mallorca',
  'Calle Mayor',
  'Gran Vía',
  'Paseo de la Castellana',
  'Calle de Colón',
  'Avinguda del Port',
  'Calle Ercilla',
  'Rúa do Franco',
  'Calle Larios',
  'Calle San Vicente Mártir',
];
const ES_CITIES: Array<[string, string]> = [
  ['Madrid', '280'],
  ['Barcelona', '080'],
  ['Valencia', '460'],
  ['Sevilla', '410'],
  ['Bilbao', '480'],
  ['Zaragoza', '500'],
  ['Málaga', '290'],
  ['A Coruña', '150'],
  ['Murcia', '300'],
  ['Palma', '070'],
];
const UK_ADDRESSES: Array<[string, string, string]> = [
  ['Kingsley Road', 'Leeds', 'LS6'],
  ['Victoria Street', 'Bristol', 'BS1'],
  ['Albert Road', 'Manchester', 'M19'],
  ['Church Lane', 'York', 'YO10'],
  ['Queen Street', 'Cardiff', 'CF10'],
];
const IE_ADDRESSES: Array<[string, string, string]> = [
  ['Oakfield Park', 'Dublin 6', 'D06'],
  ['Main Street', 'Cork', 'T12'],
  ['Shop Street', 'Galway', 'H91'],
];

const ES_BANKS = ['2100', '0049', '0182', '0081', '2085', '1465'];
const GB_BANKS = ['NWBK', 'BARC', 'LOYD', 'HBUK', 'MIDL'];
const IE_BANKS = ['AIBK', 'BOFI'];

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

function digits(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(rng.int(10));
  return s;
}

export function dniFor(number: string): string {
  return `${number}${DNI_LETTERS[Number(number) % 23]}`;
}

export function nieFor(prefix: 'X' | 'Y' | 'Z', number: string): string {
  const lead = { X: '0', Y: '1', Z: '2' }[prefix];
  return `${prefix}${number}${DNI_LETTERS[Number(lead + number) % 23]}`;
}

/** ISO 13616 check digits for a country code and BBAN. */
export function ibanCheckDigits(country: string, bban: string): string {
  const rearranged = `${bban}${country}00`.toUpperCase().replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  let rem = 0;
  for (const ch of rearranged) rem = (rem * 10 + Number(ch)) % 97;
  return String(98 - rem).padStart(2, '0');
}

function spanishControlDigit(ten: string): string {
  const weights = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
  const sum = ten.split('').reduce((s, d, i) => s + Number(d) * (weights[i] ?? 0), 0);
  const dc = 11 - (sum % 11);
  return String(dc === 11 ? 0 : dc === 10 ? 1 : dc);
}

function groupsOf4(s: string): string {
  return s.replace(/(.{4})/g, '$1 ').trim();
}

function spanishIban(rng: Rng): string {
  const bank = rng.pick(ES_BANKS);
  const branch = digits(rng, 4);
  const account = digits(rng, 10);
  const dc = spanishControlDigit(`00${bank}${branch}`) + spanishControlDigit(account);
  const bban = `${bank}${branch}${dc}${account}`;
  return `ES${ibanCheckDigits('ES', bban)}${bban}`;
}

function britishOrIrishIban(rng: Rng, country: 'GB' | 'IE'): string {
  const bban = `${rng.pick(country === 'GB' ? GB_BANKS : IE_BANKS)}${digits(rng, 6)}${digits(rng, 8)}`;
  return `${country}${ibanCheckDigits(country, bban)}${bban}`;
}

export function luhnComplete(partial: string): string {
  let sum = 0;
  const rev = partial.split('').reverse();
  rev.forEach((d, i) => {
    let n = Number(d);
    if (i % 2 === 0) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  });
  return `${partial}${(10 - (sum % 10)) % 10}`;
}

function cardNumber(rng: Rng): string {
  const brand = rng.int(3);
  if (brand === 2) {
    const amex = luhnComplete(`3${rng.pick(['4', '7'])}${digits(rng, 12)}`);
    return `${amex.slice(0, 4)} ${amex.slice(4, 10)} ${amex.slice(10)}`;
  }
  const prefix = brand === 0 ? `4${digits(rng, 5)}` : `5${rng.between(1, 5)}${digits(rng, 4)}`;
  const pan = luhnComplete(`${prefix}${digits(rng, 9)}`);
  const style = rng.int(3);
  return style === 0 ? groupsOf4(pan) : style === 1 ? pan.replace(/(.{4})(?!$)/g, '$1-') : pan;
}

function spanishPhone(rng: Rng): string {
  const style = rng.int(4);
  if (style === 3) return `91${rng.between(1, 8)} ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)}`;
  const n = `6${rng.between(0, 9)}${digits(rng, 7)}`;
  if (style === 0) return `+34 ${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`;
  if (style === 1) return `${n.slice(0, 3)} ${n.slice(3, 5)} ${n.slice(5, 7)} ${n.slice(7)}`;
  return n;
}

function englishPhone(rng: Rng, country: 'GB' | 'IE'): string {
  if (country === 'IE') return `+353 8${rng.pick(['3', '5', '6', '7'])} ${digits(rng, 3)} ${digits(rng, 4)}`;
  const n = `7${rng.pick(['5', '7', '8', '9'])}${digits(rng, 8)}`;
  return rng.chance(0.5) ? `+44 ${n.slice(0, 4)} ${n.slice(4)}` : `0${n.slice(0, 4)} ${n.slice(4)}`;
}

function stripAccents(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

function emailFor(rng: Rng, first: string, last: string, domains: string[]): string {
  const f = stripAccents(first.split(' ')[0] ?? first).toLowerCase();
  const l = stripAccents(last)
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  const local = rng.pick([
    `${f}.${l}`,
    `${f}${l}${rng.between(1, 99)}`,
    `${f[0]}${l}`,
    `${f}_${l}${rng.between(70, 99)}`,
  ]);
  return `${local}@${rng.pick(domains)}`;
}

/** One fictional customer or employee, drawn from `rng`. */
export function makePerson(rng: Rng, locale: 'es' | 'en'): DemoPerson {
  if (locale === 'es') {
    const first = rng.pick(ES_FIRST);
    const last = `${rng.pick(ES_LAST)} ${rng.pick(ES_LAST)}`;
    const [city, cp] = rng.pick(ES_CITIES);
    const floor = rng.chance(0.7) ? `, ${rng.between(1, 9)}.º ${rng.pick(['A', 'B', 'C', 'D', 'izda.', 'dcha.'])}` : '';
    const idDocument = rng.chance(0.8)
      ? { kind: 'dni' as const, value: dniFor(digits(rng, 8)) }
      : { kind: 'nie' as const, value: nieFor(rng.pick(['X', 'Y', 'Z'] as const), digits(rng, 7)) };
    return {
      locale,
      firstName: first,
      fullName: `${first} ${last}`,
      email: emailFor(rng, first, last.split(' ')[0] ?? last, ES_MAIL_DOMAINS),
      phone: spanishPhone(rng),
      idDocument,
      iban: rng.chance(0.5) ? groupsOf4(spanishIban(rng)) : spanishIban(rng),
      card: cardNumber(rng),
      address: `${rng.pick(ES_STREETS)} ${rng.between(1, 240)}${floor}, ${cp}${String(rng.between(1, 50)).padStart(2, '0')} ${city}`,
    };
  }
  const country = rng.chance(0.7) ? ('GB' as const) : ('IE' as const);
  const first = rng.pick(EN_FIRST);
  const last = rng.pick(EN_LAST);
  const [street, town, district] = rng.pick(country === 'GB' ? UK_ADDRESSES : IE_ADDRESSES);
  const postcode =
    country === 'GB'
      ? `${district} ${rng.between(1, 9)}${rng.pick(['AB', 'DX', 'HQ', 'NE', 'TW', 'UP'])}`
      : `${district} ${rng.pick(['X2K4', 'F6W8', 'R3C9', 'E5H2'])}`;
  return {
    locale,
    firstName: first,
    fullName: `${first} ${last}`,
    email: emailFor(rng, first, last, EN_MAIL_DOMAINS),
    phone: englishPhone(rng, country),
    iban: groupsOf4(britishOrIrishIban(rng, country)),
    card: cardNumber(rng),
    address: `${rng.between(1, 180)} ${street}, ${town}, ${postcode}`,
  };
}
