/**
 * JSON Schema validation of the stand-in's own answers (ajv, draft 2020-12 with `definitions` refs working),
 * so every structured answer it sends is valid against the schema the request carried — as vLLM's guided
 * decoding guarantees.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);

const compiled = new Map<string, ValidateFunction>();
const MAX_CACHED = 500;

/** Drops `$schema` (draft-07 and 2020-12 schemas both compile) and `$id` (two requests may reuse one id). */
function normalise(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

export class SchemaCompileError extends Error {
  override name = 'SchemaCompileError';
}

export function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(normalise(schema));
    } catch (err) {
      throw new SchemaCompileError(`invalid JSON schema: ${(err as Error).message}`);
    }
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(key, validate);
  }
  return validate;
}

/** `undefined` when valid, else a readable list of violations. */
export function schemaErrors(schema: Record<string, unknown>, value: unknown): string | undefined {
  const validate = validatorFor(schema);
  if (validate(value)) return undefined;
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
}
