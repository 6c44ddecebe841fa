import type { GoldenPromptTexts } from './texts.js';

/** Instrucciones en español de las tareas de generación del golden set, con un ejemplo resuelto. */
export const spanish: GoldenPromptTexts = {
  generation: `Escribes preguntas de evaluación para un asistente con recuperación de documentos (RAG) a partir de fragmentos de su documentación. Responde con un único objeto JSON en el formato de la TAREA pedida y nada más.
Reglas:
- Escribe en el idioma de los fragmentos.
- Cada pregunta debe ser específica: solo se puede responder correctamente con los <chunks> numerados, no con conocimiento general. Pregunta lo que preguntaría un ingeniero o un cliente que busca información operativa.
- Cada pregunta debe entenderse sola: nunca hables de "el fragmento", "el texto", "este documento" o "lo anterior"; nombra el producto, la función o la política de la que trata.
- Una pregunta por elemento: nada de listas de preguntas, ni preguntas de sí o no que contengan su propia respuesta.
- Nunca copies marcadores como <EMAIL_1> en una pregunta o una respuesta.

TAREA single_hop: escribe el número pedido de preguntas distintas, cada una con respuesta en el chunk [1] solo.
Formato: {"questions":[{"question":"…"}]}

TAREA multi_hop: escribe el número pedido de preguntas distintas, cada una de las cuales necesita todos los chunks numerados para responderse por completo (combina un dato de cada chunk).
Formato: {"questions":[{"question":"…"}]}

TAREA adversarial: escribe el número pedido de preguntas que la documentación no debe responder con seguridad, alternando dos tipos. false_premise: una pregunta que da por hecha una afirmación que contradice el chunk [1] (una cifra, un nombre o una condición cambiados); da esa afirmación falsa como premise y lo que de verdad dice el chunk [1] como correction. unanswerable: una pregunta verosímil sobre el mismo tema que los chunks no responden; premise y correction vacíos.
Formato: {"questions":[{"kind":"false_premise","question":"…","premise":"…","correction":"…"}]}

TAREA references: para cada pregunta numerada de <questions>, escribe la respuesta de referencia solo con los <chunks> (nunca con conocimiento externo), completa pero concisa. answerable es 0 cuando los chunks no responden a la pregunta, y entonces answer va vacío.
Formato: {"answers":[{"question":1,"answerable":1,"answer":"…"}]}

EJEMPLO
<chunks>
[1] El Lumora Hub habla Zigbee 3.0, Thread y Matter y admite hasta 120 dispositivos emparejados. Cuesta 149 €.
</chunks>
single_hop (2 preguntas): {"questions":[{"question":"¿Cuántos dispositivos se pueden emparejar con el Lumora Hub?"},{"question":"¿Qué protocolos domóticos habla el Lumora Hub?"}]}
adversarial (2 preguntas): {"questions":[{"kind":"false_premise","question":"¿Por qué el Lumora Hub cuesta 199 €?","premise":"El Lumora Hub cuesta 199 €.","correction":"El Lumora Hub cuesta 149 €."},{"kind":"unanswerable","question":"¿Cuánto dura la garantía del Lumora Hub?","premise":"","correction":""}]}
<questions>
1. ¿Cuántos dispositivos se pueden emparejar con el Lumora Hub?
</questions>
references: {"answers":[{"question":1,"answerable":1,"answer":"Con el Lumora Hub se pueden emparejar hasta 120 dispositivos."}]}`,

  closedBook: `Responde a la <question> con tu propio conocimiento general: no tienes documentos. Responde con un único objeto JSON y nada más.
Si no sabes la respuesta, o depende de los productos, precios o políticas de una empresa concreta, da known 0 y answer vacío. Si no, da known 1 y una respuesta breve.
Formato: {"known":1,"answer":"…"}`,

  support: `Compruebas preguntas que un asistente con recuperación de documentos no debería poder responder con su documentación. Responde con un único objeto JSON en el formato de la TAREA pedida y nada más. Juzga solo con los <chunks> numerados; nunca añadas conocimiento externo.

TAREA false_premise: para cada chunk, supports es 1 cuando el chunk afirma o implica el <statement>, si no 0.
TAREA answers_question: para cada chunk, supports es 1 cuando el chunk responde, del todo o en parte, a la pregunta de <statement>, si no 0.
Formato: {"chunks":[{"chunk":1,"supports":0}]}`,

  questionCount: (n) => (n === 1 ? '1 pregunta' : `${n} preguntas`),
  unanswerableReference: 'La documentación no contiene esta información.',
};
