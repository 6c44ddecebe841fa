import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** `npm test`: every test that needs nothing outside node_modules. The system tier is `vitest.system.config.ts`. */
export default defineConfig({
  // ragwatch and the devkit import each other's TypeScript sources (package.json "exports").
  // Vitest's own default drops 'module' too: Node would be started with it, and some packages' 'module' builds need a bundler.
  ssr: { resolve: { conditions: [...defaultServerConditions.filter((c) => c !== 'module'), 'ragwatch-source'] } },
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/**/*.system.test.ts'],
    globalSetup: ['test/setup/build-cli.ts', 'test/setup/announce-system-tier.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
