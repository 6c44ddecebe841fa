/** Spanish national identifiers: the DNI/NIF and NIE control letter is the number modulo 23. */
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

export function controlLetter(number: number): string {
  return LETTERS[number % 23]!;
}

/** `12345678Z` (separators already removed, letter upper-case). */
export function validDni(compact: string): boolean {
  const m = /^(\d{8})([A-Z])$/.exec(compact);
  return m !== null && controlLetter(Number(m[1])) === m[2];
}

/** `X1234567L`: X, Y, Z stand for 0, 1, 2 in front of the seven digits. */
export function validNie(compact: string): boolean {
  const m = /^([XYZ])(\d{7})([A-Z])$/.exec(compact);
  if (m === null) return false;
  const prefix = 'XYZ'.indexOf(m[1]!);
  return controlLetter(Number(`${prefix}${m[2]}`)) === m[3];
}
