#!/usr/bin/env node
// `npm install`'s postinstall: in the repository, sync SvelteKit's generated types and generate
// the Prisma clients. Installed as a package (the packed tarball, for its offline `svc` CLI),
// none of the sources or development tools are there and there is nothing to do: the CLI is a
// prebuilt file (build-cli/svc.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
if (existsSync(join(root, 'src')) && existsSync(join(root, 'prisma', 'schema.prisma'))) {
  const kit = join(root, 'node_modules', '@sveltejs', 'kit', 'svelte-kit.js');
  execFileSync(process.execPath, [kit, 'sync'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [join(root, 'scripts', 'prisma.mjs'), 'generate'], { cwd: root, stdio: 'inherit' });
}
