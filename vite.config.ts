import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';
import { buildCommit } from './scripts/build-commit.mjs';

export default defineConfig({
  plugins: [sveltekit()],
  define: {
    __SVC_BUILD_COMMIT__: JSON.stringify(buildCommit()),
  },
  server: { fs: { allow: ['prisma'] } },
});
