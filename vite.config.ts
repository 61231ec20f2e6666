import { execFileSync } from 'node:child_process';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

/** The deployment commit is fixed at build time; readiness reports it. */
function buildCommit(): string {
  if (process.env.SVC_BUILD_COMMIT) return process.env.SVC_BUILD_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

export default defineConfig({
  plugins: [sveltekit()],
  define: {
    __SVC_BUILD_COMMIT__: JSON.stringify(buildCommit()),
  },
  server: { fs: { allow: ['prisma'] } },
});
