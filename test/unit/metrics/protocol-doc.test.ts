import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getMetric } from '../../../src/metrics/registry.js';
import { promptVersion, SCHEMA_NAMES, systemPrompt, type JudgeTask } from '../../../src/metrics/prompts/build.js';
import {
  answerRelevancySchema,
  claimsInReferenceSchema,
  contextPrecisionSchema,
  contextRecallSchema,
  faithfulnessSchema,
} from '../../../src/metrics/prompts/schemas.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';
import { protocolSections, rewriteProtocolDoc } from '../../../src/metrics/protocol-doc.js';

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

  it('shows every task’s schema exactly as it is sent for the example', () => {
    const sent: Record<JudgeTask, Record<string, unknown>> = {
      faithfulness: faithfulnessSchema(5),
      answer_relevancy: answerRelevancySchema(3),
      context_precision: contextPrecisionSchema(5),
      context_recall: contextRecallSchema(5),
      claims_in_reference: claimsInReferenceSchema(2),
    };
    for (const t of tasks) {
      const section = doc.slice(doc.indexOf(`### \`${SCHEMA_NAMES[t]}\``));
      const block = /Schema \(as sent[^\n]*\n\n```json\n([\s\S]*?)\n```/.exec(section)?.[1];
      expect(block, t).toBeDefined();
      expect(JSON.parse(block!), t).toEqual(sent[t]);
    }
  });

  it('gives every metric’s definition version', () => {
    for (const m of [
      'faithfulness',
      'answer_relevancy',
      'context_precision',
      'context_recall',
      'noise_sensitivity',
    ] as const) {
      expect(doc).toMatch(new RegExp(`\\| ${m} \\| ${getMetric(m).definitionVersion} \\|`));
    }
  });

  it('has its generated sections exactly as npm run docs:protocol renders them from the registry and prompts', () => {
    expect(rewriteProtocolDoc(doc)).toBe(doc);
    const sections = protocolSections();
    expect(Object.keys(sections)).toEqual(['families', 'metrics', 'prompt-versions', 'system-messages']);
    for (const [name, body] of Object.entries(sections)) {
      expect(doc).toContain(`<!-- generated:${name} (npm run docs:protocol) -->\n${body}\n<!-- /generated:${name} -->`);
    }
  });

  it('a generated section edited by hand, missing or unknown fails the check', () => {
    const edited = doc.replace('| faithfulness | 2 |', '| faithfulness | 3 |');
    expect(edited).not.toBe(doc);
    expect(rewriteProtocolDoc(edited)).toBe(doc);
    const withoutMetrics = doc.replace(/<!-- generated:metrics [\s\S]*?<!-- \/generated:metrics -->/, '');
    expect(() => rewriteProtocolDoc(withoutMetrics)).toThrow('no generated section metrics');
    const unknown = `${doc}\n<!-- generated:bogus (npm run docs:protocol) -->\nx\n<!-- /generated:bogus -->\n`;
    expect(() => rewriteProtocolDoc(unknown)).toThrow('unknown generated section "bogus"');
  });
});
