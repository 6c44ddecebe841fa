import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { card, dni, iban, nie, rng } from '../../fixtures/pii/generators.js';
import { runCli } from '../../helpers/run-cli.js';

/**
 * Canary: samples seeded with known personal data go through the real `ragwatch evaluate` against the judge
 * stand-in, which records every request. No canary value may reach the judge or any log line.
 */
const r = rng(20240611);
const ids = { dni: dni(r).surface, nie: nie(r).surface, iban: iban(r, true, 'ES').surface, card: card(r).surface };
const CANARIES = {
  name: 'Rocío Benjumea Ortiz',
  surname: 'Benjumea',
  email: 'canary.rocio@correo-ejemplo.es',
  phone: '+34 612 98 76 54',
  phoneDigits: '612987654',
  dni: ids.dni,
  nie: ids.nie,
  iban: ids.iban,
  card: ids.card,
  cardDigits: ids.card.replace(/\D/g, ''),
  ip: '83.44.120.7',
  street: 'Calle de Toledo 45',
  dob: '14/02/1991',
  secret: 'sk-proj-Xq81kLmZ29aPvB7tRcN0wYhJ',
  english: 'Margaret Thistlewood',
  englishEmail: 'm.thistlewood@example.co.uk',
};

const samples = [
  {
    id: 'canary-es',
    question: `Hola, me llamo ${CANARIES.name.toLowerCase()}, DNI ${CANARIES.dni}. ¿Cuándo me devolvéis los 89 € del pedido 55120? Escribidme a ${CANARIES.email} o llamad al ${CANARIES.phone}.`,
    answer: `Hola ${CANARIES.name}, el reembolso de 89 € del pedido 55120 llegará en 5 días hábiles a la cuenta ${CANARIES.iban}.`,
    contexts: [
      `Ticket 55120. Cliente: ${CANARIES.name}, email ${CANARIES.email}, teléfono ${CANARIES.phone}, domicilio ${CANARIES.street}, 28005 Madrid, fecha de nacimiento ${CANARIES.dob}.`,
      `Reembolso de 89 € aprobado el 3 de junio a la cuenta ${CANARIES.iban}; plazo de abono 5 días hábiles. Acceso desde la IP ${CANARIES.ip}.`,
    ],
    reference: `El reembolso de 89 € llega en 5 días hábiles a la cuenta de la Sra. ${CANARIES.surname}.`,
    language: 'es',
  },
  {
    id: 'canary-en',
    question: `I'm ${CANARIES.english} (${CANARIES.englishEmail}). Was my card ${CANARIES.card} charged twice for order 7781?`,
    answer: `No, ${CANARIES.english}: the second $42.10 authorisation on ${CANARIES.card} was voided two minutes later.`,
    contexts: [
      `Payment log for order 7781: card ${CANARIES.card} authorised $42.10 twice, second voided. Customer NIE ${CANARIES.nie}. Support key used: ${CANARIES.secret}.`,
    ],
    language: 'en',
  },
];

let server: JudgeServer;
let dir: string;

beforeAll(async () => {
  server = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'ragwatch-canary-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
});

async function evaluate(extraArgs: string[] = []) {
  const config = join(dir, 'ragwatch.yaml');
  await writeFile(
    config,
    `judge:\n  baseUrl: ${server.url}\n  maxAttempts: 1\n  timeoutMs: 20000\nembeddings:\n  model: ${server.embeddingModel}\nlog:\n  level: debug\n`,
  );
  const input = join(dir, 'samples.jsonl');
  await writeFile(input, samples.map((s) => JSON.stringify(s)).join('\n'));
  const output = join(dir, `results-${extraArgs.join('') || 'default'}.jsonl`);
  const res = await runCli(['--config', config, 'evaluate', '--input', input, '--output', output, ...extraArgs], {
    timeoutMs: 120_000,
  });
  return {
    res,
    judgeTraffic: JSON.stringify(server.requests.map((q) => ({ body: q.body, headers: q.headers, path: q.path }))),
    results: await readFile(output, 'utf8'),
  };
}

function leaked(haystack: string): string[] {
  const folded = haystack.toLowerCase();
  return Object.entries(CANARIES)
    .filter(([, v]) => folded.includes(v.toLowerCase()))
    .map(([k]) => k);
}

describe('canary: personal data never reaches the judge or the logs', () => {
  it('ragwatch evaluate sends only placeholders to the judge and logs no canary value', async () => {
    const { res, judgeTraffic, results } = await evaluate();
    expect(res.code, res.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(judgeTraffic).toMatch(/<PERSON_1>/);
    expect(judgeTraffic).toMatch(/<EMAIL_1>/);
    expect(judgeTraffic).toMatch(/<IBAN_1>/);
    // What the judge needs stays.
    expect(judgeTraffic).toContain('89 €');
    expect(judgeTraffic).toContain('55120');
    expect(leaked(judgeTraffic)).toEqual([]);
    expect(leaked(res.stdout)).toEqual([]);
    expect(leaked(res.stderr)).toEqual([]);
    expect(leaked(results)).toEqual([]);
  });

  it('the canary check itself catches a leak: with --no-anonymize the values do reach the judge', async () => {
    const { res, judgeTraffic } = await evaluate(['--no-anonymize']);
    expect(res.code, res.stderr).toBe(0);
    expect(leaked(judgeTraffic)).toEqual(expect.arrayContaining(['email', 'iban', 'card', 'dni']));
  });
});
