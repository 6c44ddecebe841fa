// Preloaded into a ragwatch child (NODE_OPTIONS=--import …): prints the process's peak resident set size, as the
// kernel counts it (getrusage ru_maxrss, in KiB), on stderr when the process exits.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nragwatch-test-max-rss-kib ${process.resourceUsage().maxRSS}\n`);
});
