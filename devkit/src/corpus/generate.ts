import { casual, customerRecordDocument, fill, formatContext, searchQueryFor } from './compose.js';
import { PHRASES } from './data/phrases.js';
import { chunkById, goldenItems, searchKnowledge } from './knowledge.js';
import type {
  AnswerQuality,
  DemoChatMessage,
  DemoDocument,
  DemoGenerationStep,
  DemoKind,
  DemoShape,
  DemoTrace,
  DemoVariant,
} from './model.js';
import { makePerson } from './pii.js';
import { apportion, createRng, hexId, type Rng } from './random.js';
import { TraceBuilder, rankDocuments } from './trace-builder.js';
import type { DemoLanguage, GoldenItem } from './types.js';

export interface GenerateDemoTracesOptions {
  seed: number | string;
  count: number;
  /** End of the time window the traces are spread over. Defaults to {@link DEMO_EPOCH} so the output is pure. */
  now?: Date;
  /** Length of the window, in minutes (default 60). */
  windowMinutes?: number;
}

/** Fixed default "now" so `generateDemoTraces({ seed, count })` is reproducible; `seedDemo` passes its clock. */
export const DEMO_EPOCH = new Date('2025-06-02T10:00:00.000Z');

/** Target mix. Counts are apportioned exactly (largest remainder), then shuffled by the seed. */
export const DEMO_MIX = {
  language: { es: 60, en: 40 },
  shape: { langchain: 30, openai: 25, tracing: 30, ingestion: 15 },
  kind: { rag: 70, 'no-retrieval': 8, 'empty-context': 9, 'non-rag': 13 },
  environment: { default: 92, staging: 8 },
  ragQuality: { grounded: 60, 'unsupported-claim': 16, evasive: 12, 'off-topic': 12 },
  ragTrait: { plain: 62, multiRetrieval: 14, multiGeneration: 14, retrievalMiss: 10 },
} as const;

type RagTrait = keyof typeof DEMO_MIX.ragTrait;

interface Slot {
  language: DemoLanguage;
  shape: DemoShape;
  kind: DemoKind;
  environment?: string;
  quality?: AnswerQuality;
  trait?: RagTrait;
}

function spread<K extends string>(rng: Rng, count: number, weights: Record<K, number>): K[] {
  const counts = apportion(count, weights);
  const list: K[] = [];
  for (const key of Object.keys(counts) as K[]) for (let i = 0; i < counts[key]; i++) list.push(key);
  return rng.shuffle(list);
}

function planSlots(rng: Rng, count: number): Slot[] {
  const languages = spread(rng.fork('language'), count, DEMO_MIX.language);
  const shapes = spread(rng.fork('shape'), count, DEMO_MIX.shape);
  const kinds = spread(rng.fork('kind'), count, DEMO_MIX.kind);
  const environments = spread(rng.fork('environment'), count, DEMO_MIX.environment);
  const ragCount = kinds.filter((k) => k === 'rag').length;
  const qualities = spread(rng.fork('quality'), ragCount, DEMO_MIX.ragQuality);
  const traits = spread(rng.fork('trait'), ragCount, DEMO_MIX.ragTrait);
  let r = 0;
  return kinds.map((kind, i) => {
    const slot: Slot = { language: languages[i]!, shape: shapes[i]!, kind };
    if (environments[i] === 'staging') slot.environment = 'staging';
    if (kind === 'rag') {
      slot.quality = qualities[r];
      slot.trait = traits[r];
      r += 1;
    }
    return slot;
  });
}

function variantFor(rng: Rng, slot: Slot): DemoVariant {
  switch (slot.shape) {
    case 'langchain':
      return 'langchain-chain';
    case 'ingestion':
      return 'ingestion-legacy';
    case 'openai':
      if (slot.kind === 'no-retrieval' || slot.kind === 'non-rag') return 'openai-bare';
      if (slot.trait === 'multiGeneration') return 'openai-with-retriever';
      return rng.chance(0.5) ? 'openai-bare' : 'openai-with-retriever';
    case 'tracing':
      if (slot.kind === 'rag')
        return rng.pick(['tracing-root-io', 'tracing-root-io', 'tracing-inner-io', 'tracing-agent'] as const);
      return rng.chance(0.6) ? 'tracing-root-io' : 'tracing-inner-io';
  }
}

const MODELS: Record<DemoShape, Array<[model: string, responseModel: string]>> = {
  langchain: [['gpt-4o-mini', 'gpt-4o-mini-2024-07-18']],
  openai: [
    ['gpt-4o-mini', 'gpt-4o-mini-2024-07-18'],
    ['gpt-4.1-mini', 'gpt-4.1-mini-2025-04-14'],
  ],
  tracing: [['Qwen/Qwen2.5-14B-Instruct', 'Qwen/Qwen2.5-14B-Instruct']],
  ingestion: [['gpt-3.5-turbo', 'gpt-3.5-turbo-0125']],
};

function traceName(variant: DemoVariant, lang: DemoLanguage, purpose: DemoGenerationStep['purpose']): string {
  if (variant === 'langchain-chain') return 'RunnableSequence';
  if (purpose === 'translate') return 'ticket-translation';
  if (purpose === 'classify') return 'ticket-triage';
  switch (variant) {
    case 'openai-bare':
      return 'support-chat';
    case 'openai-with-retriever':
      return 'rag-answer';
    case 'tracing-root-io':
      return lang === 'es' ? 'asistente-soporte' : 'support-assistant';
    case 'tracing-inner-io':
      return 'handle-message';
    case 'tracing-agent':
      return 'support-agent';
    case 'ingestion-legacy':
      return 'support-bot';
  }
}

/** Mutable state shared by all traces of one run: rotations that make sure every template gets used. */
interface Rotation {
  golden: Record<DemoLanguage, { items: GoldenItem[]; next: number }>;
  wrappers: Record<DemoLanguage, { order: string[]; next: number }>;
  counters: Record<string, number>;
}

function rotate<T>(list: T[], state: Record<string, number>, key: string): T {
  const n = state[key] ?? 0;
  state[key] = n + 1;
  return list[n % list.length]!;
}

function buildTrace(rng: Rng, rotation: Rotation, slot: Slot, index: number, seed: string, start: number): DemoTrace {
  const lang = slot.language;
  const phrases = PHRASES[lang];
  const variant = variantFor(rng, slot);
  const models = rng.pick(MODELS[slot.shape]);
  const temperature = rng.pick([0, 0, 0.2, 0.3]);
  const person = makePerson(rng, lang);
  const userId = `cust-${hexId(8, seed, 'user', index % 17, lang)}`;
  const order = `LH-${rng.between(100000, 999999)}`;
  const b = new TraceBuilder(rng, start);
  const shortSystem = phrases.systemPrompt.split('. ')[0] + '.';
  const withPii = (q: string): string =>
    rng.chance(0.45)
      ? b.take(fill(rotate(rotation.wrappers[lang].order, rotation.counters, `wrap-${lang}`), person, { q, order }))
      : q;

  let kind = slot.kind;
  let quality: AnswerQuality = slot.quality ?? 'not-applicable';
  let question: string;
  let answer: string;
  let goldenItemId: string | undefined;
  let purpose: DemoGenerationStep['purpose'] = 'answer';

  if (kind === 'rag') {
    const golden = rotation.golden[lang];
    const item = golden.items[golden.next++ % golden.items.length]!;
    goldenItemId = item.id;
    question = withPii(rng.chance(0.25) ? casual(item.question) : item.question);
    const multiGeneration = slot.trait === 'multiGeneration';
    let query = question;
    if (multiGeneration) {
      query = b.generation(
        'rewrite-query',
        models,
        0,
        [
          { role: 'system', content: phrases.rewritePrompt },
          { role: 'user', content: question },
        ],
        searchQueryFor(item.question),
      ).output;
    }
    const topK = variant === 'langchain-chain' ? 4 : rng.between(3, 5);
    const relevant = slot.trait === 'retrievalMiss' ? [] : item.sources;
    const exclude = new Set(item.sources);
    const distractors = searchKnowledge(searchQueryFor(item.question), { lang, k: 8, exclude }).map((s) => s.chunk.id);
    const docs = [
      ...b.retrieval('knowledge-base', query, topK, rankDocuments(rng, relevant, distractors, topK)).documents,
    ];
    if (slot.trait === 'multiRetrieval') {
      const record = b.take(fill(phrases.customerRecord, person, { order, note: rng.pick(phrases.customerNotes) }));
      docs.push(
        ...b.retrieval('customer-history', userId, 1, [customerRecordDocument(record, lang, userId, 1)]).documents,
      );
    }
    const others = golden.items.filter(
      (g) => g.sources[0] && item.sources[0] && chunkById(g.sources[0]).topic !== chunkById(item.sources[0]).topic,
    );
    const base =
      quality === 'unsupported-claim'
        ? `${item.reference} ${rng.pick(phrases.unsupportedClaims)}`
        : quality === 'evasive'
          ? rng.pick(phrases.evasiveAnswers)
          : quality === 'off-topic'
            ? rng.pick(others.length > 0 ? others : golden.items).reference
            : item.reference;
    answer = b.pii.has('person') && rng.chance(0.7) ? b.take(fill(phrases.answerGreeting, person)) + base : base;
    b.generation(
      'answer',
      models,
      temperature,
      answerMessages(variant, lang, question, docs, Math.floor(index / 2) % 2 === 1),
      answer,
    );
  } else if (kind === 'empty-context') {
    const [q, hallucinated] = rotate(phrases.outOfScope, rotation.counters, `oos-${lang}`);
    question = withPii(q);
    b.retrieval('knowledge-base', question, variant === 'langchain-chain' ? 4 : 3, []);
    quality = rng.chance(0.55) ? 'abstains' : 'unsupported-claim';
    answer = quality === 'abstains' ? phrases.abstention : hallucinated;
    b.generation(
      'answer',
      models,
      temperature,
      answerMessages(variant, lang, question, [], Math.floor(index / 2) % 2 === 1),
      answer,
    );
  } else if (kind === 'no-retrieval') {
    const [q, a] = rotate(phrases.smallTalk, rotation.counters, `chat-${lang}`);
    question = b.take(fill(q, person));
    answer = b.take(fill(a, person));
    purpose = 'chat';
    b.generation(
      'chat',
      models,
      temperature,
      [
        { role: 'system', content: shortSystem },
        { role: 'user', content: question },
      ],
      answer,
    );
  } else {
    kind = 'non-rag';
    if (rng.chance(0.5)) {
      purpose = 'translate';
      const [source, target] = rotate(phrases.translations, rotation.counters, `tr-${lang}`);
      question = b.take(fill(source, person, { order }));
      answer = b.take(fill(target, person, { order }));
      b.generation(
        'translate',
        models,
        0,
        [
          { role: 'system', content: phrases.translatePrompt },
          { role: 'user', content: question },
        ],
        answer,
      );
    } else {
      purpose = 'classify';
      const [message, label, urgency] = rotate(phrases.classifications, rotation.counters, `cls-${lang}`);
      question = b.take(fill(message, person, { order }));
      answer = JSON.stringify(lang === 'es' ? { categoria: label, urgencia: urgency } : { category: label, urgency });
      b.generation(
        'classify',
        models,
        0,
        [
          { role: 'system', content: phrases.classifyPrompt },
          { role: 'user', content: question },
        ],
        answer,
      );
    }
  }

  const endTime = new Date(b.cursor + rng.between(2, 10));
  const contexts = b.steps.flatMap((s) => (s.kind === 'retrieval' ? s.documents.map((d) => d.pageContent) : []));
  const retrievalCount = b.steps.filter((s) => s.kind === 'retrieval').length;
  const generationCount = b.steps.length - retrievalCount;
  return {
    id: hexId(32, 'ragwatch-demo-trace', seed, index),
    index,
    shape: slot.shape,
    variant,
    kind,
    quality,
    language: lang,
    name: traceName(variant, lang, purpose),
    ...(slot.environment ? { environment: slot.environment } : {}),
    userId,
    sessionId: `sess-${hexId(12, seed, 'session', index)}`,
    tags: kind === 'non-rag' ? ['lumora-assistant', lang, 'backoffice'] : ['lumora-assistant', lang],
    ...(slot.shape === 'ingestion' ? { release: 'support-bot@1.9.3' } : {}),
    startTime: new Date(start),
    endTime,
    question,
    answer,
    steps: b.steps,
    ...(goldenItemId ? { goldenItemId } : {}),
    traits: {
      retrievalMiss: slot.trait === 'retrievalMiss',
      multipleRetrievals: retrievalCount > 1,
      multipleGenerations: generationCount > 1,
    },
    pii: [...b.pii].sort(),
    personalData: [...b.personalData].map(([value, kind]) => ({ kind, value })),
    expected: kind === 'non-rag' ? null : { question, answer, contexts },
  };
}

function answerMessages(
  variant: DemoVariant,
  lang: DemoLanguage,
  question: string,
  docs: DemoDocument[],
  tagged = false,
): DemoChatMessage[] {
  const phrases = PHRASES[lang];
  if (variant === 'openai-bare') {
    const template = tagged ? phrases.userPromptWithTags : phrases.userPromptWithContext;
    const context = formatContext(docs, tagged ? 'tagged' : 'separated');
    return [
      { role: 'system', content: phrases.systemPrompt.split('\n\n')[0]! },
      { role: 'user', content: template.replace('{context}', context).replace('{q}', question) },
    ];
  }
  return [
    { role: 'system', content: phrases.systemPrompt.replace('{context}', formatContext(docs)) },
    { role: 'user', content: question },
  ];
}

/**
 * Generates `count` demo traces, deterministically from `seed`: about 60 % Spanish, across the four
 * integration shapes, with RAG answers of varying quality, traces without retrieval, empty contexts,
 * non-RAG calls and personal data sprinkled in questions, answers and contexts.
 */
export function generateDemoTraces(options: GenerateDemoTracesOptions): DemoTrace[] {
  const { count } = options;
  if (!Number.isInteger(count) || count < 0)
    throw new RangeError(`count must be a non-negative integer (got ${count})`);
  const seed = String(options.seed);
  const now = (options.now ?? DEMO_EPOCH).getTime();
  const windowMs = (options.windowMinutes ?? 60) * 60_000;
  const rng = createRng(`ragwatch-demo:${seed}`);
  const slots = planSlots(rng.fork('plan'), count);
  const timeRng = rng.fork('time');
  // Traces start inside the window and finish at least a minute before its end.
  const starts = slots
    .map(() => now - 60_000 - Math.floor(timeRng.next() * Math.max(0, windowMs - 75_000)))
    .sort((a, b) => a - b);
  const rotation: Rotation = {
    golden: {
      es: { items: rng.fork('golden-es').shuffle(goldenItems({ lang: 'es' })), next: 0 },
      en: { items: rng.fork('golden-en').shuffle(goldenItems({ lang: 'en' })), next: 0 },
    },
    wrappers: {
      es: { order: rng.fork('wrap-es').shuffle(PHRASES.es.questionWrappers), next: 0 },
      en: { order: rng.fork('wrap-en').shuffle(PHRASES.en.questionWrappers), next: 0 },
    },
    counters: {},
  };
  return slots.map((slot, i) => buildTrace(rng.fork(`trace-${i}`), rotation, slot, i, seed, starts[i]!));
}
