import type { LangfuseObservation } from '@langfuse/tracing';
import { propagateAttributes } from '@langfuse/tracing';
import { hexId } from '../random.js';
import type { DemoChatMessage, DemoGenerationStep, DemoRetrievalStep, DemoTrace } from '../model.js';
import { at, close, langchainDocument, open, plus } from './common.js';

/**
 * Replays a trace as `@langfuse/langchain`'s CallbackHandler records a LangChain JS retrieval chain
 * (`RunnableSequence.from([{ context: retriever.pipe(formatDocumentsAsString), question: new
 * RunnablePassthrough() }, prompt, new ChatOpenAI(), new StringOutputParser()])`): every run becomes a
 * span named after the runnable (retrievers too: a SPAN named `VectorStoreRetriever` whose output is the
 * Documents), chat models become a generation with `{role, content}` messages, run tags go into
 * metadata, and trace attributes are propagated only while the root chain starts.
 */

type LcType = 'SystemMessage' | 'HumanMessage' | 'AIMessage';

function lcSerialized(type: LcType, kwargs: Record<string, unknown>) {
  return {
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'messages', type],
    kwargs: { ...kwargs, additional_kwargs: {}, response_metadata: kwargs.response_metadata ?? {} },
  };
}

function promptValue(messages: DemoChatMessage[]) {
  return {
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'prompt_values', 'ChatPromptValue'],
    kwargs: {
      messages: messages.map((m) =>
        lcSerialized(m.role === 'system' ? 'SystemMessage' : m.role === 'user' ? 'HumanMessage' : 'AIMessage', {
          content: m.content,
        }),
      ),
    },
  };
}

function aiMessage(step: DemoGenerationStep, traceId: string) {
  return lcSerialized('AIMessage', {
    content: step.output,
    tool_calls: [],
    invalid_tool_calls: [],
    id: `chatcmpl-${hexId(24, traceId, step.startTime.toISOString())}`,
    usage_metadata: {
      input_tokens: step.usage.input,
      output_tokens: step.usage.output,
      total_tokens: step.usage.total,
      input_token_details: { audio: 0, cache_read: 0 },
      output_token_details: { audio: 0, reasoning: 0 },
    },
    response_metadata: {
      tokenUsage: {
        promptTokens: step.usage.input,
        completionTokens: step.usage.output,
        totalTokens: step.usage.total,
      },
      finish_reason: 'stop',
      model_name: step.responseModel,
    },
  });
}

/** `prompt → ChatOpenAI → parser` under `parent`, with the handler's attributes at start and end. */
function llmSteps(
  parent: LangfuseObservation,
  step: DemoGenerationStep,
  promptInput: Record<string, unknown>,
  firstTag: number,
  traceId: string,
  json: boolean,
): void {
  const promptStart = plus(step.startTime, -2);
  const prompt = open('ChatPromptTemplate', parent, promptStart, {
    input: promptInput,
    metadata: { tags: [`seq:step:${firstTag}`] },
  });
  close(prompt, plus(promptStart, 1), { output: promptValue(step.messages) });

  const generation = open(
    'ChatOpenAI',
    parent,
    step.startTime,
    {
      input: step.messages.map((m) => ({ content: m.content, role: m.role })),
      model: step.model,
      modelParameters: { temperature: step.temperature, ...(step.maxTokens ? { max_tokens: step.maxTokens } : {}) },
      metadata: {
        tags: [`seq:step:${firstTag + 1}`],
        ls_provider: 'openai',
        ls_model_name: step.model,
        ls_model_type: 'chat',
        ls_temperature: step.temperature,
        ...(step.maxTokens ? { ls_max_tokens: step.maxTokens } : {}),
      },
    },
    'generation',
  );
  close(generation, step.endTime, {
    model: step.responseModel,
    output: { content: step.output, role: 'assistant' },
    usageDetails: {
      input: step.usage.input,
      output: step.usage.output,
      total: step.usage.total,
      input_audio: 0,
      input_cache_read: 0,
      output_audio: 0,
      output_reasoning: 0,
    },
  });

  const parserStart = plus(step.endTime, 1);
  const parser = open(json ? 'JsonOutputParser' : 'StrOutputParser', parent, parserStart, {
    input: aiMessage(step, traceId),
    metadata: { tags: [`seq:step:${firstTag + 2}`] },
  });
  close(parser, plus(parserStart, 1), { output: json ? JSON.parse(step.output) : step.output });
}

function retrieverBranch(map: LangfuseObservation, step: DemoRetrievalStep, key: string): string {
  const branchStart = plus(step.startTime, -2);
  const branch = open('RunnableSequence', map, branchStart, {
    input: { input: step.query },
    metadata: { tags: [`map:key:${key}`] },
  });
  const isKb = step.index === 'knowledge-base';
  const retriever = open(isKb ? 'VectorStoreRetriever' : 'CustomerHistoryRetriever', branch, step.startTime, {
    input: step.query,
    metadata: isKb
      ? {
          tags: ['seq:step:1'],
          ls_retriever_name: 'vectorstore',
          ls_vector_store_provider: 'PGVectorStore',
          ls_embedding_provider: 'OpenAIEmbeddings',
        }
      : { tags: ['seq:step:1'] },
  });
  const documents = step.documents.map(langchainDocument);
  close(retriever, step.endTime, { output: documents });
  const formatted = step.documents.map((d) => d.pageContent).join('\n\n');
  const format = open('formatDocumentsAsString', branch, plus(step.endTime, 1), {
    input: { input: documents },
    metadata: { tags: ['seq:step:2'] },
  });
  close(format, plus(step.endTime, 2), { output: formatted });
  close(branch, plus(step.endTime, 3), { output: formatted });
  return formatted;
}

export function emitLangChainTrace(trace: DemoTrace): void {
  const gens = trace.steps.filter((s): s is DemoGenerationStep => s.kind === 'generation');
  const rets = trace.steps.filter((s): s is DemoRetrievalStep => s.kind === 'retrieval');
  const answer = gens[gens.length - 1]!;
  const json = answer.purpose === 'classify';
  const inputKey = answer.purpose === 'translate' ? 'text' : answer.purpose === 'classify' ? 'message' : 'question';
  const rootInput = rets.length > 0 ? { input: trace.question } : { [inputKey]: trace.question };

  // A staging deployment sets the environment on its span processor, so every span carries it.
  const run = () => {
    const root = propagateAttributes({ userId: trace.userId, sessionId: trace.sessionId, tags: trace.tags }, () =>
      open('RunnableSequence', undefined, trace.startTime, { input: rootInput, metadata: {} }),
    );
    let tag = 1;
    const rewrite = gens.find((g) => g.purpose === 'rewrite-query');
    if (rewrite) {
      const condense = open('condense_question', root, plus(rewrite.startTime, -3), {
        input: { input: trace.question },
        metadata: { tags: ['seq:step:1'] },
      });
      llmSteps(condense, rewrite, { input: trace.question }, 1, trace.id, false);
      close(condense, plus(rewrite.endTime, 3), { output: rewrite.output });
      tag = 2;
    }
    if (rets.length > 0) {
      const first = rets[0]!;
      const last = rets[rets.length - 1]!;
      const mapStart = plus(first.startTime, -4);
      const map = open('RunnableMap', root, mapStart, {
        input: { input: first.query },
        metadata: { tags: [`seq:step:${tag}`] },
      });
      const output: Record<string, string> = {};
      rets.forEach((step, i) => {
        output[i === 0 ? 'context' : 'customer'] = retrieverBranch(map, step, i === 0 ? 'context' : 'customer');
      });
      const passthrough = open('RunnablePassthrough', map, plus(mapStart, 1), {
        input: { input: trace.question },
        metadata: { tags: ['map:key:question'] },
      });
      close(passthrough, plus(mapStart, 2), { output: trace.question });
      output.question = trace.question;
      close(map, at(last.endTime, answer.startTime, 0.4), { output });
      llmSteps(root, answer, output, tag + 1, trace.id, json);
    } else {
      llmSteps(root, answer, { [inputKey]: trace.question }, 1, trace.id, json);
    }
    close(root, trace.endTime, { output: json ? JSON.parse(answer.output) : trace.answer });
  };
  if (trace.environment) propagateAttributes({ environment: trace.environment }, run);
  else run();
}
