import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embeddedContexts } from '../../../src/extract/embedded.js';
import { extractRagSample } from '../../../src/extract/extract.js';
import { integrationExpectations, loadIntegrationTrace } from './integration-fixtures.js';

/** Documents laid into a prompt: each context is the document's text, without the prompt's framing. */

const ONE = 'Si ya pagaste el pedido, el reembolso llega en 5 días hábiles a tu método de pago original.';
const TWO = 'Los pedidos a Canarias tardan de 5 a 8 días laborables y pasan por aduana.';

function fixtureContexts(scenario: string): string[] {
  const want = integrationExpectations('langfuse-openai').scenarios[scenario]!.expect;
  if (want.kind !== 'rag') throw new Error('not a RAG scenario');
  return want.contexts;
}

describe('contexts read out of a prompt', () => {
  it("drop the prompt's own [n] numbering", () => {
    expect(
      embeddedContexts(`Contexto:\n[1] ${ONE}\n[2] ${TWO}\n\nPregunta: ¿Cuándo llega mi reembolso?`)?.contexts,
    ).toEqual([ONE, TWO]);
    const result = extractRagSample(loadIntegrationTrace('langfuse-openai', 'user-numbered-spanish', 'v3'));
    expect(result.ok && result.sample.contexts).toEqual(fixtureContexts('user-numbered-spanish'));
  });

  it('split documents separated by --- lines, the first one included', () => {
    expect(embeddedContexts(`Context:\n---\n${ONE}\n---\n${TWO}\n---\n\nQuestion: q?`)?.contexts).toEqual([ONE, TWO]);
    const result = extractRagSample(loadIntegrationTrace('langfuse-openai', 'user-dash-separated', 'v4'));
    expect(result.ok && result.sample.contexts).toEqual(fixtureContexts('user-dash-separated'));
  });
});

describe('the usual layouts of documents in a prompt', () => {
  const docs = [ONE, TWO];
  const q = '\n\nQuestion: when?';
  it.each<[string, string]>([
    [
      'XML items in a container',
      `Answer from the documents.\n<documents>\n<document index="1">\n${ONE}\n</document>\n<document index="2">\n${TWO}\n</document>\n</documents>${q}`,
    ],
    ['bare XML items', `<document id="a">${ONE}</document>\n<document id="b">${TWO}</document>${q}`],
    [
      'items with source and content tags',
      `<documents><document index="1"><source>faq.md</source><document_content>${ONE}</document_content></document><document index="2"><source>ship.md</source><document_content>${TWO}</document_content></document></documents>`,
    ],
    [
      'a <context> block with documents joined by blank lines',
      `Use this context.\n<context>\n${ONE}\n\n${TWO}\n</context>${q}`,
    ],
    ['a JSON array of strings', `Context: ${JSON.stringify(docs)}${q}`],
    [
      'a JSON array of objects',
      `Passages:\n${JSON.stringify(docs.map((text, i) => ({ id: i, text, score: 0.5 })))}${q}`,
    ],
    ['[n] markers', `Context:\n[1] ${ONE}\n[2] ${TWO}${q}`],
    ['[n]: markers on their own lines', `Sources:\n[1]:\n${ONE}\n[2]:\n${TWO}${q}`],
    ['Document n: headers', `Documents:\nDocument 1:\n${ONE}\n\nDocument 2:\n${TWO}${q}`],
    ['Document n: inline', `Documents:\nDocument 1: ${ONE}\nDocument 2: ${TWO}${q}`],
    [
      'markdown source headers with a file name',
      `## Sources\n### Source 1 (devoluciones.md):\n${ONE}\n### Source 2 (envios.md):\n${TWO}${q}`,
    ],
    ['--- rules without a leading rule', `Context:\n${ONE}\n---\n${TWO}${q}`],
    ['=== rules around every document', `Context:\n===\n${ONE}\n===\n${TWO}\n===${q}`],
    ['blank lines', `Context:\n\n${ONE}\n\n${TWO}${q}`],
    [
      'blank lines with metadata lines per document',
      `Context:\nsource: a.md\ntitle: Refunds\n\n${ONE}\n\nsource: b.md\n\n${TWO}${q}`,
    ],
    [
      'title and content labels',
      `Context:\n[1] Title: Refunds\nContent: ${ONE}\n[2] Title: Shipping\nContent: ${TWO}${q}`,
    ],
    ['bullets', `Context:\n- ${ONE}\n- ${TWO}${q}`],
    [
      'Spanish instructions and headers',
      `Responde con los siguientes fragmentos:\nFragmento 1: ${ONE}\nFragmento 2: ${TWO}\n\nPregunta: ¿cuándo?`,
    ],
    ['[Document n] lines', `Context:\n[Document 1]\n${ONE}\n[Document 2]\n${TWO}${q}`],
    ['Context #n: without a header', `Context #1:\n${ONE}\nContext #2:\n${TWO}${q}`],
    [
      'markdown headings for the block, each document and the question',
      `# Documents\n\n## Document 1\n${ONE}\n\n## Document 2\n${TWO}\n\n# Question\nwhen?`,
    ],
    ['JSON Lines', `Context:\n${docs.map((text) => JSON.stringify({ text })).join('\n')}${q}`],
    [
      "Haystack's indented template",
      `Given the following information, answer the question.\nContext:\n\n    ${ONE}\n\n    ${TWO}\n\nQuestion: when?\nAnswer:`,
    ],
    [
      'the LangChain hub RAG prompt (context after the question)',
      `You are an assistant for question-answering tasks. Use the following pieces of retrieved context to answer the question.\nQuestion: when? \nContext: ${ONE}\n\n${TWO} \nAnswer:`,
    ],
  ])('%s', (_name, prompt) => {
    expect(embeddedContexts(prompt)?.contexts).toEqual(docs);
  });

  it("LlamaIndex's fenced template: the context between the rules, the instructions after them left out", () => {
    const prompt = `Context information is below.\n---------------------\nsource: a.md\n\n${ONE}\n\nsource: b.md\n\n${TWO}\n---------------------\nGiven the context information and not prior knowledge, answer the query.\nQuery: when?\nAnswer: `;
    expect(embeddedContexts(prompt)).toMatchObject({ contexts: docs, framing: 'blank-lines' });
  });

  it('a single document keeps its lists, inline citations and numbers', () => {
    const doc =
      'To reset the Hub:\n- hold the button for 10 s [2]\n- wait for the red light (about 1 min).\nSee Document 3 for Wi-Fi.';
    expect(embeddedContexts(`Context:\n${doc}\n\nQuestion: how?`)?.contexts).toEqual([doc]);
  });

  it.each([
    'You are a helpful assistant. Be brief.',
    'Documents are important for audits.',
    "Rules:\n- Be brief.\n- Answer in the user's language.\n---\nTone: friendly.",
    'Translate the following text into French: good morning',
  ])('no context block in %j', (prompt) => {
    expect(embeddedContexts(prompt)).toBeNull();
  });
});

describe('prompt splitting against generated documents (property)', () => {
  const START_WORDS = [
    'The',
    'Our',
    'Returns',
    'Los',
    'Las',
    'Shipping',
    'Customers',
    'Se',
    'Para',
    'When',
    'Every',
    'Lumora',
  ];
  const WORDS = [
    'plan',
    'hub',
    'devolución',
    'envío',
    '30',
    '9,95 €',
    '2.4 GHz',
    '[3]',
    '(see 2)',
    '--',
    '<b>',
    'Document',
    'source',
    'Q:',
    '—',
    '→',
    'ñandú',
    '😀',
    'e.g.',
    'v1.2',
    'https://lumora.example/help?id=4',
    '#5',
    '*',
    "'quoted'",
    '"q"',
    '{a}',
    '[x]',
    'días',
    'context',
    'question',
    '1.',
    'x:y',
  ];
  const sentence = fc
    .tuple(
      fc.constantFrom(...START_WORDS),
      fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 12 }),
      fc.constantFrom('.', '!', '?', ';'),
    )
    .map(([first, rest, end]) => `${first} ${rest.join(' ')}${end}`);
  /** Prose: sentences on one line or a few lines, never a blank line, a rule or a marker at a line start. */
  const document = fc
    .array(fc.tuple(sentence, fc.constantFrom(' ', '\n')), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.map(([s, sep], i) => (i === 0 ? s : `${sep}${s}`)).join(''));
  const templates: Record<string, (docs: string[]) => string> = {
    numbered: (d) => `Context:\n${d.map((x, i) => `[${i + 1}] ${x}`).join('\n')}`,
    'document headers': (d) => `Documents:\n${d.map((x, i) => `Document ${i + 1}:\n${x}`).join('\n\n')}`,
    'inline document labels': (d) => `Documents:\n${d.map((x, i) => `Document ${i + 1}: ${x}`).join('\n')}`,
    'xml items': (d) =>
      `<documents>\n${d.map((x, i) => `<document index="${i + 1}">\n${x}\n</document>`).join('\n')}\n</documents>`,
    'context tag, blank lines': (d) => `<context>\n${d.join('\n\n')}\n</context>`,
    rules: (d) => `Context:\n${d.join('\n---\n')}`,
    'fenced rules': (d) => `Context:\n---\n${d.join('\n---\n')}\n---`,
    'blank lines': (d) => `Context:\n\n${d.join('\n\n')}`,
    'json strings': (d) => `Context: ${JSON.stringify(d)}`,
    'json objects': (d) => `Passages:\n${JSON.stringify(d.map((text, id) => ({ id, text })))}`,
  };

  it('every layout yields exactly the documents laid in, one document included', () => {
    fc.assert(
      fc.property(
        fc.array(document, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...Object.keys(templates)),
        (docs, name) => {
          const prompt = `${templates[name]!(docs)}\n\nQuestion: ${docs[0]!.split(' ')[0]} what?`;
          expect(embeddedContexts(prompt)?.contexts).toEqual(docs);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('a single document without framing stays one context, whatever its lines look like', () => {
    fc.assert(
      fc.property(
        document,
        fc.constantFrom(
          'Context:\n',
          'Context information is below.\n',
          'Use the following context to answer.\n',
          'Contexto:\n',
        ),
        (doc, header) => {
          expect(embeddedContexts(`${header}${doc}\n\nQuestion: what?`)?.contexts).toEqual([doc]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the framing never leaks into a context', () => {
    const framing = [
      /^\s*\[\d+\]/,
      /^\s*Document \d+:/,
      /<\/?(document|documents|context)\b/,
      /^\s*-{3,}\s*$/m,
      /^Context:/m,
      /^Question:/m,
      /^"?\[?\{"(id|text)"/,
    ];
    fc.assert(
      fc.property(
        fc.array(document, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...Object.keys(templates)),
        (docs, name) => {
          for (const context of embeddedContexts(`${templates[name]!(docs)}\n\nQuestion: what?`)?.contexts ?? []) {
            for (const pattern of framing) expect(context).not.toMatch(pattern);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
