import { documentFromChunk, usageFor, type Filled } from './compose.js';
import { chunkById } from './knowledge.js';
import type { DemoChatMessage, DemoDocument, DemoGenerationStep, DemoRetrievalStep, DemoStep } from './model.js';
import type { PiiKind } from './pii.js';
import type { Rng } from './random.js';

/** Accumulates the steps of one trace on its timeline, with the personal data that went into it. */
export class TraceBuilder {
  readonly steps: DemoStep[] = [];
  readonly pii = new Set<PiiKind>();
  readonly personalData = new Map<string, PiiKind>();
  cursor: number;

  constructor(
    private readonly rng: Rng,
    readonly start: number,
  ) {
    this.cursor = start + rng.between(3, 15);
  }

  take(filled: Filled): string {
    for (const k of filled.pii) this.pii.add(k);
    for (const { kind, value } of filled.values) this.personalData.set(value, kind);
    return filled.text;
  }

  private window(durationMs: number): { startTime: Date; endTime: Date } {
    const startTime = new Date(this.cursor);
    const endTime = new Date(this.cursor + durationMs);
    this.cursor += durationMs + this.rng.between(2, 25);
    return { startTime, endTime };
  }

  retrieval(
    index: DemoRetrievalStep['index'],
    query: string,
    topK: number,
    documents: DemoDocument[],
  ): DemoRetrievalStep {
    const step: DemoRetrievalStep = {
      kind: 'retrieval',
      index,
      query,
      topK,
      documents,
      ...this.window(index === 'customer-history' ? this.rng.between(20, 80) : this.rng.between(60, 350)),
    };
    this.steps.push(step);
    return step;
  }

  generation(
    purpose: DemoGenerationStep['purpose'],
    models: [string, string],
    temperature: number,
    messages: DemoChatMessage[],
    output: string,
  ): DemoGenerationStep {
    const usage = usageFor(messages, output);
    const duration = purpose === 'answer' ? 350 + usage.output * this.rng.between(18, 32) : this.rng.between(300, 1200);
    const step: DemoGenerationStep = {
      kind: 'generation',
      purpose,
      model: models[0],
      responseModel: models[1],
      temperature,
      ...(purpose === 'answer' ? { maxTokens: 512 } : {}),
      messages,
      output,
      usage,
      ...this.window(duration),
    };
    this.steps.push(step);
    return step;
  }
}

/** Top-k documents: the relevant chunks score highest, distractors fill the rest, and now and then one outranks them. */
export function rankDocuments(rng: Rng, relevant: string[], distractors: string[], topK: number): DemoDocument[] {
  const picked: Array<{ id: string; score: number }> = [];
  relevant.slice(0, topK).forEach((id, i) => picked.push({ id, score: 0.92 - i * 0.035 - rng.next() * 0.03 }));
  for (const id of distractors) {
    if (picked.length >= topK) break;
    picked.push({ id, score: 0.79 - picked.length * 0.04 - rng.next() * 0.05 });
  }
  // Now and then a distractor outranks a relevant chunk, as embeddings do.
  if (relevant.length > 0 && picked.length > relevant.length && rng.chance(0.2)) {
    const last = picked[picked.length - 1]!;
    last.score = (picked[0]?.score ?? 0.9) + 0.01;
  }
  picked.sort((a, b) => b.score - a.score);
  return picked.map((p, i) => documentFromChunk(chunkById(p.id), i, Math.round(p.score * 10_000) / 10_000));
}
