import { foldWindow } from './context.js';

/** A unit after a count or a measure, in folded text: "48 horas", "2 times", "1500000 tokens". */
export const QUANTITY_UNIT =
  /^\s?(?:horas?|hours?|hrs?|h|minutos?|minutes?|mins?|segundos?|seconds?|secs?|ms|dias?|days?|semanas?|weeks?|meses|months?|anos|years?|veces|times|intentos|attempts|unidades|units|uds|items|articulos|productos|products|personas|people|usuarios|users|habitantes|inhabitants|visitas|visits|km|kg|mg|cm|mm|ml|kb|mb|gb|tb|kwh|bytes|tokens|peticiones|requests|filas|rows|registros|records|puntos|points|votos|votes)(?![a-z])/;

/**
 * A short group of digits right before a unit ("… 48 horas", "… 2 times"): a quantity written after another
 * number, never the end of a phone number. [groupStart, end) is the group.
 */
export function trailingQuantity(text: string, groupStart: number, end: number): boolean {
  return end - groupStart <= 3 && QUANTITY_UNIT.test(foldWindow(text.slice(end, end + 16)));
}
