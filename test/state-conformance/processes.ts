import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';

/**
 * Several processes racing for one lease at the same instant: each opens its own connection through the
 * built CLI's `dist/`, waits for a shared start time and tries `acquireLease` once. Returns who got it.
 */
export async function raceForLease(
  opener: string,
  processes: number,
): Promise<{ winners: number[]; results: boolean[] }> {
  const cli = inject('ragwatchCli');
  if (!cli) throw new Error('the conformance suite needs the built CLI (test/setup/build-cli.ts as global setup)');
  const dist = pathToFileURL(`${dirname(cli)}/`).href;
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-race-'));
  const script = join(dir, 'race.mjs');
  writeFileSync(
    script,
    `${opener}
const [index, startAt] = process.argv.slice(2).map(Number);
const store = await openStore(${JSON.stringify(dist)});
while (Date.now() < startAt) await new Promise((r) => setTimeout(r, 1));
const holder = { id: 'racer-' + index, host: 'race-host', pid: 100000 + index };
const got = await store.acquireLease('race', holder, 60000, 1000);
await store.close();
process.stdout.write(JSON.stringify({ got }));
`,
  );
  try {
    // Every process has opened its connection (node start, module load) well before the start time.
    const startAt = Date.now() + 2500;
    const results = await Promise.all(Array.from({ length: processes }, (_, i) => runRacer(script, i, startAt)));
    return { winners: results.flatMap((got, i) => (got ? [i] : [])), results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runRacer(script: string, index: number, startAt: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, String(index), String(startAt)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`racer ${index} exited ${code}: ${err.slice(0, 2000)}`));
      resolve((JSON.parse(out) as { got: boolean }).got);
    });
  });
}
