import OpenAI from 'openai';
import { observeOpenAI } from '@langfuse/openai';
import { startActiveObservation } from '@langfuse/tracing';
import { chunks } from './knowledge.js';
import { startLangfuseOtel } from './langfuse-otel.js';
import { reply, type Expectation, type Integration, type ScenarioEnv } from './types.js';

/**
 * An app that only wraps its OpenAI client with `@langfuse/openai`'s `observeOpenAI` (Langfuse's OTel
 * pipeline behind it): each completion is a generation, and the retrieved documents reach the trace only
 * inside the prompt, laid out the ways RAG templates do (XML tags in the system message, `---` rules,
 * `[n]` numbering, `Document n:` headers, a JSON array, blank lines). One app also records its retriever.
 */

interface OpenAIEnv extends ScenarioEnv {
  openai: OpenAI;
}

const MODEL = 'gpt-4o-mini';

async function ask(
  env: OpenAIEnv,
  messages: OpenAI.ChatCompletionMessageParam[],
  answer: string,
  generationName?: string,
): Promise<string> {
  env.llm.enqueue(reply(answer));
  const client = observeOpenAI(env.openai, {
    traceName: 'support-chat',
    ...(generationName ? { generationName } : {}),
  });
  const completion = await client.chat.completions.create({ model: MODEL, messages, temperature: 0.2 });
  return completion.choices[0]?.message.content ?? '';
}

function promptScenario(
  name: string,
  description: string,
  build: (docs: string[], question: string) => OpenAI.ChatCompletionMessageParam[],
  ids: string[],
  question: string,
  answer: string,
) {
  return {
    name,
    description,
    async run(env: OpenAIEnv): Promise<Expectation> {
      const docs = chunks(...ids).map((c) => c.text);
      const said = await ask(env, build(docs, question), answer);
      return { kind: 'rag', question, answer: said, contexts: docs, contextsFrom: 'prompt' };
    },
  };
}

export const langfuseOpenai: Integration<OpenAIEnv> = {
  name: 'langfuse-openai',
  packages: ['@langfuse/openai', 'openai', '@langfuse/otel'],
  transport: 'OTLP/JSON to /api/public/otel (LangfuseSpanProcessor)',
  async start(target, llm) {
    const tracing = startLangfuseOtel(target);
    const openai = new OpenAI({ apiKey: 'sk-local', baseURL: llm.url, maxRetries: 0 });
    return { env: { llm, openai }, flush: tracing.flush, shutdown: tracing.shutdown };
  },
  scenarios: [
    promptScenario(
      'system-xml-documents',
      'documents in <document> tags inside <documents> in the system message, the question alone as the user turn',
      (docs, question) => [
        {
          role: 'system',
          content: `You are Lumora's support assistant. Answer only from the documents.\n\n<documents>\n${docs
            .map((d, i) => `<document index="${i + 1}" source="kb">\n${d}\n</document>`)
            .join('\n')}\n</documents>`,
        },
        { role: 'user', content: question },
      ],
      ['en-returns-1', 'en-returns-2'],
      'Can I return a product I already opened?',
      'Yes. You can return it within 30 days of delivery; returns because you changed your mind are not free.',
    ),
    promptScenario(
      'user-dash-separated',
      'a user message with two documents separated by --- lines, then the question',
      (docs, question) => [
        { role: 'system', content: 'Answer the question using only the context. If the answer is not there, say so.' },
        { role: 'user', content: `Context:\n---\n${docs.join('\n---\n')}\n---\n\nQuestion: ${question}` },
      ],
      ['es-envios-1', 'es-envios-2'],
      '¿Cuánto tarda un envío a Canarias?',
      'Los envíos a Canarias tardan de 5 a 8 días laborables y cuestan 9,95 €.',
    ),
    promptScenario(
      'user-numbered-spanish',
      'contexts numbered [1], [2] in a Spanish user message (Contexto / Pregunta)',
      (docs, question) => [
        {
          role: 'system',
          content:
            'Eres el asistente de Lumora. Responde solo con la información del contexto y cita las fuentes con [n].',
        },
        {
          role: 'user',
          content: `Contexto:\n${docs.map((d, i) => `[${i + 1}] ${d}`).join('\n')}\n\nPregunta: ${question}`,
        },
      ],
      ['es-tec-cam-1', 'es-cam-1'],
      '¿Por qué mi cámara no se conecta al Wi-Fi de 5 GHz?',
      'Porque la Lumora Cam Exterior solo funciona en Wi-Fi de 2,4 GHz [1][2].',
    ),
    promptScenario(
      'user-document-headers',
      'contexts under "Document 1:", "Document 2:" headers in the user message',
      (docs, question) => [
        {
          role: 'user',
          content: `Use the following documents to answer.\n\n${docs.map((d, i) => `Document ${i + 1}:\n${d}`).join('\n\n')}\n\nQuestion: ${question}\nAnswer:`,
        },
      ],
      ['en-warranty-1', 'en-warranty-2'],
      'How long is the warranty on a Lumora Plug bought in Ireland?',
      'Lumora products carry a 3-year manufacturer warranty from delivery, wherever you bought them in the UK or Ireland.',
    ),
    promptScenario(
      'system-json-array',
      'the retrieved passages as a JSON array of {id, text, score} in the system message',
      (docs, question) => [
        {
          role: 'system',
          content: `Answer with the retrieved passages below (JSON).\nPassages: ${JSON.stringify(docs.map((text, i) => ({ id: `kb-${i + 1}`, text, score: 0.9 - i / 10 })))}`,
        },
        { role: 'user', content: question },
      ],
      ['en-plans-1', 'en-plans-2'],
      'How many days of cloud history does Lumora Pro keep?',
      'Lumora Pro keeps 60 days of cloud history for up to 20 cameras.',
    ),
    promptScenario(
      'user-blank-lines',
      'contexts separated by blank lines after a "Context:" header',
      (docs, question) => [{ role: 'user', content: `Context:\n\n${docs.join('\n\n')}\n\nQuestion: ${question}` }],
      ['en-tech-reset-1', 'en-tech-led-1'],
      'What does an orange light on the Hub mean?',
      'Orange means the Hub has no internet connection; local automations keep working.',
    ),
    {
      name: 'retriever-and-prompt',
      description:
        'a retriever observation and a wrapped completion whose prompt repeats the documents: the retriever wins',
      async run(env) {
        const question = 'How do I cancel my subscription?';
        const docs = chunks('en-plans-3', 'en-refunds-sub-1').map((c) => c.text);
        let said = '';
        await startActiveObservation('support-request', async (root) => {
          root.update({ input: { question } });
          await startActiveObservation(
            'search-knowledge-base',
            async (retriever) =>
              retriever.update({
                input: { query: question },
                output: docs.map((text, i) => ({ id: `kb-${i}`, text, score: 0.8 })),
              }),
            { asType: 'retriever' },
          );
          said = await ask(
            env,
            [
              {
                role: 'system',
                content: `Answer from these documents:\n\n${docs.map((d, i) => `[${i + 1}] ${d}`).join('\n\n')}`,
              },
              { role: 'user', content: question },
            ],
            'Open the app and go to Account > Subscription > Cancel plan; you keep the benefits until the end of the paid period.',
            'answer',
          );
          root.update({ output: { answer: said } });
        });
        return { kind: 'rag', question, answer: said, contexts: docs, contextsFrom: 'retrieval' };
      },
    },
    {
      name: 'chat-with-rules',
      description: 'a plain chat whose system prompt lists rules under headers and --- lines: not RAG',
      async run(env) {
        await ask(
          env,
          [
            {
              role: 'system',
              content:
                "You are Lumora's assistant.\n\nRules:\n- Be brief.\n- Answer in the user's language.\n---\nTone: friendly, no emojis.",
            },
            { role: 'user', content: 'Hi! Can you help me?' },
          ],
          'Of course! What do you need help with?',
        );
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
  ],
};
