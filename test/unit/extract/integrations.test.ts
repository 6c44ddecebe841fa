import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractRagSample } from '../../../src/extract/extract.js';
import {
  fixtureFilesOf,
  integrationExpectations,
  integrationNames,
  loadIntegrationTrace,
  READ_PATHS,
} from './integration-fixtures.js';

/**
 * Every integration's committed traces, produced by the real packages through the Langfuse stand-in, read
 * on both read paths: the extracted question, answer and contexts must be exactly what the app used,
 * and the non-RAG requests must be skipped.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const installed = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
/** Packages pinned to an exact version for the fixtures: changing one is a deliberate upgrade. Ranged ones are checked live. */
const pinned = new Set(
  Object.entries(
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
      .devDependencies,
  )
    .filter(([, spec]) => /^\d+\.\d+\.\d+$/.test(spec))
    .map(([name]) => name),
);

describe('integration fixtures', () => {
  it('cover every integration the issue names, each with RAG and non-RAG traces', () => {
    const names = integrationNames();
    expect(names).toEqual(
      [
        'langfuse-openai',
        'langgraph-langfuse',
        'openai-agents',
        'openllmetry-langchain',
        'openllmetry-llamaindex',
        'openllmetry-openai',
        'otel-genai',
        'vercel-ai-sdk',
      ].sort(),
    );
    for (const name of names) {
      const kinds = Object.values(integrationExpectations(name).scenarios).map((s) => s.expect.kind);
      expect(kinds, name).toContain('rag');
      expect(kinds, name).toContain('skip');
    }
  });

  for (const name of integrationNames()) {
    describe(name, () => {
      const expected = integrationExpectations(name);

      it('has both read paths of every scenario and nothing else', () => {
        const files = Object.keys(expected.scenarios).flatMap((s) => READ_PATHS.map((p) => `${s}.${p}.json`));
        expect(fixtureFilesOf(name)).toEqual(files.sort());
      });

      it('was produced by the installed versions of its pinned packages (else: npm run fixtures:integrations)', () => {
        const checked = Object.entries(expected.packages).filter(([pkg]) => pinned.has(pkg));
        for (const [pkg, version] of checked) expect(`${pkg}@${installed(pkg)}`).toBe(`${pkg}@${version}`);
      });

      for (const [scenario, { expect: want }] of Object.entries(expected.scenarios)) {
        for (const path of READ_PATHS) {
          it(`${scenario} (${path} read path)`, () => {
            const result = extractRagSample(loadIntegrationTrace(name, scenario, path));
            if (want.kind === 'skip') {
              expect(result).toMatchObject({ ok: false, reason: want.reason });
              return;
            }
            if (!result.ok) throw new Error(`skipped with ${result.reason}: ${result.detail ?? ''}`);
            expect(result.sample.question).toBe(want.question);
            expect(result.sample.answer).toBe(want.answer);
            expect(result.sample.contexts).toEqual(want.contexts);
            expect(result.parts.contexts.from).toBe(want.contextsFrom);
          });
        }
      }
    });
  }
});
