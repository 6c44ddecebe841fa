import type { DemoLanguage } from '../types.js';

/**
 * Wording the generator combines with the knowledge base and the golden questions. Placeholders:
 * {name} {first} {email} {phone} {id} {iban} {card} {address} {order} {q}.
 */
export interface Phrases {
  /** RAG answer prompt; {context} and {q} are filled in. */
  systemPrompt: string;
  /** Same instructions when the integration pastes the context into the user message: a header style and a tag style. */
  userPromptWithContext: string;
  userPromptWithTags: string;
  rewritePrompt: string;
  /** Ways customers wrap a question around their personal data. */
  questionWrappers: string[];
  answerGreeting: string;
  unsupportedClaims: string[];
  evasiveAnswers: string[];
  abstention: string;
  smallTalk: Array<[question: string, answer: string]>;
  outOfScope: Array<[question: string, hallucinated: string]>;
  customerRecord: string;
  customerNotes: string[];
  translatePrompt: string;
  /** Customer messages with their translation into the other language. */
  translations: Array<[source: string, target: string]>;
  classifyPrompt: string;
  classifications: Array<
    [message: string, label: string, urgency: 'alta' | 'media' | 'baja' | 'high' | 'medium' | 'low']
  >;
}

export const PHRASES: Record<DemoLanguage, Phrases> = {
  es: {
    systemPrompt:
      'Eres el asistente de atención al cliente de Lumora Hogar. Responde a la pregunta del cliente usando únicamente el contexto. Si el contexto no contiene la respuesta, dilo con claridad. Responde en español, de forma breve.\n\nContexto:\n{context}',
    userPromptWithContext:
      'Responde usando solo el siguiente contexto de la base de conocimiento.\n\nContexto:\n{context}\n\nPregunta: {q}',
    userPromptWithTags:
      'Responde a la pregunta con la información de los documentos.\n\n<documentos>\n{context}\n</documentos>\n\nPregunta: {q}',
    rewritePrompt:
      'Reescribe la última pregunta del cliente como una consulta de búsqueda autónoma y breve, sin datos personales. Devuelve solo la consulta.',
    questionWrappers: [
      'Hola, soy {name}. {q}',
      '{q} Mi correo es {email} por si necesitáis contactarme.',
      'Buenas tardes. Soy {name}, con DNI {id}. {q}',
      '{q} Podéis llamarme al {phone}.',
      'Tengo la tarjeta {card} asociada a la cuenta. {q}',
      'Vivo en {address}. {q}',
      'Es sobre el pedido {order}, el reembolso iría a mi cuenta {iban}. {q}',
      'Hola, me llamo {name} y mi teléfono es el {phone}. {q}',
    ],
    answerGreeting: 'Hola, {first}. ',
    unsupportedClaims: [
      'Además, si haces el pedido hoy te regalamos un Enchufe.',
      'También ofrecemos instalación gratuita a domicilio en toda España.',
      'Para los clientes Pro este plazo se amplía a 60 días.',
      'También puedes pagar en efectivo contra reembolso.',
      'Nuestro equipo atiende las 24 horas, los 7 días de la semana.',
      'Este servicio está disponible también en Francia e Italia.',
    ],
    evasiveAnswers: [
      'Depende de varios factores. Te recomiendo revisar la documentación de tu producto o contactar con el equipo de soporte para que te den una respuesta precisa.',
      'Es una buena pregunta. En Lumora intentamos siempre ofrecer la mejor experiencia posible, así que seguro que encontramos una solución adecuada para tu caso.',
      'Ahora mismo no puedo confirmarlo. Cada caso es distinto y conviene valorarlo de forma individual.',
    ],
    abstention:
      'Lo siento, no tengo información sobre eso en la documentación de Lumora. Si quieres, puedo pasarte con una persona del equipo de soporte.',
    smallTalk: [
      ['Hola', '¡Hola! Soy el asistente de Lumora. ¿En qué puedo ayudarte?'],
      ['Gracias, ya me funciona todo.', '¡Genial! Si necesitas algo más, aquí estoy.'],
      [
        '¿Eres una persona o un bot?',
        'Soy un asistente automático de Lumora. Si lo prefieres, puedo pasarte con una persona del equipo de soporte.',
      ],
      [
        '¿Qué es Matter?',
        'Matter es un estándar abierto de domótica que permite que dispositivos de distintos fabricantes funcionen juntos en la red local.',
      ],
      ['Vale, perfecto, muchas gracias {first}', '¡A ti! Que tengas un buen día.'],
    ],
    outOfScope: [
      [
        '¿Tenéis tienda física en Sevilla?',
        'Sí, tenemos una tienda en la calle Sierpes de Sevilla, abierta de lunes a sábado.',
      ],
      ['¿Vendéis timbres inteligentes?', 'Sí, el Lumora Timbre cuesta 89 € e incluye videollamada.'],
      ['¿Cuál es el CIF de Lumora Hogar?', 'El CIF de Lumora Hogar es B12345678.'],
      ['¿Hacéis descuentos para estudiantes?', 'Sí, los estudiantes tienen un 20 % de descuento presentando el carné.'],
      ['¿Puedo pagar con criptomonedas?', 'Sí, aceptamos Bitcoin y Ethereum en la tienda online.'],
    ],
    customerRecord:
      'Ficha de cliente. Nombre: {name}. Documento: {id}. Teléfono: {phone}. Correo: {email}. Dirección de envío: {address}. Cuenta de domiciliación: {iban}. Último pedido: {order}. Notas del agente: {note}',
    customerNotes: [
      'Llamó por un retraso en la entrega; se le ofreció seguimiento prioritario.',
      'Solicitó factura con datos fiscales; pendiente de enviar.',
      'Tiene plan Plus desde hace dos años; consulta frecuente sobre la Cam.',
      'Devolución en curso de un Enchufe; etiqueta enviada por correo.',
    ],
    translatePrompt:
      'Traduce al inglés el mensaje del cliente. Mantén nombres, números y datos de contacto tal cual. Devuelve solo la traducción.',
    translations: [
      [
        'Hola, soy {name}. El paquete del pedido {order} llegó con la caja rota y el Hub no enciende. Podéis llamarme al {phone}.',
        "Hi, I'm {name}. The parcel for order {order} arrived with a broken box and the Hub won't turn on. You can call me on {phone}.",
      ],
      [
        'Quiero cancelar mi plan Plus y que me devolváis el dinero en la cuenta {iban}.',
        'I want to cancel my Plus plan and get the money refunded to account {iban}.',
      ],
      [
        'Me han cobrado dos veces en la tarjeta {card}. Mi correo es {email}.',
        'I have been charged twice on card {card}. My email is {email}.',
      ],
      ['Por favor, cambiad la dirección de entrega a {address}.', 'Please change the delivery address to {address}.'],
    ],
    classifyPrompt:
      'Clasifica el mensaje del cliente en una categoría: facturacion, devoluciones, envios, tecnico, cuenta u otros, y estima la urgencia (alta, media o baja). Responde solo con JSON: {"categoria": "...", "urgencia": "..."}',
    classifications: [
      ['Me habéis cobrado la suscripción dos veces este mes, mi tarjeta es la {card}.', 'facturacion', 'alta'],
      ['Quiero devolver la cámara, no me convence. Pedido {order}.', 'devoluciones', 'baja'],
      ['El pedido {order} lleva una semana sin moverse del almacén.', 'envios', 'media'],
      ['El Hub se ha quedado en rojo fijo y no responde.', 'tecnico', 'alta'],
      ['No puedo cambiar el correo de la cuenta a {email}.', 'cuenta', 'media'],
      ['¿Tenéis ofertas de trabajo en Valencia?', 'otros', 'baja'],
    ],
  },
  en: {
    systemPrompt:
      "You are Lumora Hogar's customer support assistant. Answer the customer's question using only the context. If the context does not contain the answer, say so clearly. Answer briefly, in English.\n\nContext:\n{context}",
    userPromptWithContext:
      'Answer using only the following context from the knowledge base.\n\nContext:\n{context}\n\nQuestion: {q}',
    userPromptWithTags:
      'Answer the question with the information in the documents.\n\n<documents>\n{context}\n</documents>\n\nQuestion: {q}',
    rewritePrompt:
      "Rewrite the customer's last question as a short, self-contained search query without personal data. Return only the query.",
    questionWrappers: [
      "Hi, I'm {name}. {q}",
      '{q} My email is {email} if you need to reach me.',
      '{q} You can call me on {phone}.',
      'The card on my account is {card}. {q}',
      'I live at {address}. {q}',
      'This is about order {order}; the refund should go to {iban}. {q}',
      'Hello, {name} here, phone {phone}. {q}',
    ],
    answerGreeting: 'Hi {first}, ',
    unsupportedClaims: [
      'We will also include a free Plug with your next order.',
      'Pro customers get twice as long for this.',
      'You can also pay cash on delivery.',
      'Our phone line is open 24/7 for urgent issues.',
      'This also applies to orders shipped to the United States.',
    ],
    evasiveAnswers: [
      'It depends on a number of factors. I would recommend checking the documentation for your product or contacting the support team for a precise answer.',
      'Great question! At Lumora we always try to give our customers the best possible experience, so I am sure we will find a good solution for you.',
      'I cannot confirm that right now. Every case is different and is best assessed individually.',
    ],
    abstention:
      "Sorry, I don't have information about that in Lumora's documentation. I can pass you to someone from the support team if you like.",
    smallTalk: [
      ['Hello', "Hello! I'm Lumora's assistant. How can I help?"],
      ['Thanks, all sorted now.', 'Great! Let me know if you need anything else.'],
      [
        'Are you a real person?',
        "I'm Lumora's automated assistant. I can pass you to someone from the support team if you prefer.",
      ],
      ['What is Thread?', 'Thread is a low-power mesh networking protocol for smart home devices, used by Matter.'],
    ],
    outOfScope: [
      ['Do you have a shop in London?', 'Yes, our London showroom on Oxford Street is open Monday to Saturday.'],
      ['Do you sell a smart doorbell?', 'Yes, the Lumora Doorbell costs €89 and supports video calls.'],
      ['Is there a student discount?', 'Yes, students get 20 % off with a valid student card.'],
      ['Can I pay with Bitcoin?', 'Yes, we accept Bitcoin and Ethereum in the online store.'],
    ],
    customerRecord:
      'Customer record. Name: {name}. Phone: {phone}. Email: {email}. Delivery address: {address}. Bank account: {iban}. Last order: {order}. Agent notes: {note}',
    customerNotes: [
      'Called about a late delivery; offered priority tracking.',
      'Asked for a VAT invoice; VAT number missing on the account.',
      'Plus customer for two years; frequent questions about the Cam.',
      'Return of a Plug in progress; label sent by email.',
    ],
    translatePrompt:
      "Translate the customer's message into Spanish. Keep names, numbers and contact details unchanged. Return only the translation.",
    translations: [
      [
        "Hi, I'm {name}. The Hub I ordered ({order}) keeps flashing red. Please call me on {phone}.",
        'Hola, soy {name}. El Hub que pedí ({order}) no deja de parpadear en rojo. Por favor, llamadme al {phone}.',
      ],
      [
        'Please refund the return to my account {iban}.',
        'Por favor, haced el reembolso de la devolución a mi cuenta {iban}.',
      ],
      ['My address has changed to {address}.', 'Mi dirección ha cambiado a {address}.'],
    ],
    classifyPrompt:
      'Classify the customer message into one category: billing, returns, shipping, technical, account or other, and estimate urgency (high, medium or low). Reply only with JSON: {"category": "...", "urgency": "..."}',
    classifications: [
      ['I was charged twice this month on card {card}.', 'billing', 'high'],
      ['I want to return the Cam from order {order}.', 'returns', 'low'],
      ['Order {order} has not moved for a week.', 'shipping', 'medium'],
      ['The Hub is solid red and does not respond.', 'technical', 'high'],
      ['I cannot change my account email to {email}.', 'account', 'medium'],
    ],
  },
};
