import { execFileSync } from 'node:child_process';

/** The deployment commit is fixed at build time; readiness reports it. */
export function buildCommit() {
  if (process.env.SVC_BUILD_COMMIT) return process.env.SVC_BUILD_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}
