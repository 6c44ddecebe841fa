import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { promptVersion, SCHEMA_NAMES, systemPrompt, type JudgeTask } from '../../../src/metrics/prompts/build.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const doc = readFileSync(`${REPO_ROOT}docs/judge-protocol.md`, 'utf8');
const tasks = Object.keys(SCHEMA_NAMES) as JudgeTask[];

describe('docs/judge-protocol.md matches the prompts in the code', () => {
  it('lists every schema name and current prompt version', () => {
    for (const t of tasks) {
      expect(doc).toContain(`\`${SCHEMA_NAMES[t]}\``);
      for (const lang of ['en', 'es'] as const) expect(doc).toContain(promptVersion(t, lang));
    }
  });

  it('shows every system message verbatim', () => {
    for (const t of ['faithfulness', 'context_recall'] as const) {
      for (const lang of ['en', 'es'] as const) expect(doc).toContain(systemPrompt(t, lang));
    }
  });
});
