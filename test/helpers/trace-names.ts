/** Names an app may give its traces, careless ones included (the user's question, an e-mail, a phone). */
export const TRACE_NAMES = [
  'rag-answer',
  'support-bot/v2',
  'chat answer',
  'POST /chat',
  'Pregunta de Ana',
  '¿Dónde está mi pedido? Soy Ana García',
  'ana.garcia@example.com',
  'call 611223344',
  'Ticket 482019374',
  '#0123456789abcdef',
  'other',
  'x'.repeat(120),
  'Résumé',
  '🙂 hola',
];
