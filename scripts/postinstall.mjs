#!/usr/bin/env node
/**
 * `npm install` of this checkout: SvelteKit's sync and the Prisma clients. Installed as a
 * dependency (a client author's `npm install strategy-basket-service` for its typed client),
 * the package holds no app sources and needs neither, so nothing runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
if (!existsSync(join(ROOT, 'svelte.config.js'))) process.exit(0);
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
execFileSync(bin('svelte-kit'), ['sync'], { cwd: ROOT, stdio: 'inherit' });
execFileSync(process.execPath, [join(ROOT, 'scripts', 'prisma.mjs'), 'generate'], { cwd: ROOT, stdio: 'inherit' });
