/**
 * Structural checks for an email address whose local part and domain may use any Unicode letters
 * (RFC 6531 addresses such as `josé.muñoz@correos.es`, IDN domains such as `ana@bücher.de` or `xn--bcher-kva.de`).
 */
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
const TLD = /^(?:\p{L}{2,24}|xn--[a-z0-9-]{2,59})$/iu;

export function validEmail(local: string, domain: string): boolean {
  if (local.length === 0 || local.length > 64 || domain.length > 253) return false;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  for (const label of labels) if (label.length === 0 || label.length > 63 || !LABEL.test(label)) return false;
  return TLD.test(labels[labels.length - 1]!);
}
