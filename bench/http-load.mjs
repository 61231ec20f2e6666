#!/usr/bin/env node
// HTTP load benchmark: starts the built server on a temp SQLite database and drives
// concurrent requests at a few routes, printing throughput, latency percentiles and the
// server's resident memory. Targets are printed beside the figures; nothing fails on them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const TARGETS = { p95Ms: 50, rssMb: 300 };

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), '--no-build'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `file:${join(dir, 'bench.db')}`, RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    // not listening yet: try again below
  }
  if (i > 300) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 100));
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

async function load(name, makeRequest) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next++;
        const t = performance.now();
        const res = await makeRequest();
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
  const p95 = Number(pct(95));
  console.log(
    `${name.padEnd(40)} ${String(Math.round(latencies.length / seconds)).padStart(6)} req/s  p50 ${pct(50)} ms  p95 ${pct(95)} ms  p99 ${pct(99)} ms  (target p95 < ${TARGETS.p95Ms} ms: ${p95 < TARGETS.p95Ms ? 'met' : 'NOT met'})`,
  );
}

const json = (path, body) => () => fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
try {
  console.log(`HTTP load: ${REQUESTS} requests per route, concurrency ${CONCURRENCY}`);
  await load('GET /api/health', () => fetch(`${base}/api/health`));
  await load('GET /api/stocks/registry', () => fetch(`${base}/api/stocks/registry`));
  await load('POST /api/stocks/registry/resolve', json('/api/stocks/registry/resolve', { ticker: 'NVDA' }));
  const extra = process.env.BENCH_EXTRA_ROUTES ? JSON.parse(process.env.BENCH_EXTRA_ROUTES) : [];
  for (const { path, body } of extra) await load(`POST ${path}`, json(path, body));
  const rss = rssMb(child.pid);
  console.log(`server RSS after load: ${rss.toFixed(1)} MB (target < ${TARGETS.rssMb} MB: ${rss < TARGETS.rssMb ? 'met' : 'NOT met'})`);
} finally {
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
