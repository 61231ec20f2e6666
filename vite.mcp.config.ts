// The stdio MCP server (src/mcp/stdio.ts), and the signing keys' command (src/admin/keys.ts,
// `npm run keys`), as modules plain node runs: the server code uses
// SvelteKit's aliases and Vite's `import.meta.glob` (the bundled migrations), so it is built
// by Vite's SSR build like the app, into build-mcp/. scripts/start.mjs runs this build in the
// same step as the app's.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { buildCommit } from './scripts/build-commit.mjs';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: { alias: { $lib: here('./src/lib'), $generated: here('./src/generated') } },
  define: { __SVC_BUILD_COMMIT__: JSON.stringify(buildCommit()) },
  publicDir: false,
  // Dependencies are bundled too: resolving and compiling some two thousand separate module
  // files was most of a cold start (about 1.2 s of CPU against 0.5 s bundled), and a host
  // starts this process for every session. Native modules and the database drivers, which
  // load files of their own, stay in node_modules.
  ssr: {
    noExternal: true,
    external: ['better-sqlite3', 'pg', '@prisma/client', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg', 'ioredis'],
  },
  build: {
    ssr: true,
    outDir: 'build-mcp',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: {
      input: { stdio: 'src/mcp/stdio.ts', keys: 'src/admin/keys.ts' },
      output: { entryFileNames: '[name].js' },
      onwarn(warning, warn) {
        // A "use strict" directive inside a CommonJS dependency (apg-js, under the SIWE
        // parser): bundled ESM is strict anyway.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
