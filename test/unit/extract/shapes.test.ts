import { describe, expect, it } from 'vitest';
import { chunksFrom, dedupeChunks } from '../../../src/extract/chunks.js';
import { embeddedContexts } from '../../../src/extract/embedded.js';
import { extractRagSample } from '../../../src/extract/extract.js';
import { mappingProblems } from '../../../src/extract/mapping.js';
import { evaluatePath, parsePath } from '../../../src/extract/path.js';
import { answerFrom, questionFrom } from '../../../src/extract/text-fields.js';
import type { ObservationRecord, TraceRecord } from '../../../src/langfuse/core/types.js';

let seq = 0;
function obs(
  type: string,
  name: string,
  input: unknown,
  output: unknown,
  extra: Partial<ObservationRecord> = {},
): ObservationRecord {
  seq++;
  return {
    id: `o${seq}`,
    parentObservationId: null,
    type,
    name,
    startTime: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    input,
    output,
    metadata: null,
    ...extra,
  };
}
function trace(input: unknown, output: unknown, observations: ObservationRecord[]): TraceRecord {
  return {
    id: 'tr-1',
    name: 'rag',
    timestamp: '2026-01-01T00:00:00.000Z',
    environment: 'default',
    input,
    output,
    metadata: null,
    tags: [],
    observations,
  };
}

describe('chunk shapes', () => {
  it.each([
    ['plain strings', ['a b', 'c d'], ['a b', 'c d']],
    ['LangChain JS Documents', [{ pageContent: 'x y', metadata: {} }], ['x y']],
    ['LangChain Python Documents', [{ page_content: 'x y', metadata: {}, type: 'Document' }], ['x y']],
    ['LlamaIndex NodeWithScore', [{ node: { text: 'n1' }, score: 0.5 }], ['n1']],
    ['LlamaIndex text_resource node', [{ node: { text_resource: { text: 'n2' } }, score: 0.5 }], ['n2']],
    ['Haystack Documents', { documents: [{ id: '1', content: 'h', meta: {}, score: 1 }] }, ['h']],
    ['Pinecone matches', { matches: [{ id: 'p', score: 0.9, metadata: { text: 'pine' } }] }, ['pine']],
    ['Qdrant points', [{ id: 1, score: 0.9, payload: { page_content: 'qd' } }], ['qd']],
    ['Elasticsearch hits', { hits: { total: 1, hits: [{ _id: 'e', _source: { text: 'elastic' } }] } }, ['elastic']],
    [
      'Bedrock knowledge base',
      { retrievalResults: [{ content: { text: 'bedrock' }, location: {}, score: 0.7 }] },
      ['bedrock'],
    ],
    ['Azure AI Search', { value: [{ '@search.score': 1, content: 'azure' }] }, ['azure']],
    ['Chroma nested lists', { ids: [['a']], documents: [['chroma']], distances: [[0.1]] }, ['chroma']],
    ['DSPy passages', { passages: [{ long_text: 'dspy' }] }, ['dspy']],
    ['Dify result', { result: [{ content: 'dify', title: 't', metadata: {} }] }, ['dify']],
    ['nested context key', { context: [{ chunk: 'c1' }, { document: 'c2' }] }, ['c1', 'c2']],
    ['JSON-string documents', '[{"pageContent":"s1"},{"pageContent":"s2"}]', ['s1', 's2']],
    ['content parts', [{ content: [{ type: 'text', text: 'part' }], id: 'x' }], ['part']],
  ])('%s', (_name, value, expected) => {
    expect(chunksFrom(value)).toEqual(expected);
  });

  it('does not read chat messages as chunks and de-duplicates ignoring whitespace', () => {
    expect(chunksFrom([{ role: 'user', content: 'hello' }])).toEqual([]);
    expect(dedupeChunks(['a  b', 'a b', ' c ', 'a b\n'])).toEqual(['a  b', 'c']);
  });
});

describe('question and answer shapes', () => {
  it.each([
    ['string', 'What is X?', 'What is X?'],
    ['{question}', { question: 'Q1?' }, 'Q1?'],
    ['{query}', { query: 'Q2?' }, 'Q2?'],
    ['{input}', { input: 'Q3?', chat_history: [] }, 'Q3?'],
    [
      '{messages}, last user turn',
      {
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'a' },
          { role: 'user', content: 'second?' },
        ],
      },
      'second?',
    ],
    [
      'LangChain lc-serialized',
      [
        [
          {
            lc: 1,
            type: 'constructor',
            id: ['langchain', 'schema', 'messages', 'HumanMessage'],
            kwargs: { content: 'lc?' },
          },
        ],
      ],
      'lc?',
    ],
    ['@observe args', { args: ['positional?'], kwargs: {} }, 'positional?'],
    ['@observe kwargs', { args: [], kwargs: { query: 'named?' } }, 'named?'],
    ['LlamaIndex query bundle', { query_bundle: { query_str: 'li?' } }, 'li?'],
    ['JSON string', '{"question":"json?"}', 'json?'],
    ['Gemini parts', [{ role: 'user', parts: [{ text: 'gem?' }] }], 'gem?'],
  ])('question from %s', (_n, value, expected) => {
    expect(questionFrom(value)).toBe(expected);
  });

  it('does not take ids for questions', () => {
    expect(questionFrom({ user_id: 'u-123' })).toBeNull();
    expect(questionFrom({ topic: 'How do refunds work?' })).toBe('How do refunds work?');
  });

  it.each([
    ['string', 'ans', 'ans'],
    ['OpenAI message', { role: 'assistant', content: 'm' }, 'm'],
    ['OpenAI completion', { choices: [{ message: { role: 'assistant', content: 'c' } }] }, 'c'],
    ['legacy completion', { choices: [{ text: 't' }] }, 't'],
    ['Responses API item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'r' }] }, 'r'],
    [
      'Anthropic message',
      { id: 'm', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'claude' }] },
      'claude',
    ],
    ['Gemini', { candidates: [{ content: { role: 'model', parts: [{ text: 'gem' }] } }] }, 'gem'],
    ['Bedrock converse', { output: { message: { role: 'assistant', content: [{ text: 'br' }] } } }, 'br'],
    ['LangChain LLMResult', { generations: [[{ text: 'gen', generation_info: {} }]] }, 'gen'],
    ['LangChain AIMessage', { content: 'ai', type: 'ai', additional_kwargs: {} }, 'ai'],
    ['Haystack replies', { replies: ['hay'] }, 'hay'],
    ['LlamaIndex response', { response: 'li', source_nodes: [] }, 'li'],
    ['retrieval chain', { input: 'q', context: [], answer: 'rc' }, 'rc'],
    [
      'agent messages',
      {
        messages: [
          { type: 'human', content: 'q' },
          { type: 'ai', content: 'final' },
        ],
      },
      'final',
    ],
  ])('answer from %s', (_n, value, expected) => {
    expect(answerFrom(value)).toBe(expected);
  });

  it('a tool call or a document list is no answer', () => {
    expect(answerFrom({ role: 'assistant', content: null, tool_calls: [{ id: 'x' }] })).toBeNull();
    expect(answerFrom([{ pageContent: 'doc', metadata: {} }])).toBeNull();
    expect(answerFrom({ status: 'ok' })).toBeNull();
  });
});

describe('contexts embedded in prompts', () => {
  it('reads "Context:" blocks, fenced LlamaIndex blocks, XML tags and Spanish headers', () => {
    expect(embeddedContexts('Context:\nA.\n---\nB.\n\nQuestion: q?')?.contexts).toEqual(['A.', 'B.']);
    expect(
      embeddedContexts(
        'Context information is below.\n---------------------\nC1\n---------------------\nGiven the context information, answer.\nQuery: q\nAnswer: ',
      )?.contexts,
    ).toEqual(['C1']);
    expect(embeddedContexts('Use the docs.\n<context>\nX1\n</context>\nq?')?.contexts).toEqual(['X1']);
    expect(embeddedContexts('Contexto:\n[1] Uno.\n[2] Dos.\n\nPregunta: ¿q?')?.contexts).toEqual(['Uno.', 'Dos.']);
    expect(embeddedContexts('You are a helpful assistant. Be brief.')).toBeNull();
    expect(embeddedContexts('Documents are important for audits.')).toBeNull();
  });
});

describe('extractRagSample', () => {
  it('a malformed trace is skipped as such', () => {
    expect(extractRagSample(null as unknown as TraceRecord)).toMatchObject({ ok: false, reason: 'malformed_trace' });
    expect(extractRagSample({ id: 'x', observations: 'no' } as unknown as TraceRecord)).toMatchObject({
      ok: false,
      reason: 'malformed_trace',
    });
  });

  it('takes the question from the first user message of the answering generation when nothing else carries it', () => {
    const t = trace(null, null, [
      obs('RETRIEVER', 'search', null, ['doc one']),
      obs(
        'GENERATION',
        'llm',
        [
          { role: 'system', content: 'Be kind' },
          { role: 'user', content: 'Context:\ndoc one\n\nQuestion: What is one?' },
        ],
        { role: 'assistant', content: 'One.' },
      ),
    ]);
    const r = extractRagSample(t);
    expect(r).toMatchObject({ ok: true, sample: { question: 'What is one?', answer: 'One.', contexts: ['doc one'] } });
  });

  it('several generations without trace output: the last generation answers', () => {
    const t = trace('q?', null, [
      obs('RETRIEVER', 'r', 'q?', ['ctx']),
      obs('GENERATION', 'draft', [{ role: 'user', content: 'q?' }], 'draft answer'),
      obs('GENERATION', 'final', [{ role: 'user', content: 'q?' }], 'final answer'),
    ]);
    expect(extractRagSample(t)).toMatchObject({ ok: true, sample: { answer: 'final answer' } });
  });

  it('several retrievals: chunks in retrieval order, de-duplicated', () => {
    const t = trace('q?', 'a', [
      obs('RETRIEVER', 'r1', 'q?', ['x', 'y']),
      obs('RETRIEVER', 'r2', 'q?', [
        { text: 'y', score: 1 },
        { text: 'z', score: 1 },
      ]),
    ]);
    expect(extractRagSample(t)).toMatchObject({ ok: true, sample: { contexts: ['x', 'y', 'z'] } });
  });

  it('an explicit mapping wins over detection, per field', () => {
    const t = trace({ payload: { user_msg: 'mapped question?' } }, { data: { reply_text: 'mapped answer' } }, [
      obs('SPAN', 'kb', { q: 'x' }, { hits: [{ body_text: 'k1' }, { body_text: 'k2' }] }),
      obs('RETRIEVER', 'auto-retriever', 'x', ['auto chunk']),
    ]);
    const r = extractRagSample(t, {
      question: { path: 'input.payload.user_msg' },
      answer: { path: 'output.data.reply_text' },
      contexts: { observation: 'kb', path: 'output.hits[*].body_text' },
    });
    expect(r).toMatchObject({
      ok: true,
      sample: { question: 'mapped question?', answer: 'mapped answer', contexts: ['k1', 'k2'] },
    });
    expect(r.ok && r.shape).toContain('mapping:kb.output.hits[*].body_text');
    const missing = extractRagSample(t, { contexts: { type: 'GENERATION', path: 'output' } });
    expect(missing).toMatchObject({ ok: false, reason: 'no_contexts' });
  });

  it('sample meta carries ids and the extraction shape, never text beyond the sample fields', () => {
    const t = trace('q?', 'a', [obs('RETRIEVER', 'r', 'q?', ['secret chunk'])]);
    const r = extractRagSample(t);
    if (!r.ok) throw new Error('expected a sample');
    expect(JSON.stringify(r.sample.meta)).not.toContain('secret chunk');
    expect(r.sample.meta).toMatchObject({
      extraction: r.shape,
      traceTimestamp: '2026-01-01T00:00:00.000Z',
      environment: 'default',
    });
  });
});

describe('mapping paths', () => {
  it('parses keys, indexes, negative indexes, wildcards and quoted keys', () => {
    const root = { input: { messages: [{ content: 'a' }, { content: 'b' }] }, metadata: { 'retrieval.docs': ['d'] } };
    expect(evaluatePath(root, parsePath('input.messages[-1].content'))).toEqual(['b']);
    expect(evaluatePath(root, parsePath('input.messages[*].content'))).toEqual(['a', 'b']);
    expect(evaluatePath(root, parsePath('metadata["retrieval.docs"]'))).toEqual([['d']]);
    expect(() => parsePath('input..x[')).toThrow();
    expect(mappingProblems({ question: { path: 'input[' } })).toHaveLength(1);
    expect(mappingProblems({ question: { path: 'input.q' } })).toEqual([]);
  });
});
