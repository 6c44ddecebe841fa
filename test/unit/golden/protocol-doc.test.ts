import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  adversarialRequest,
  closedBookRequest,
  goldenPromptVersion,
  goldenSystemPrompt,
  questionsRequest,
  referencesRequest,
  supportRequest,
} from '../../../src/golden/prompts/build.js';
import { GOLDEN_SCHEMA_NAMES, type GoldenTask } from '../../../src/golden/prompts/schemas.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const doc = readFileSync(`${REPO_ROOT}docs/judge-protocol.md`, 'utf8');
const c = {
  texts: [
    'La Lumora Cam Exterior graba en 2K, tiene certificación IP65 y visión nocturna hasta 15 metros. Cuesta 99 €.',
    'El historial en la nube de la Lumora Cam requiere una suscripción Lumora Plus (4,99 € al mes) o Pro.',
  ],
  language: 'es' as const,
  budgetTokens: 6000,
};

describe('docs/judge-protocol.md matches the golden-set prompts in the code', () => {
  it('lists every golden schema name and prompt version, and shows every system message verbatim', () => {
    for (const [task, name] of Object.entries(GOLDEN_SCHEMA_NAMES)) {
      expect(doc).toContain(
        `| \`${name}\` | \`${goldenPromptVersion(task as GoldenTask, 'en')}\` | \`${goldenPromptVersion(task as GoldenTask, 'es')}\` |`,
      );
    }
    for (const task of ['questions', 'closedBook', 'support'] as const)
      for (const lang of ['en', 'es'] as const) expect(doc).toContain(goldenSystemPrompt(task, lang));
  });

  it('shows each task’s schema, user message and max_tokens exactly as sent for its example', () => {
    const requests = [
      questionsRequest(c, 'multi-hop', 2),
      adversarialRequest({ ...c, texts: c.texts.slice(0, 1) }, 2),
      referencesRequest(c, [
        '¿En qué resolución graba la Lumora Cam Exterior y qué suscripción necesita para guardar vídeo en la nube?',
        '¿Cuánto cuesta la Lumora Cam Exterior?',
      ]),
      closedBookRequest('¿Cuánto cuesta la Lumora Cam Exterior?', 'es'),
      supportRequest('La Lumora Cam Exterior cuesta 198 €.', 'false_premise', c),
    ];
    for (const r of requests) {
      const section = doc.slice(doc.indexOf(`### \`${r.name}\``));
      const schema = /Schema \(as sent[^\n]*\n\n```json\n([\s\S]*?)\n```/.exec(section)?.[1];
      expect(JSON.parse(schema!), r.name).toEqual(r.schema);
      expect(section, r.name).toContain(`\`\`\`text\n${r.messages[1]!.content}\n\`\`\``);
      expect(section, r.name).toContain(`Request: \`max_tokens: ${r.maxTokens}\`.`);
      const answer = /Answer \(message content\):\n\n```json\n([\s\S]*?)\n```/.exec(section)?.[1];
      expect(() => r.parse(JSON.parse(answer!)), r.name).not.toThrow();
    }
  });
});
