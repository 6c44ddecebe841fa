/**
 * `npm run docs:protocol`: rewrites the generated sections of docs/judge-protocol.md from the metric registry
 * and the prompts. `-- --check` only says whether the committed document is current (exit 1 when not).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rewriteProtocolDoc } from '../../src/metrics/protocol-doc.js';

const path = fileURLToPath(new URL('../../docs/judge-protocol.md', import.meta.url));
const doc = readFileSync(path, 'utf8');
const current = rewriteProtocolDoc(doc);
if (current === doc) {
  console.log('docs/judge-protocol.md is current');
} else if (process.argv.includes('--check')) {
  console.error('docs/judge-protocol.md is out of date: run npm run docs:protocol');
  process.exitCode = 1;
} else {
  writeFileSync(path, current);
  console.log('docs/judge-protocol.md: generated sections rewritten');
}
