/**
 * Regenerates the integration trace fixtures (`test/fixtures/traces/integrations/`): every integration's
 * scenarios run through the real packages against a v3 and a v4 Langfuse stand-in, and each trace is saved
 * as both read paths return it, with what it should yield and the package versions that produced it.
 *
 *   npm run fixtures:integrations [-- NAME …]
 *
 * Each integration runs in a child process of its own (tracing SDKs keep process-wide state).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureIntegration } from './capture.js';
import { INTEGRATIONS } from './index.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const FIXTURE_DIR = join(ROOT, 'test/fixtures/traces/integrations');

/** Installed versions of the packages, as the fixtures record them. */
export function installedVersions(packages: string[]): Record<string, string> {
  return Object.fromEntries(
    packages.map((name) => [
      name,
      (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
        .version,
    ]),
  );
}

async function captureOne(name: string): Promise<void> {
  const load = INTEGRATIONS[name];
  if (!load) throw new Error(`unknown integration ${name}; known: ${Object.keys(INTEGRATIONS).join(', ')}`);
  const integration = await load();
  const captured = await captureIntegration(integration);
  const dir = join(FIXTURE_DIR, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const write = (file: string, value: unknown) => writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
  for (const c of captured) {
    write(`${c.scenario}.v3.json`, c.v3);
    write(`${c.scenario}.v4.json`, c.v4);
  }
  write('expected.json', {
    integration: name,
    transport: integration.transport,
    packages: installedVersions(integration.packages),
    scenarios: Object.fromEntries(
      captured.map((c) => {
        const scenario = integration.scenarios.find((s) => s.name === c.scenario)!;
        return [c.scenario, { description: scenario.description, traceId: c.traceId, expect: c.expectation }];
      }),
    ),
  });
  process.stdout.write(`${name}: ${captured.length} traces\n`);
}

function runChild(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', name], {
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name}: exited with ${code}`))));
  });
}

async function main(args: string[]): Promise<void> {
  if (args[0] === '--child') {
    await captureOne(args[1] ?? '');
    process.exit(0);
  }
  const names = args.length > 0 ? args : Object.keys(INTEGRATIONS);
  for (const name of names) await runChild(name);
  const known = new Set(Object.keys(INTEGRATIONS));
  const stale = readdirSync(FIXTURE_DIR, { withFileTypes: true }).filter((d) => d.isDirectory() && !known.has(d.name));
  for (const d of stale) rmSync(join(FIXTURE_DIR, d.name), { recursive: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
