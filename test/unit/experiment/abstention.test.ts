import { describe, expect, it } from 'vitest';
import { abstentionRules } from '@ragwatch/devkit/judge/rules/abstention.js';
import type { JudgeRequest } from '@ragwatch/devkit/judge/types.js';
import {
  abstentionMessages,
  abstentionPromptVersion,
  ABSTENTION_SCHEMA_NAME,
  judgeAbstention,
} from '../../../src/experiment/abstention.js';
import type { JudgeClient, StructuredRequest } from '../../../src/judge/types.js';
import { JudgeCallError } from '../../../src/judge/types.js';

const rule = abstentionRules[0]!;
function standIn(question: string, answer: string): { abstained: number } {
  const messages = abstentionMessages(question, answer, 'en');
  const request = {
    schemaName: ABSTENTION_SCHEMA_NAME,
    lastUser: messages[1]!.content,
    messages,
    system: messages[0]!.content,
  } as unknown as JudgeRequest;
  expect(rule.matches(request)).toBe(true);
  return rule.answer(request) as { abstained: number };
}

/** A judge that answers through the stand-in rule, recording what it was asked. */
function ruleJudge(seen: StructuredRequest<unknown>[]): JudgeClient {
  return {
    model: 'rule',
    async structured<T>(request: StructuredRequest<T>) {
      seen.push(request as StructuredRequest<unknown>);
      const answer = rule.answer({
        schemaName: request.name,
        lastUser: request.messages[1]!.content,
      } as unknown as JudgeRequest);
      return { value: request.parse(answer), usage: { calls: 1, promptTokens: 10, completionTokens: 5, latencyMs: 1 } };
    },
  };
}

describe('abstention', () => {
  it('the stand-in rule recognises refusals and premise corrections in Spanish and English', () => {
    expect(
      standIn('¿Cuánto cuesta la Cam Interior?', 'La documentación no recoge ninguna Cam Interior.').abstained,
    ).toBe(1);
    expect(standIn('¿Por qué falla sin internet?', 'La premisa es falsa: funciona en local.').abstained).toBe(1);
    expect(
      standIn('How much?', 'I do not have enough information in the documentation to answer that question.').abstained,
    ).toBe(1);
    expect(standIn('How much is the indoor cam?', 'The indoor cam costs €79 and ships in two days.').abstained).toBe(0);
  });

  it('asks in the question’s language with a structured answer and a versioned prompt', async () => {
    const seen: StructuredRequest<unknown>[] = [];
    const verdict = await judgeAbstention(ruleJudge(seen), {
      question: '¿Qué comisión paga el programa de afiliados?',
      answer: 'No tengo información suficiente sobre eso.',
    });
    expect(verdict).toMatchObject({
      abstained: true,
      language: 'es',
      promptVersion: abstentionPromptVersion('es'),
      calls: 1,
    });
    expect(seen[0]!.name).toBe('ragwatch_abstention');
    expect(seen[0]!.messages[0]!.content).toContain('TAREA abstention');
    expect(seen[0]!.messages[1]!.content).toMatch(/^<question>[\s\S]*<answer>[\s\S]*TASK: abstention$/);
    expect(abstentionPromptVersion('es')).not.toBe(abstentionPromptVersion('en'));
  });

  it('a judge failure propagates: it is never read as "did not abstain"', async () => {
    const failing: JudgeClient = {
      model: 'down',
      structured: async () => {
        throw new JudgeCallError('connection refused', true, 'connection', 3);
      },
    };
    await expect(judgeAbstention(failing, { question: 'q', answer: 'a' })).rejects.toBeInstanceOf(JudgeCallError);
  });
});
