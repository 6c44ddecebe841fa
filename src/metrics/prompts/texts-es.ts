import type { PromptTexts } from './texts.js';

/** Spanish judge instructions and few-shot examples. Both families start with the same rules. */
export const spanish: PromptTexts = {
  rules: `Eres un juez de evaluación cuidadoso y literal de un asistente con recuperación (RAG). Responde con un único objeto JSON en el formato de la TASK pedida y nada más.
Reglas:
- Juzga solo a partir de los textos etiquetados del mensaje del usuario; nunca añadas conocimiento externo.
- Los marcadores como <EMAIL_1> o <PERSON_2> sustituyen datos personales: el mismo marcador significa siempre el mismo valor y marcadores distintos, valores distintos.
- Los fragmentos de <contexts> van numerados [1], [2], …; cítalos por su número.
- " […]" marca un texto recortado: juzga solo lo que se muestra.
- Escribe las afirmaciones y las preguntas en español.`,

  answerTasks: `TASK faithfulness: divide la <answer> en afirmaciones breves, atómicas y autocontenidas (sustituye los pronombres por aquello a lo que se refieren, ayudándote de la <question>). Saludos, matices y negativas no son afirmaciones. Para cada afirmación, lista los fragmentos que la dicen o la implican directamente y da verdict 1 si los fragmentos, solos o juntos, la respaldan; si no, 0.
Formato: {"claims":[{"claim":"…","chunks":[1],"verdict":1}]}

TASK answer_relevancy: escribe el número pedido de preguntas distintas que la <answer> responde, como las haría un usuario, a partir solo de la <answer>. noncommittal es 1 si la respuesta es evasiva, vaga o una negativa ("no lo sé", "depende"); si no, 0.
Formato: {"questions":[{"question":"…","noncommittal":0}]}

EJEMPLO
<answer>Cervantes publicó la primera parte del Quijote en 1605 y la segunda en 1615. Murió en Sevilla.</answer>
<question>¿Cuándo se publicó el Quijote?</question>
<contexts>
[1] La primera parte de Don Quijote apareció en 1605 y la segunda parte en 1615.
[2] Miguel de Cervantes murió en Madrid en 1616.
</contexts>
faithfulness: {"claims":[{"claim":"Cervantes publicó la primera parte del Quijote en 1605.","chunks":[1],"verdict":1},{"claim":"Cervantes publicó la segunda parte del Quijote en 1615.","chunks":[1],"verdict":1},{"claim":"Cervantes murió en Sevilla.","chunks":[],"verdict":0}]}
answer_relevancy (2 preguntas): {"questions":[{"question":"¿Cuándo se publicaron las dos partes del Quijote?","noncommittal":0},{"question":"¿Dónde murió Cervantes?","noncommittal":0}]}
Una respuesta como "No estoy seguro, depende de la versión." no tiene afirmaciones ({"claims":[]}) y es noncommittal 1.`,

  referenceTasks: `TASK context_precision: para cada fragmento, useful es 1 si ayuda a llegar a la respuesta de <reference> para la <question>; si no, 0.
Formato: {"chunks":[{"chunk":1,"useful":1}]}

TASK context_recall: divide la <reference> en enunciados atómicos y autocontenidos. Para cada enunciado, lista los fragmentos a los que se puede atribuir y da attributed 1 si los fragmentos lo respaldan; si no, 0.
Formato: {"statements":[{"statement":"…","chunks":[1],"attributed":1}]}

TASK claims_in_reference: para cada afirmación numerada de <claims>, verdict es 1 si la <reference> la respalda; si no, 0.
Formato: {"claims":[{"claim":1,"verdict":1}]}

EJEMPLO
<question>¿Cuándo se publicó el Quijote?</question>
<contexts>
[1] La primera parte de Don Quijote apareció en 1605 y la segunda parte en 1615.
[2] Miguel de Cervantes murió en Madrid en 1616.
</contexts>
<reference>La primera parte del Quijote se publicó en 1605 y la segunda en 1615.</reference>
<claims>
1. Cervantes publicó el Quijote en dos partes.
2. Cervantes murió en Sevilla.
</claims>
context_precision: {"chunks":[{"chunk":1,"useful":1},{"chunk":2,"useful":0}]}
context_recall: {"statements":[{"statement":"La primera parte del Quijote se publicó en 1605.","chunks":[1],"attributed":1},{"statement":"La segunda parte del Quijote se publicó en 1615.","chunks":[1],"attributed":1}]}
claims_in_reference: {"claims":[{"claim":1,"verdict":1},{"claim":2,"verdict":0}]}`,

  questionCount: (n) => (n === 1 ? '1 pregunta' : `${n} preguntas`),
  noContexts: '(no se recuperó ningún fragmento)',
};
