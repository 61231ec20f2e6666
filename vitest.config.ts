import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [sveltekit()],
  define: { __SVC_BUILD_COMMIT__: JSON.stringify('test') },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'bench', include: [], benchmark: { include: ['bench/**/*.bench.ts'] }, environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        // Router logic through tRPC's server-side caller: no build, no server process.
        test: {
          name: 'inproc',
          include: ['tests/inproc/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/support/inproc-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/build.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'mcp',
          include: ['tests/mcp/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/build.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/build.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
