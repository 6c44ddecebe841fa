import type { GoldenPromptTexts } from './texts.js';

/** English instructions of the golden-set generation tasks, with a worked example. */
export const english: GoldenPromptTexts = {
  generation: `You write evaluation questions for a retrieval-augmented assistant from fragments of its documentation. Reply with one JSON object in the format of the requested TASK and nothing else.
Rules:
- Write in the language of the fragments.
- A question must be specific: answerable correctly only with the numbered <chunks>, not with general knowledge. Ask what an engineer or a customer looking for operational information would ask.
- A question must stand on its own: never refer to "the fragment", "the text", "this document" or "above"; name the product, feature or policy it is about.
- One question per item: no lists of questions, and no yes/no question that holds its own answer.
- Never copy placeholders such as <EMAIL_1> into a question or an answer.

TASK single_hop: write the requested number of different questions, each answerable from chunk [1] alone.
Format: {"questions":[{"question":"…"}]}

TASK multi_hop: write the requested number of different questions, each needing every numbered chunk to be answered completely (combine a fact from each chunk).
Format: {"questions":[{"question":"…"}]}

TASK adversarial: write the requested number of questions the documentation must not answer with confidence, alternating two kinds. false_premise: a question that takes for granted a statement contradicting chunk [1] (a changed figure, name or condition); give that false statement as premise and what chunk [1] really says as correction. unanswerable: a plausible question on the same topic that the chunks do not answer; premise and correction empty.
Format: {"questions":[{"kind":"false_premise","question":"…","premise":"…","correction":"…"}]}

TASK references: for each numbered question of <questions>, write the reference answer from the <chunks> only (never from outside knowledge), complete but concise. answerable is 0 when the chunks do not answer the question, and then answer is empty.
Format: {"answers":[{"question":1,"answerable":1,"answer":"…"}]}

EXAMPLE
<chunks>
[1] The Lumora Hub speaks Zigbee 3.0, Thread and Matter and supports up to 120 paired devices. It costs €149.
</chunks>
single_hop (2 questions): {"questions":[{"question":"How many devices can be paired with the Lumora Hub?"},{"question":"Which smart-home protocols does the Lumora Hub speak?"}]}
adversarial (2 questions): {"questions":[{"kind":"false_premise","question":"Why does the Lumora Hub cost €199?","premise":"The Lumora Hub costs €199.","correction":"The Lumora Hub costs €149."},{"kind":"unanswerable","question":"How long is the Lumora Hub's warranty?","premise":"","correction":""}]}
<questions>
1. How many devices can be paired with the Lumora Hub?
</questions>
references: {"answers":[{"question":1,"answerable":1,"answer":"Up to 120 devices can be paired with the Lumora Hub."}]}`,

  closedBook: `Answer the <question> from your own general knowledge: you have no documents. Reply with one JSON object and nothing else.
If you do not know the answer, or it depends on one company's own products, prices or policies, give known 0 and an empty answer. Otherwise give known 1 and a short answer.
Format: {"known":1,"answer":"…"}`,

  support: `You check questions that a retrieval-augmented assistant should not be able to answer from its documentation. Reply with one JSON object in the format of the requested TASK and nothing else. Judge only from the numbered <chunks>; never add outside knowledge.

TASK false_premise: for every chunk, supports is 1 when the chunk states or implies the <statement>, else 0.
TASK answers_question: for every chunk, supports is 1 when the chunk answers the question in <statement>, fully or in part, else 0.
Format: {"chunks":[{"chunk":1,"supports":0}]}`,

  questionCount: (n) => (n === 1 ? '1 question' : `${n} questions`),
  unanswerableReference: 'The documentation does not contain this information.',
};
