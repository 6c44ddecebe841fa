import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { runCli } from '../../helpers/run-cli.js';

let server: JudgeServer;
let dir: string;

beforeAll(async () => {
  server = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'ragwatch-evaluate-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.faults.clear();
  server.script.clear();
  server.requests.length = 0;
});

const en = {
  id: 'en-1',
  question: 'How long does a plain VACUUM lock a PostgreSQL table?',
  answer:
    'A plain VACUUM only takes a SHARE UPDATE EXCLUSIVE lock, so it runs alongside reads and writes. VACUUM FULL holds an ACCESS EXCLUSIVE lock. VACUUM also compresses the table with zstd.',
  contexts: [
    'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock and runs alongside normal reads and writes.',
    'VACUUM FULL rewrites the table and holds an ACCESS EXCLUSIVE lock for the entire time.',
  ],
  reference: 'A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock and runs alongside reads and writes.',
};
const es = {
  question: '¿Qué diferencia hay entre RDB y AOF en Redis?',
  answer:
    'RDB guarda instantáneas compactas del dataset. AOF registra cada operación de escritura. Con appendfsync everysec se pierde como mucho un segundo.',
  contexts: [
    'Las instantáneas RDB guardan en disco una copia compacta de todo el dataset en momentos concretos.',
    'El fichero AOF registra cada operación de escritura que recibe el servidor.',
    'Con everysec, en el peor caso se pierde alrededor de un segundo de escrituras.',
  ],
  language: 'es',
};
const withEmail = {
  id: 'pii',
  question: 'Who do I contact about invoices?',
  answer: 'Write to laura.gomez@example.com for invoices.',
  contexts: ['Invoices are handled by Laura Gómez, laura.gomez@example.com.'],
};

async function writeConfig(extra = ''): Promise<string> {
  const file = join(dir, `ragwatch-${Math.random().toString(16).slice(2)}.yaml`);
  await writeFile(
    file,
    `judge:\n  baseUrl: ${server.url}\n  maxAttempts: 1\n  timeoutMs: 20000\nembeddings:\n  model: ${server.embeddingModel}\nlog:\n  level: silent\n${extra}`,
  );
  return file;
}

async function writeInput(lines: string[]): Promise<string> {
  const file = join(dir, `in-${Math.random().toString(16).slice(2)}.jsonl`);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

/** Runs the CLI in-process with captured streams. */
function evaluate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCliInProcess(args, { env: { PATH: process.env.PATH }, cwd: dir });
}

async function resultLines(file: string): Promise<Record<string, any>[]> {
  return (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('ragwatch evaluate', () => {
  it('writes one result line per sample and a summary table; exit 0 (real CLI process)', async () => {
    const config = await writeConfig();
    const input = await writeInput([JSON.stringify(en), JSON.stringify(es)]);
    const output = join(dir, 'out-ok.jsonl');
    const res = await runCli(['--config', config, 'evaluate', '--input', input, '--output', output]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const rows = await resultLines(output);
    expect(rows.map((r) => r.id)).toEqual(['en-1', 'line-2']);
    expect(rows[0]?.language).toBe('en');
    expect(rows[1]?.language).toBe('es');
    const f = rows[0]?.metrics.faithfulness;
    expect(f.status).toBe('scored');
    expect(f.value).toBeCloseTo(2 / 3, 10); // the zstd sentence is not in the contexts
    expect(f.reason).toContain('zstd');
    expect(f.usage.calls).toBe(1);
    expect(rows[0]?.metrics.answer_relevancy.status).toBe('scored');
    expect(rows[0]?.metrics.context_recall).toMatchObject({ status: 'scored', value: 1 });
    expect(rows[1]?.metrics.context_precision).toMatchObject({
      status: 'not_scorable',
      reason: 'needs a reference answer',
    });
    expect(rows[1]?.metrics.faithfulness.promptVersion).toMatch(/^es-/);
    expect(res.stdout).toMatch(
      /metric\s+mean\s+scored\s+not_scorable\s+failed\s+calls\s+prompt_tok\s+compl_tok\s+embed_req/,
    );
    expect(res.stdout).toMatch(/faithfulness\s+0\.\d{3}\s+2\s+0\s+0\s+2\s+\d+/);
    expect(res.stdout).toMatch(/context_precision\s+\S+\s+1\s+1\s+0/);
    expect(res.stdout).toContain('2 samples evaluated');
  }, 60_000);

  it('names malformed lines, still scores every other line, and exits 2', async () => {
    const config = await writeConfig();
    const input = await writeInput([
      JSON.stringify(en),
      '{"question": "broken',
      JSON.stringify({ question: 'q', answer: 'a' }),
      JSON.stringify(es),
    ]);
    const output = join(dir, 'out-malformed.jsonl');
    const res = await evaluate([
      '--config',
      config,
      'evaluate',
      '--input',
      input,
      '--output',
      output,
      '--metrics',
      'faithfulness',
    ]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('line 2: not valid JSON');
    expect(res.stderr).toContain('line 3: contexts: is required');
    expect(res.stderr).toContain('2 malformed lines (2, 3)');
    const rows = await resultLines(output);
    expect(rows.map((r) => r.line)).toEqual([1, 4]);
    expect(rows.every((r) => r.metrics.faithfulness.status === 'scored')).toBe(true);
    expect(Object.keys(rows[0]?.metrics ?? {})).toEqual(['faithfulness']);
  });

  it('exits 3 when some metric failed, with the failure in the result line and never a value', async () => {
    const config = await writeConfig();
    server.faults.always('http_500');
    const input = await writeInput([JSON.stringify(en)]);
    const res = await evaluate([
      '--config',
      config,
      'evaluate',
      '--input',
      input,
      '--metrics',
      'faithfulness,answer_relevancy',
    ]);
    expect(res.code).toBe(3);
    const row = JSON.parse(res.stdout.trim());
    expect(row.metrics.faithfulness).toMatchObject({ status: 'failed', retryable: true });
    expect(row.metrics.faithfulness).not.toHaveProperty('value');
    expect(res.stderr).toMatch(/faithfulness\s+-\s+0\s+0\s+1/);
    expect(res.stderr).toContain('2 metric results failed');
  });

  it('rejects unknown metrics and unreadable input with exit 2', async () => {
    const config = await writeConfig();
    const input = await writeInput([JSON.stringify(en)]);
    const bad = await evaluate(['--config', config, 'evaluate', '--input', input, '--metrics', 'faithfulness,bleu']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown metric bleu');
    const missing = await evaluate(['--config', config, 'evaluate', '--input', join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    expect(server.requests).toHaveLength(0);
  });

  it('anonymizes before judging by default; --no-anonymize sends the texts as they are', async () => {
    const config = await writeConfig();
    const input = await writeInput([JSON.stringify(withEmail)]);
    const on = await evaluate(['--config', config, 'evaluate', '--input', input, '--metrics', 'faithfulness']);
    expect(on.code).toBe(0);
    const sent = JSON.stringify(server.requests.map((r) => r.body));
    expect(sent).not.toContain('laura.gomez@example.com');
    expect(sent).toMatch(/<EMAIL_1>/);
    expect(JSON.parse(on.stdout.trim())).toMatchObject({ anonymized: true });
    expect(JSON.parse(on.stdout.trim()).pii_entities).toBeGreaterThan(0);

    server.requests.length = 0;
    const off = await evaluate([
      '--config',
      config,
      'evaluate',
      '--input',
      input,
      '--metrics',
      'faithfulness',
      '--no-anonymize',
    ]);
    expect(off.code).toBe(0);
    expect(JSON.stringify(server.requests.map((r) => r.body))).toContain('laura.gomez@example.com');
    expect(off.stderr).toContain('anonymization off');
  });
});
