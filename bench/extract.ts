/**
 * Extraction cost: each real-package fixture trace (test/fixtures/traces/integrations, both read paths)
 * extracted repeatedly, and prompt splitting on adversarial prompts (thousands of unclosed tags, a long
 * line without a newline, thousands of markers), which a careless regex turns quadratic. Prints
 * microseconds per trace and milliseconds per adversarial prompt (median of rounds); not a test.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedContexts } from '../src/extract/embedded.js';
import { extractRagSample } from '../src/extract/extract.js';
import { traceFromObservationsV2 } from '../src/langfuse/resources/observations.js';
import { traceFromV3 } from '../src/langfuse/resources/traces.js';
import type { TraceRecord } from '../src/langfuse/core/types.js';

const dir = fileURLToPath(new URL('../test/fixtures/traces/integrations/', import.meta.url));
const traces: TraceRecord[] = [];
for (const integration of readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)) {
  const expected = JSON.parse(readFileSync(join(dir, integration, 'expected.json'), 'utf8')) as {
    scenarios: Record<string, { traceId: string }>;
  };
  for (const [scenario, { traceId }] of Object.entries(expected.scenarios)) {
    traces.push(
      traceFromV3(
        JSON.parse(readFileSync(join(dir, integration, `${scenario}.v3.json`), 'utf8')) as Record<string, unknown>,
      ),
    );
    const v4 = JSON.parse(readFileSync(join(dir, integration, `${scenario}.v4.json`), 'utf8')) as {
      data: Array<Record<string, unknown>>;
    };
    traces.push(traceFromObservationsV2(traceId, v4.data)!);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const rounds: number[] = [];
for (let round = 0; round < 7; round++) {
  const start = performance.now();
  for (let i = 0; i < 20; i++) for (const t of traces) extractRagSample(t);
  rounds.push(((performance.now() - start) * 1000) / (20 * traces.length));
}
console.log(
  `fixture traces: ${traces.length}, median ${median(rounds).toFixed(1)} us per extraction (best ${Math.min(...rounds).toFixed(1)})`,
);

const adversarial: Record<string, string> = {
  'unclosed <documents> x20k': '<documents>'.repeat(20_000),
  'unclosed <document> items x20k': '<document index="1">x '.repeat(20_000),
  '"use the following documents" without a newline x10k': 'use the following documents '.repeat(10_000),
  'Context: headers x20k': 'Context:\n'.repeat(20_000),
  '[n] markers x20k': Array.from({ length: 20_000 }, (_, i) => `[${i}] text`).join('\n'),
  '--- rules x20k': '---\nx\n'.repeat(20_000),
  'blank-line paragraphs x50k': 'a\n\n'.repeat(50_000),
};
for (const [name, text] of Object.entries(adversarial)) {
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    embeddedContexts(text);
    times.push(performance.now() - start);
  }
  console.log(`${name} (${(text.length / 1024).toFixed(0)} KiB): median ${median(times).toFixed(1)} ms`);
}
