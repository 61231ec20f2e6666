#!/usr/bin/env node
// `npm run mcp`: the local stdio MCP server (src/mcp/stdio.ts). Builds first when the sources
// changed, exactly as `npm start` does (same step, same fingerprint), with the build's output
// on stderr: stdout belongs to the protocol.
import { buildIfNeeded } from './start.mjs';

if (!process.argv.includes('--no-build')) buildIfNeeded();
process.env.NODE_ENV ??= 'production';
await import(new URL('../build-mcp/stdio.js', import.meta.url).href);
