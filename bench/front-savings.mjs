#!/usr/bin/env node
// What the API front saves (issue 37 item 3: "the front stays only as large as its measured
// savings justify"). The same build serves /api two ways, loaded alternately in one run so the
// machine's drift cancels:
//   - front: `npm start` (scripts/start.mjs), which hands /api to http/node-front.ts before
//     SvelteKit sees the request;
//   - sveltekit: adapter-node's own server (build/index.js), where /api reaches the same front
//     through SvelteKit's route src/routes/api/[...path] (http/fetch-front.ts): web Request and
//     Response objects, SvelteKit's routing, hooks and request store.
// Prints each route's rate on both and the ratio. Figures only: nothing here fails a build.
// Run after a build (`node scripts/start.mjs --build-only`).
//
//   BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (64)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { coilBody, freePort } from './load-fixtures.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);

const ROUTES = [
  { name: 'health', method: 'GET', path: '/api/health' },
  { name: 'validate-coil', method: 'POST', path: '/api/tools/validate-coil', body: coilBody() },
];

function start(command, args, env) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  return () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
}

async function waitFor(url) {
  for (let waited = 0; waited < 60_000; waited += 50) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not answer`);
}

function load(base, route) {
  const request = { method: route.method, path: route.path, headers: route.body ? { 'content-type': 'application/json' } : {} };
  if (route.body) request.setupRequest = (req) => ({ ...req, body: route.body() });
  return new Promise((resolve, reject) =>
    autocannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests: [request] }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'svc-front-'));
const stops = [];
try {
  const common = { RATE_LIMIT_MAX: '1000000000', LOG_LEVEL: 'warn', NODE_ENV: 'production', HOST: '127.0.0.1' };
  const servers = {};
  for (const [name, args] of [
    ['front', [join(ROOT, 'scripts/start.mjs'), '--no-build']],
    ['sveltekit', [join(ROOT, 'build/index.js')]],
  ]) {
    const port = await freePort();
    stops.push(
      start(process.execPath, args, {
        ...common,
        PORT: String(port),
        ORIGIN: `http://127.0.0.1:${port}`,
        DATABASE_URL: `file:${join(dir, `${name}.db`)}`,
      }),
    );
    servers[name] = `http://127.0.0.1:${port}`;
    await waitFor(`${servers[name]}/api/health`);
  }
  console.log(`front savings: ${ROUNDS} alternating rounds of ${SECONDS} s, ${CONNECTIONS} connections`);
  for (const route of ROUTES) {
    const rates = { front: [], sveltekit: [] };
    for (let round = 0; round < ROUNDS; round++)
      for (const name of Object.keys(servers)) {
        const result = await load(servers[name], route);
        if (result.non2xx > 0) throw new Error(`${route.name} on ${name}: ${result.non2xx} answers were not 2xx`);
        rates[name].push(result.requests.average);
      }
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const front = mean(rates.front);
    const sveltekit = mean(rates.sveltekit);
    console.log(
      `${route.name.padEnd(14)} front ${front.toFixed(0).padStart(6)} req/s   through SvelteKit ${sveltekit.toFixed(0).padStart(6)} req/s   ratio ${(front / sveltekit).toFixed(2)}   rounds ${rates.front.map((r) => r.toFixed(0)).join('/')} vs ${rates.sveltekit.map((r) => r.toFixed(0)).join('/')}`,
    );
  }
} finally {
  for (const stop of stops) stop();
  rmSync(dir, { recursive: true, force: true });
}
