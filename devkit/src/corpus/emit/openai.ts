import OpenAI from 'openai';
import { observeOpenAI } from '@langfuse/openai';
import { startActiveObservation } from '@langfuse/tracing';
import type { DemoGenerationStep, DemoRetrievalStep, DemoTrace } from '../model.js';
import { close, withTraceAttributes } from './common.js';
import type { RetimingSpanProcessor } from './retime.js';
import { COMPLETION_KEY_HEADER, type ScriptedLlmServer } from './scripted-llm.js';

/** Name `@langfuse/openai` gives a `chat.completions.create` generation when none is configured. */
export const OPENAI_DEFAULT_GENERATION_NAME = 'OpenAI.chat';

export interface OpenAIEmitDeps {
  llm: ScriptedLlmServer;
  retimer: RetimingSpanProcessor;
}

const GENERATION_NAMES: Record<DemoGenerationStep['purpose'], string> = {
  answer: 'generate-answer',
  'rewrite-query': 'rewrite-query',
  translate: 'translate',
  classify: 'classify',
  chat: 'chat',
};

/** One `chat.completions.create` through the wrapper, answered by the scripted model and placed on the demo timeline. */
async function complete(
  deps: OpenAIEmitDeps,
  trace: DemoTrace,
  step: DemoGenerationStep,
  config: Parameters<typeof observeOpenAI>[1],
  generationName: string,
): Promise<void> {
  const key = `${trace.id}:${step.startTime.getTime()}`;
  deps.llm.script(key, {
    content: step.output,
    model: step.responseModel,
    usage: { prompt_tokens: step.usage.input, completion_tokens: step.usage.output, total_tokens: step.usage.total },
  });
  deps.retimer.plan(trace.id, generationName, { startTime: step.startTime, endTime: step.endTime });
  const client = observeOpenAI(new OpenAI({ apiKey: 'sk-demo-app', baseURL: deps.llm.url, maxRetries: 0 }), config);
  await client.chat.completions.create(
    {
      model: step.model,
      messages: step.messages,
      temperature: step.temperature,
      ...(step.maxTokens ? { max_tokens: step.maxTokens } : {}),
    },
    { headers: { [COMPLETION_KEY_HEADER]: key } },
  );
}

/**
 * `openai-bare`: the application only wraps its OpenAI client, so the generation is the whole trace and
 * any retrieved chunks travel inside the prompt. `openai-with-retriever`: a hand-made root span and
 * retriever observation around wrapped calls, which nest under the active span.
 */
export async function emitOpenAITrace(trace: DemoTrace, deps: OpenAIEmitDeps): Promise<void> {
  const gens = trace.steps.filter((s): s is DemoGenerationStep => s.kind === 'generation');
  if (trace.variant === 'openai-bare') {
    const step = gens[0]!;
    // Half the integrations name their generation, the rest keep the wrapper's default.
    const named = trace.index % 2 === 0;
    const generationName = named ? GENERATION_NAMES[step.purpose] : OPENAI_DEFAULT_GENERATION_NAME;
    await withTraceAttributes(trace, { identity: false }, () =>
      complete(
        deps,
        trace,
        step,
        {
          traceName: trace.name,
          userId: trace.userId,
          sessionId: trace.sessionId,
          tags: trace.tags,
          ...(named ? { generationName } : {}),
        },
        generationName,
      ),
    );
    return;
  }

  await withTraceAttributes(trace, { traceName: true }, () =>
    startActiveObservation(
      trace.name,
      async (root) => {
        root.update({ input: { question: trace.question }, metadata: { language: trace.language } });
        for (const step of trace.steps) {
          if (step.kind === 'generation') {
            await complete(
              deps,
              trace,
              step,
              { generationName: GENERATION_NAMES[step.purpose] },
              GENERATION_NAMES[step.purpose],
            );
          } else {
            retrieverObservation(step);
          }
        }
        close(root, trace.endTime, { output: { answer: trace.answer } });
      },
      { startTime: trace.startTime, endOnExit: false },
    ),
  );
}

function retrieverObservation(step: DemoRetrievalStep): void {
  startActiveObservation(
    step.index === 'knowledge-base' ? 'retrieve-documents' : 'lookup-customer',
    (retriever) => {
      retriever.update({
        input: { query: step.query, top_k: step.topK },
        output: step.documents.map((d) => ({
          id: d.metadata.chunkId,
          content: d.pageContent,
          score: d.score,
          source: d.metadata.source,
        })),
      });
      retriever.end(step.endTime);
    },
    { asType: 'retriever', startTime: step.startTime, endOnExit: false },
  );
}
