#!/usr/bin/env node
// `npm pack`'s prepack and postpack: the packed package holds two things for users of the
// service, never the service itself:
// - the offline CLI (`svc`, one prebuilt file with every dependency bundled), and
// - the typed tRPC client (`<name>/client`, dist/client, with its declarations).
// The package.json inside the tarball keeps its name, version, bin, exports and files and drops
// the service's dependencies and scripts. Without this, installing the tarball would fetch the
// whole service's dependency tree (Prisma, the database drivers, SvelteKit's adapter: some
// 400 MB) for a CLI that loads none of them. The client's own needs (`@trpc/client` at run
// time; `@trpc/server`, `zod` and `viem` for its types) are optional peer dependencies at the
// service's versions: `npm install <tarball>` alone installs nothing more for the CLI, and a
// client author installs them beside it (README, "Typed client"). The same idea as the
// clean-package tool: the manifest is rewritten before packing and restored after.
//
//   node scripts/pack-manifest.mjs prepack    build the CLI and the client, keep package.json aside, write the packed manifest
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
  // Like build-cli.mjs: without the client's source or TypeScript, what dist/client holds is packed.
  if (existsSync(join(root, 'src', 'client', 'index.ts')) && existsSync(join(root, 'node_modules', 'typescript')))
    execFileSync(process.execPath, [join(root, 'scripts', 'build-client.mjs')], { cwd: root, stdio: 'inherit' });
  if (!existsSync(kept)) renameSync(manifest, kept);
  const full = JSON.parse(readFileSync(kept, 'utf8'));
  const versionOf = (name) => full.dependencies?.[name] ?? full.devDependencies?.[name];
  const clientPeers = ['@trpc/client', '@trpc/server', 'zod', 'viem'];
  const packed = {
    name: full.name,
    version: full.version,
    description:
      'The Strategy Basket Service for its users: svc, which verifies its signed receipts, its receipt log and its answers offline, and a typed tRPC client',
    private: full.private,
    type: full.type,
    engines: full.engines,
    bin: full.bin,
    exports: full.exports,
    files: full.files,
    peerDependencies: Object.fromEntries(clientPeers.map((name) => [name, versionOf(name)])),
    peerDependenciesMeta: Object.fromEntries(clientPeers.map((name) => [name, { optional: true }])),
  };
  writeFileSync(manifest, `${JSON.stringify(packed, null, 2)}\n`);
} else if (step === 'postpack') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs prepack|postpack\n');
  process.exit(2);
}
