#!/usr/bin/env node
// `npm pack`'s prepack and postpack: the packed package is the offline CLI alone (`svc`, one
// prebuilt file with every dependency bundled), so the package.json inside the tarball keeps its
// name, version, bin and files and drops the service's dependencies and scripts. Without this,
// installing the tarball would fetch the whole service's dependency tree (Prisma, the database
// drivers, SvelteKit's adapter: some 400 MB) for a CLI that loads none of them. The same idea
// as the clean-package tool: the manifest is rewritten before packing and restored after.
//
//   node scripts/pack-manifest.mjs prepack    build the CLI, keep package.json aside, write the CLI's manifest
//   node scripts/pack-manifest.mjs postpack   put package.json back
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const manifest = join(root, 'package.json');
const kept = join(root, '.package.json.unpacked');

const step = process.argv[2];
if (step === 'prepack') {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { cwd: root, stdio: 'inherit' });
  if (!existsSync(kept)) renameSync(manifest, kept);
  const full = JSON.parse(readFileSync(kept, 'utf8'));
  const cli = {
    name: full.name,
    version: full.version,
    description: 'svc: verify the Strategy Basket Service’s signed receipts, its receipt log and its answers offline',
    private: full.private,
    type: full.type,
    engines: full.engines,
    bin: full.bin,
    files: full.files,
  };
  writeFileSync(manifest, `${JSON.stringify(cli, null, 2)}\n`);
} else if (step === 'postpack') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs prepack|postpack\n');
  process.exit(2);
}
