#!/usr/bin/env node
import { endQuietlyWhenReaderGoes } from './broken-pipe.js';
import { main } from './program.js';

endQuietlyWhenReaderGoes(process.stdout);
endQuietlyWhenReaderGoes(process.stderr);
process.exitCode = await main(process.argv.slice(2));
