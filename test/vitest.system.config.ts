import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:system`: exactly the tests that need a tool or a server outside node_modules (see
 * test/tiers.ts). A missing tool fails its test with how to install it; nothing here skips.
 */
export default defineConfig({
  // ragwatch and the devkit import each other's TypeScript sources (package.json "exports").
  // Vitest's own default drops 'module' too: Node would be started with it, and some packages' 'module' builds need a bundler.
  ssr: { resolve: { conditions: [...defaultServerConditions.filter((c) => c !== 'module'), 'ragwatch-source'] } },
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.system.test.ts'],
    globalSetup: ['test/setup/build-cli.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
