import { skippedSystemTests } from '../tiers.js';

/** At the end of `npm test`, names the system-tier tests it left out and how to run them. */
export default function announceSystemTier() {
  return () => {
    const skipped = skippedSystemTests();
    if (skipped.length === 0) return;
    const lines = [
      '',
      `Not run by npm test: ${skipped.length} system-tier test files, which need a tool or a server outside node_modules.`,
      ...skipped.map((s) => `  - ${s}`),
      'Run them with `npm run test:system` (.ci/run installs what they need and runs both tiers).',
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  };
}
