/**
 * vitest globalSetup of the API and browser suites: build the app once per run so the
 * tests exercise the real production server. SVC_TEST_SKIP_BUILD=1 reuses the last build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server';

export default function setup(): void {
  if (
    process.env.SVC_TEST_SKIP_BUILD === '1' &&
    existsSync(join(ROOT, 'build', 'index.js')) &&
    existsSync(join(ROOT, 'build-mcp', 'stdio.js')) &&
    existsSync(join(ROOT, 'build-cli', 'svc.mjs'))
  )
    return;
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), '--build-only'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('building the app for the tests failed');
}
