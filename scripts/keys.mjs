#!/usr/bin/env node
// `npm run keys -- list | rotate | revoke`: the signing keys' lifecycle (src/admin/keys.ts,
// docs/trust-model.md#the-signing-key). Builds first when the sources changed, as `npm start`
// and `npm run mcp` do, with the build's output on stderr: stdout is the command's JSON.
import { buildIfNeeded } from './start.mjs';

if (!process.argv.includes('--no-build')) buildIfNeeded();
process.argv = process.argv.filter((a) => a !== '--no-build');
process.env.NODE_ENV ??= 'production';
await import(new URL('../build-mcp/keys.js', import.meta.url).href);
