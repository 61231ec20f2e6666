// The offline CLI (src/cli/svc.ts, the package's `bin`) as one module plain node runs, with
// every dependency it uses bundled (zod, viem's address helpers) and nothing else: it imports
// domain modules only, never the database, SvelteKit or the MCP server, so the file carries
// none of them (tests/unit/cli-bundle.test.ts holds it to that). Built with the app by
// scripts/start.mjs, and by `npm run prepare` (so `npm pack` packs a fresh one) into build-cli/.
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  ssr: { noExternal: true },
  build: {
    ssr: 'src/cli/svc.ts',
    outDir: 'build-cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: {
      output: { entryFileNames: 'svc.mjs', banner: '#!/usr/bin/env node', codeSplitting: false },
    },
  },
});
