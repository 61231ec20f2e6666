#!/usr/bin/env node
// `npm run prepare` (run by `npm install` in the repository and by `npm pack`): builds the
// offline CLI (vite.cli.config.ts) into build-cli/svc.mjs, the package's `bin`. Not committed:
// a build output. `npm start` and the tests build it with the app (scripts/start.mjs).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
// Installed as a package there is no source and no Vite: the packed file is used as it is.
if (existsSync(join(root, 'src', 'cli', 'svc.ts')) && existsSync(vite)) {
  execFileSync(process.execPath, [vite, 'build', '--config', 'vite.cli.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  chmodSync(join(root, 'build-cli', 'svc.mjs'), 0o755);
}
