#!/usr/bin/env node
// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) against
// POST /mcp of the built server (run after a build: `node scripts/start.mjs --build-only`).
//
// The suite needs Node 22 and the project runs on Node 20, so both the suite and Node 22 (the
// `node@22` npm package) are installed into a folder of their own, outside the project's
// dependencies: a dependency named `node` would put Node 22 in front of every npm script, and
// the native modules built for Node 20 would no longer load. The server itself runs on this
// process's Node.
//
// Two servers, on fresh SQLite files:
//   - ORIGIN http://localhost:PORT: the whole active suite at http://localhost:PORT/mcp, with the
//     scenarios that do not apply listed in tools/mcp-conformance/expected-failures.yml (the
//     suite exits non-zero on a failure not listed, and on a listed scenario that passes);
//   - ORIGIN http://127.0.0.1:PORT: `dns-rebinding-protection` at http://127.0.0.1:PORT/mcp.
// Exits non-zero when any applicable scenario fails.
//
// MCP_CONFORMANCE_DIR: where the suite and Node 22 are installed (default: a folder in the
// system's temp directory, reused by later runs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const SUITE = '@modelcontextprotocol/conformance';
const SUITE_VERSION = '0.1.16';
const NODE_PACKAGE = 'node@22';
const EXPECTED_FAILURES = join(ROOT, 'tools', 'mcp-conformance', 'expected-failures.yml');
const installDir = process.env.MCP_CONFORMANCE_DIR ?? join(tmpdir(), `svc-mcp-conformance-${SUITE_VERSION}`);
const node22 = join(installDir, 'node_modules', '.bin', 'node');
const suiteEntry = join(installDir, 'node_modules', SUITE, 'dist', 'index.js');

function installedVersion() {
  try {
    return JSON.parse(readFileSync(join(installDir, 'node_modules', SUITE, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function install() {
  if (installedVersion() === SUITE_VERSION && existsSync(node22)) return;
  console.log(`mcp-conformance: installing ${SUITE}@${SUITE_VERSION} and ${NODE_PACKAGE} into ${installDir}`);
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      installDir,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      `${SUITE}@${SUITE_VERSION}`,
      NODE_PACKAGE,
    ],
    { stdio: 'inherit' },
  );
  if (npm.status !== 0) throw new Error('npm install of the conformance suite failed');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The built server on a fresh SQLite file, with ORIGIN on `host`; resolves when /api/health answers. */
async function startService(host) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-conformance-db-'));
  const logs = [];
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), '--no-build'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      ORIGIN: `http://${host}:${port}`,
      DATABASE_URL: `file:${join(dir, 'svc.db')}`,
      STRATEGIST_PROVIDER: 'mock',
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_NAMESPACE: `mcp-conformance-${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => logs.push(chunk.toString()));
  child.stderr.on('data', (chunk) => logs.push(chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited during start-up:\n${logs.join('')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start in time:\n${logs.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://${host}:${port}/mcp`, stop };
}

/** Runs the suite's `server` command with Node 22; resolves to its exit code. */
function runSuite(args) {
  return new Promise((resolve) => {
    const child = spawn(node22, [suiteEntry, 'server', ...args], { stdio: 'inherit' });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

install();
const failures = [];
for (const run of [
  { host: 'localhost', args: (url) => ['--url', url, '--expected-failures', EXPECTED_FAILURES], what: 'the active suite' },
  { host: '127.0.0.1', args: (url) => ['--url', url, '--scenario', 'dns-rebinding-protection'], what: 'dns-rebinding-protection' },
]) {
  const service = await startService(run.host);
  try {
    console.log(`\nmcp-conformance: ${run.what} against ${service.url} (ORIGIN http://${new URL(service.url).host})`);
    const code = await runSuite(run.args(service.url));
    if (code !== 0) failures.push(`${run.what} against ${service.url} (exit ${code})`);
  } finally {
    await service.stop();
  }
}
if (failures.length) {
  console.error(`\nmcp-conformance: FAILED: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('\nmcp-conformance: every applicable scenario passed');
