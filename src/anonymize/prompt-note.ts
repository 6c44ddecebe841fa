/**
 * The sentence judge prompts include so the judge reads placeholders correctly (issue: "equal placeholders
 * mean equal values").
 */
export function placeholderNote(language: 'es' | 'en'): string {
  return language === 'es'
    ? 'Los datos personales se han sustituido por marcadores como <PERSON_1>, <EMAIL_1> o <PHONE_2>. Marcadores iguales significan valores iguales y marcadores distintos, valores distintos; trátalos como los valores originales al comprobar las afirmaciones.'
    : 'Personal data has been replaced by placeholders such as <PERSON_1>, <EMAIL_1> or <PHONE_2>. Equal placeholders mean equal values and different placeholders mean different values; treat them as the original values when checking claims.';
}
