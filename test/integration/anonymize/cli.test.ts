import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

describe('ragwatch anonymize', () => {
  it('redacts stdin as one text', async () => {
    const res = await runCli(['anonymize'], {
      input: 'Hola, soy Marta Gil (marta.gil@gmail.com), móvil 612 34 56 78. Pagué 42,50 € el 3 de mayo.\n',
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('Hola, soy <PERSON_1> (<EMAIL_1>), móvil <PHONE_1>. Pagué 42,50 € el 3 de mayo.\n');
  });

  it('jsonl: keeps ids and fields, one mapping per line, entities with output positions', async () => {
    const lines = [
      { id: 'a', text: 'Dear Mr. Whitfield, your card 4111 1111 1111 1111 was refunded.' },
      {
        id: 'b',
        question: 'Soy Ana López (ana@x.es)',
        answer: 'Hola Ana López',
        contexts: ['ana@x.es pidió 3 €'],
        reference: 'ana@x.es',
      },
      { id: 'c', text: 'otra@x.es' },
    ];
    const res = await runCli(['anonymize', '--format', 'jsonl'], {
      input: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
    expect(res.code).toBe(0);
    const out = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out[0]).toEqual({
      id: 'a',
      text: 'Dear Mr. <PERSON_1>, your card <CREDIT_CARD_1> was refunded.',
      entities: [
        { type: 'PERSON', field: 'text', start: 9, end: 19, score: 0.9 },
        { type: 'CREDIT_CARD', field: 'text', start: 31, end: 46, score: 1 },
      ],
    });
    expect(out[1]).toMatchObject({
      id: 'b',
      question: 'Soy <PERSON_1> (<EMAIL_1>)',
      answer: 'Hola <PERSON_1>',
      contexts: ['<EMAIL_1> pidió 3 €'],
      reference: '<EMAIL_1>',
    });
    expect(out[1].entities.map((e: { field: string }) => e.field)).toEqual([
      'question',
      'question',
      'answer',
      'contexts[0]',
      'reference',
    ]);
    expect(out[2]).toMatchObject({ id: 'c', text: '<EMAIL_1>' });
  });

  it('reports bad lines by number without echoing them, and exits 2', async () => {
    const res = await runCli(['anonymize', '--format', 'jsonl'], {
      input: '{"id":1,"text":"ok"}\n{not json maria@x.es\n[1]\n',
    });
    expect(res.code).toBe(2);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('line 2: not valid JSON');
    expect(res.stderr).toContain('line 3: expected a JSON object');
    expect(res.stderr).not.toContain('maria');
  });

  it('rejects an unknown format', async () => {
    const res = await runCli(['anonymize', '--format', 'xml'], { input: '' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--format must be text or jsonl');
  });
});
