import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGoldenHarness, type GoldenHarness } from './harness.js';

/**
 * Issue 29, done-when: a golden-set corpus whose chunks carry phones and personal identifiers in the forms no
 * recognizer expected (a phone followed by another number, glued to a key, with its prefix apart, one a numbering
 * plan refuses but the text labels, identifiers after their label) sends none of them to the judge, the generator
 * or the embeddings server: those chunks are no seeds, and retrieval embeds them redacted.
 */

let h: GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FILLER =
  'The hub keeps working offline for up to seventy two hours and syncs its history once the connection is back.';
const CHUNKS: Array<[string, string, string[]]> = [
  [
    'sms',
    'Te avisaremos por SMS al 611 22 33 44 48 horas antes de la visita del técnico.',
    ['611 22 33 44', '611223344'],
  ],
  ['tel-key', 'Contacto del instalador asignado: tel=699112233 (solo en horario de oficina).', ['699112233']],
  [
    'movil-key',
    'Datos del cliente para la cita: movil=0034 699 11 22 33, preferencia de tarde.',
    ['699 11 22 33', '0034 699'],
  ],
  [
    'uk-reserved',
    'For urgent cases the field engineer can be reached on phone +44 7700 900456 today.',
    ['7700 900456', '7700900456'],
  ],
  ['employee', 'The visit was logged by employee id E-48213 after the second replacement.', ['E-48213', '48213']],
  ['socio', 'La garantía ampliada figura a nombre del nº de socio 00452981 desde marzo.', ['00452981']],
  ['customer', 'Refunds for customer number 88-1930 are processed by the billing team.', ['88-1930']],
  ['patient', 'The clinic integration stores patient ID 7730125 next to the hub serial.', ['7730125']],
];

describe('golden build on a corpus carrying phones and identifiers in unexpected forms', () => {
  it('none of them reaches a judge, generator or embeddings request, nor the candidates', async () => {
    h = await startGoldenHarness('v3', { yaml: 'golden: {seeds: {min: 12}}' });
    const lines = CHUNKS.map(([id, text]) =>
      JSON.stringify({ id: `phones-${id}`, text: `${text} ${FILLER} ${FILLER}`, metadata: { section: 'faq' } }),
    );
    await writeFile(join(h.dir, 'corpus', 'zz-phones.jsonl'), `${lines.join('\n')}\n`);

    const built = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
    expect(built.code, built.stderr).toBe(0);
    const summary = JSON.parse(built.stdout);
    // The devkit corpus's two chunks with personal data, and every one of these.
    expect(summary.plan.excluded.personal_data).toBe(2 + CHUNKS.length);

    const requests = h.judge.requests.map((r) => JSON.stringify(r.body));
    expect(requests.some((b) => b.includes('"input"'))).toBe(true); // embeddings were asked
    expect(h.judgeRequests()).toBeGreaterThan(0);
    const candidates = JSON.stringify(h.langfuse.store.datasetItems('rag-golden-candidates'));
    for (const [id, , values] of CHUNKS)
      for (const value of values) {
        const found = requests.filter((b) => b.includes(value)).length;
        expect(found, `${id}: ${value} in ${found} request(s)`).toBe(0);
        expect(candidates.includes(value), `${id}: ${value} in a candidate`).toBe(false);
      }
  });
});
