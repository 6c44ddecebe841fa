import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const inRepo = fileURLToPath(new URL('../fixtures/langfuse-api/openapi.yml', import.meta.url));
const shared = fileURLToPath(new URL('../../../shared/langfuse-api/openapi.yml', import.meta.url));

describe('the Langfuse OpenAPI spec the tests validate against', () => {
  it('is the shared spec, byte for byte, when the shared folder is present', () => {
    expect(existsSync(inRepo)).toBe(true);
    if (!existsSync(shared)) return;
    expect(readFileSync(inRepo, 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });
});
