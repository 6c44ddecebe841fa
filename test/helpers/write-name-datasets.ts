/**
 * `npm run gazetteer:datasets`: rewrites src/anonymize/gazetteer/datasets-data.ts from the installed npm datasets
 * (see name-datasets.ts). `-- --check` only says whether the committed module is current (exit 1 when not).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readNameDatasets, renderNameDatasets } from './name-datasets.js';

const path = fileURLToPath(new URL('../../src/anonymize/gazetteer/datasets-data.ts', import.meta.url));
const current = renderNameDatasets(readNameDatasets());
let committed = '';
try {
  committed = readFileSync(path, 'utf8');
} catch {
  // Not written yet.
}
if (current === committed) {
  console.log('src/anonymize/gazetteer/datasets-data.ts is current');
} else if (process.argv.includes('--check')) {
  console.error('src/anonymize/gazetteer/datasets-data.ts is out of date: run npm run gazetteer:datasets');
  process.exitCode = 1;
} else {
  writeFileSync(path, current);
  console.log('src/anonymize/gazetteer/datasets-data.ts written');
}
