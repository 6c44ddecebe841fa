/** `POST /v1/embeddings`: validation and the answer (scripted vectors first, else fuzzed or lexical vectors). */
import type { JudgeFuzzer } from './fuzz/index.js';
import { HttpError } from './http-util.js';
import { lexicalEmbedding, toBase64 } from './lexical-embedding.js';
import type { Script } from './script.js';
import { countTokens, decode } from './tokens.js';

export interface EmbeddingsAnswer {
  body: Record<string, unknown>;
  promptTokens: number;
}

export interface EmbeddingsRequest {
  inputs: string[];
  format: 'float' | 'base64';
  dimensions?: number;
  model: string;
}

/** Checks the request body (400 with vLLM's envelope when it is not usable). */
export function parseEmbeddingsRequest(body: unknown, servedModel: string, dim: number): EmbeddingsRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'request body must be a JSON object');
  const b = body as Record<string, unknown>;
  const inputs = parseInputs(b.input);
  const format = b.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64')
    throw new HttpError(
      400,
      `encoding_format must be 'float' or 'base64', got ${JSON.stringify(format)}`,
      'BadRequestError',
      'encoding_format',
    );
  const dimensions = b.dimensions;
  if (
    dimensions !== undefined &&
    dimensions !== null &&
    (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > dim)
  ) {
    throw new HttpError(400, `dimensions must be an integer between 1 and ${dim}`, 'BadRequestError', 'dimensions');
  }
  return {
    inputs,
    format,
    ...(typeof dimensions === 'number' ? { dimensions } : {}),
    model: typeof b.model === 'string' && b.model !== '' ? b.model : servedModel,
  };
}

export interface EmbeddingsAnswerOptions {
  /** Fuzzing mode: vectors drawn from the edge cases instead of lexical ones (scripted vectors still win). */
  fuzzer?: JudgeFuzzer;
  /** A fault that breaks the answer's shape: one vector too few (or too many), or one vector one component short. */
  fault?: 'wrong_count' | 'wrong_dimension';
}

export function answerEmbeddings(
  request: EmbeddingsRequest,
  dim: number,
  script: Script,
  options: EmbeddingsAnswerOptions = {},
): EmbeddingsAnswer {
  const { inputs, format, dimensions } = request;
  const fuzzed = options.fuzzer?.vectors(inputs.length, dimensions ?? dim, format === 'base64');
  let promptTokens = 0;
  let vectors = inputs.map((text, i) => {
    promptTokens += countTokens(text);
    let vector = script.vectorFor(text) ?? fuzzed?.[i] ?? lexicalEmbedding(text, dim);
    if (typeof dimensions === 'number' && dimensions < vector.length) vector = renormalise(vector.slice(0, dimensions));
    return vector;
  });
  if (options.fault === 'wrong_count') vectors = vectors.length > 1 ? vectors.slice(0, -1) : [...vectors, ...vectors];
  if (options.fault === 'wrong_dimension')
    vectors = vectors.map((v, i) => (i === vectors.length - 1 ? v.slice(0, -1) : v));
  const data = vectors.map((vector, index) => ({
    index,
    object: 'embedding',
    embedding: format === 'base64' ? toBase64(vector) : vector,
  }));
  return {
    promptTokens,
    body: {
      id: `embd-${Date.now().toString(16)}`,
      object: 'list',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      data,
      usage: {
        prompt_tokens: promptTokens,
        total_tokens: promptTokens,
        completion_tokens: 0,
        prompt_tokens_details: null,
      },
    },
  };
}

function parseInputs(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.length > 0) {
    if (input.every((x) => typeof x === 'string')) return input as string[];
    if (input.every((x) => typeof x === 'number')) return [decode(input as number[])];
    if (input.every((x) => Array.isArray(x) && x.every((y) => typeof y === 'number')))
      return (input as number[][]).map((ids) => decode(ids));
  }
  throw new HttpError(
    400,
    'input must be a string, a non-empty list of strings, or token ids',
    'BadRequestError',
    'input',
  );
}

function renormalise(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}
