/** Luhn (mod 10) check over a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Issuer prefixes and lengths of the card networks in use (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
export function plausibleCardNumber(digits: string): boolean {
  const n = digits.length;
  if (n < 13 || n > 19) return false;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  const p6 = Number(digits.slice(0, 6));
  if (digits[0] === '4') return n === 13 || n === 16 || n === 19;
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16;
  if (p2 === 34 || p2 === 37) return n === 15;
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) return n >= 16;
  if (p4 >= 3528 && p4 <= 3589) return n >= 16;
  if (p3 >= 300 && p3 <= 305) return n >= 14;
  if (p2 === 36 || p2 === 38 || p2 === 39 || p3 === 309) return n >= 14;
  if (p2 === 62 || p2 === 81) return n >= 16;
  if (p2 === 50 || (p2 >= 56 && p2 <= 69)) return n >= 12;
  return false;
}
