/** `POST /v1/embeddings`: validation and the answer (scripted vectors first, else lexical vectors). */
import { HttpError } from './http-util.js';
import { lexicalEmbedding, toBase64 } from './lexical-embedding.js';
import type { Script } from './script.js';
import { countTokens, decode } from './tokens.js';

export interface EmbeddingsAnswer {
  body: Record<string, unknown>;
  promptTokens: number;
}

export function answerEmbeddings(body: unknown, servedModel: string, dim: number, script: Script): EmbeddingsAnswer {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'request body must be a JSON object');
  const b = body as Record<string, unknown>;
  const inputs = parseInputs(b.input);
  const format = b.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') throw new HttpError(400, `encoding_format must be 'float' or 'base64', got ${JSON.stringify(format)}`, 'BadRequestError', 'encoding_format');
  const dimensions = b.dimensions;
  if (dimensions !== undefined && dimensions !== null && (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > dim)) {
    throw new HttpError(400, `dimensions must be an integer between 1 and ${dim}`, 'BadRequestError', 'dimensions');
  }
  let promptTokens = 0;
  const data = inputs.map((text, index) => {
    promptTokens += countTokens(text);
    let vector = script.vectorFor(text) ?? lexicalEmbedding(text, dim);
    if (typeof dimensions === 'number' && dimensions < vector.length) vector = renormalise(vector.slice(0, dimensions));
    return { index, object: 'embedding', embedding: format === 'base64' ? toBase64(vector) : vector };
  });
  return {
    promptTokens,
    body: {
      id: `embd-${Date.now().toString(16)}`,
      object: 'list',
      created: Math.floor(Date.now() / 1000),
      model: typeof b.model === 'string' && b.model !== '' ? b.model : servedModel,
      data,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens, completion_tokens: 0, prompt_tokens_details: null },
    },
  };
}

function parseInputs(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.length > 0) {
    if (input.every((x) => typeof x === 'string')) return input as string[];
    if (input.every((x) => typeof x === 'number')) return [decode(input as number[])];
    if (input.every((x) => Array.isArray(x) && x.every((y) => typeof y === 'number'))) return (input as number[][]).map((ids) => decode(ids));
  }
  throw new HttpError(400, 'input must be a string, a non-empty list of strings, or token ids', 'BadRequestError', 'input');
}

function renormalise(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}
