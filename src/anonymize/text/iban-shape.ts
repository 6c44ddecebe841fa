/** True when the text right before `start` looks like the beginning of an IBAN ("ES91 2100 "): digits there belong to it. */
export function insideIbanShape(text: string, start: number): boolean {
  return /(?:^|[^\p{L}\p{N}])[A-Za-z]{2}\d{2}(?:[ -]?[A-Za-z0-9]{4}){0,7}[ -]?$/u.test(text.slice(Math.max(0, start - 45), start));
}
