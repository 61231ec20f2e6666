// The stdio MCP server (src/mcp/stdio.ts) as one module plain node runs: the server code uses
// SvelteKit's aliases and Vite's `import.meta.glob` (the bundled migrations), so it is built
// by Vite's SSR build like the app, into build-mcp/. Dependencies stay external
// (node_modules). scripts/start.mjs runs this build in the same step as the app's.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { buildCommit } from './scripts/build-commit.mjs';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: { alias: { $lib: here('./src/lib'), $generated: here('./src/generated') } },
  define: { __SVC_BUILD_COMMIT__: JSON.stringify(buildCommit()) },
  publicDir: false,
  build: {
    ssr: 'src/mcp/stdio.ts',
    outDir: 'build-mcp',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: { output: { entryFileNames: 'stdio.js' } },
  },
});
