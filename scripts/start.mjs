#!/usr/bin/env node
// `npm start`: build when the sources changed since the last build, then serve the API and
// the web UI. The database is migrated by the server itself at start-up
// (src/hooks.server.ts `init`), so a fresh clone needs no database command.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { clientErrorAnswer } from './request-target.mjs';
import { installProcessGuards, servePage } from './server-guards.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const STAMP = join(ROOT, 'build', '.source-fingerprint');
const MCP_ENTRY = join(ROOT, 'build-mcp', 'stdio.js');
const CLI_ENTRY = join(ROOT, 'build-cli', 'svc.mjs');
const INPUTS = [
  'src',
  'prisma',
  'static',
  'svelte.config.js',
  'vite.config.ts',
  'vite.mcp.config.ts',
  'vite.cli.config.ts',
  'package.json',
  'package-lock.json',
];

function* files(path) {
  if (!existsSync(path)) return;
  const stat = statSync(path);
  if (stat.isFile()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'generated' || entry === 'node_modules') continue;
    yield* files(join(path, entry));
  }
}

export function sourceFingerprint() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(join(ROOT, input))) {
      hash.update(file.slice(ROOT.length));
      hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex');
}

export function buildIfNeeded() {
  const fingerprint = sourceFingerprint();
  const current = existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : '';
  if (existsSync(join(ROOT, 'build', 'index.js')) && existsSync(MCP_ENTRY) && existsSync(CLI_ENTRY) && current === fingerprint)
    return false;
  process.stderr.write('start: building the app (sources changed since the last build)\n');
  const generated = spawnSync(process.execPath, [join(ROOT, 'scripts', 'prisma.mjs'), 'generate', '--if-changed'], {
    cwd: ROOT,
    stdio: ['ignore', 2, 'inherit'],
  });
  if (generated.status !== 0) process.exit(generated.status ?? 1);
  // The app, the stdio MCP server (vite.mcp.config.ts), then the offline CLI (vite.cli.config.ts).
  // Build chatter goes to stderr: `npm run mcp` builds through here, and its stdout is the
  // protocol channel.
  for (const args of [['build'], ['build', '--config', 'vite.mcp.config.ts'], ['build', '--config', 'vite.cli.config.ts']]) {
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), ...args, '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: ['ignore', 2, 'inherit'],
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  // The CLI is the package's bin: `npx svc` runs the file itself.
  chmodSync(CLI_ENTRY, 0o755);
  writeFileSync(STAMP, fingerprint);
  return true;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  if (!process.argv.includes('--no-build')) buildIfNeeded();
  if (process.argv.includes('--build-only')) process.exit(0);
  process.env.NODE_ENV ??= 'production';
  await serve();
}

/**
 * One Node server for the whole app: the API (/api, /trpc, /mcp), and any raw target with a
 * dot segment, goes to the app's API front straight from Node's request, target unresolved
 * (src/lib/server/http/node-front.ts; the front refuses the dot segment), and everything else
 * (the pages, their assets) to adapter-node's handler.
 * The rest is what adapter-node's own entry does for this service: HOST and PORT, and a
 * graceful shutdown on SIGTERM/SIGINT (idle connections closed at once, the others after
 * SHUTDOWN_TIMEOUT seconds; then the app's database and Redis connections, and the process
 * ends).
 */
async function serve() {
  // Importing the handler starts the app (its `init` hook migrates the database and
  // publishes the API front), so the front is read after it.
  const { handler } = await import(join(ROOT, 'build', 'handler.js'));
  const api = globalThis[Symbol.for('svc.nodeApiFront')];
  if (!api) throw new Error('the built app published no API front (src/hooks.server.ts init)');
  const host = process.env.HOST || '0.0.0.0';
  const port = Number(process.env.PORT || 3000);
  const shutdownTimeoutSeconds = Number(process.env.SHUTDOWN_TIMEOUT || 30);
  const server = http.createServer((req, res) => {
    if (api.isApiTarget(req.url ?? '/')) {
      api.serve(req, res);
      return;
    }
    // A vanished asset, a stream error or a failed page answers this request only
    // (scripts/server-guards.mjs); SvelteKit answers every path itself, so its `next` (a 404)
    // is only reached if it ever did not.
    servePage(handler, req, res, api.logFailure);
  });
  // A request Node's parser refuses never reaches a handler: it still gets a JSON answer.
  server.on('clientError', (error, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    socket.end(clientErrorAnswer(error));
  });
  server.listen({ host, port }, () => {
    console.log(`Listening on http://${host}:${port}`);
  });
  let shuttingDown = false;
  const shutdown = () => {
    if (shuttingDown) return;
    shuttingDown = true;
    server.closeIdleConnections();
    server.close(() => {
      process.emit('sveltekit:shutdown', 'SIGTERM');
      // Every request is answered: close the database and Redis connections, which would
      // otherwise keep the process alive, and end.
      // The exit code stays what it was set to: 1 after an uncaught exception (server-guards.mjs).
      api.close().finally(() => process.exit());
    });
    setTimeout(() => server.closeAllConnections(), shutdownTimeoutSeconds * 1000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  installProcessGuards(api.logFailure, shutdown);
}
