import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests run the packages' TypeScript sources (the `source` export condition), not their built
  // JavaScript; the global setup builds `dist/` for the tests that start the `ringflow` command.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    globalSetup: ['./test/buildPackages.globalSetup.ts'],
    include: [
      'packages/*/src/**/*.test.ts',
      'test/**/*.test.ts',
      'examples/**/*.test.ts',
      'flows/**/*.test.ts',
    ],
    // Tests run on virtual clocks; a hung test is a bug, not slowness.
    testTimeout: 30_000,
    pool: 'threads',
  },
});
