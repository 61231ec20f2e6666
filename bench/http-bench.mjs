#!/usr/bin/env node
// `npm run bench` (issue 13): the built service against a bare node:http server that calls
// the same domain functions for the same routes (bench/bare-server.ts), loaded alternately
// A B A B with autocannon so machine drift cancels. Prints per route the service's req/s,
// the bare server's req/s, their ratio and latencies; then idle RSS and start-up time; the
// last line is the worst ratio. Figures only: nothing here fails a build.
//
//   BENCH_SECONDS (5)       seconds per round and server
//   BENCH_ROUNDS (2)        A B rounds per route
//   BENCH_CONNECTIONS (64)  concurrent connections
//   BENCH_ROUTES            comma-separated route names to run (default: all)
//   BENCH_OPEN_SECONDS (5)  seconds of each open-loop phase (0 skips them)
//   DATABASE_URL, REDIS_URL a postgresql:// database and a Redis for both servers (default:
//                           a fresh embedded SQLite file each, in a temp directory)
//
// Then, per route, the tail at a steady load (issue 27): open-loop phases at a quarter and at
// half of the service's own measured peak, on the service and on the bare server at the same
// rates, printing p50, p99 and max latency counted from each request's scheduled send time
// (bench/open-loop.mjs) and the event loop's delay inside each server meanwhile
// (bench/loop-delay-probe.cjs). Last, the bytes of write-ahead log one stored tool call costs
// (bench/wal-bytes.mjs).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { build } from 'vite';
import { COIL, coilBody, freePort } from './load-fixtures.mjs';
import { openLoop } from './open-loop.mjs';
import { walBytesPerCall } from './wal-bytes.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 5);
const ONLY = process.env.BENCH_ROUTES?.split(',').filter(Boolean);
const TARGETS = { ratio: 0.5, p99Ms: 25, idleRssMb: 150, startMs: 2000 };
// Issue 27, at half of the service's peak: p99 of a route that stores the call, p99 of one
// that only reads, and the max of either.
const STEADY_TARGETS = { storesP99Ms: 10, readsP99Ms: 5, maxMs: 50 };
const externalDb = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined;

// Every generate-coil prompt is new, as a stream of agents' would be.
let prompts = 0;
const ROUTES = [
  { name: 'validate-coil', method: 'POST', path: '/api/tools/validate-coil', body: coilBody(), status: 200, stores: true },
  { name: 'receipt', method: 'POST', path: '/api/tools/receipt', body: coilBody(), status: 200, stores: true },
  {
    name: 'generate-coil',
    method: 'POST',
    path: '/api/tools/generate-coil',
    body: () => JSON.stringify({ prompt: `AI chip makers and cloud demand ${prompts++}` }),
    status: 200,
    stores: true,
  },
  {
    name: 'drift-check',
    method: 'POST',
    path: '/api/tools/drift-check',
    body: coilBody({ currentWeightsBps: { NVDA: 4500, AMD: 2500, MSFT: 3000 } }),
    status: 200,
    stores: true,
  },
  // A receipt the service issued for COIL (fetched once before the route is loaded), checked
  // against the published keys on every call.
  {
    name: 'verify',
    method: 'POST',
    path: '/api/coil/verify',
    prepare: async (base) => {
      const res = await fetch(`${base}/api/tools/receipt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ coil: COIL }),
      });
      const { receipt } = await res.json();
      const body = JSON.stringify({ coil: COIL, receipt });
      return () => body;
    },
    status: 200,
  },
  // The answers of these three are the same bytes from both servers (checked before loading):
  // the yardstick does the same work, not less.
  { name: 'GET health', method: 'GET', path: '/api/health', status: 200, sameAnswer: true },
  { name: 'GET stocks/registry', method: 'GET', path: '/api/stocks/registry', status: 200, sameAnswer: true },
  {
    name: 'x402 402 challenge',
    method: 'POST',
    path: '/api/vaults/x402/vault-risk-score',
    body: () => '{}',
    status: 402,
    sameAnswer: true,
  },
].filter((r) => !ONLY || ONLY.includes(r.name));

const FACILITATOR_ENV = {
  FACILITATOR_ENABLED: 'true',
  FACILITATOR_API_KEY: 'bench-facilitator-key-not-a-secret',
  // Never called: the routes benched stop at the 402 challenge.
  FACILITATOR_URL: 'http://127.0.0.1:9',
  FACILITATOR_PAYTO_ADDRESS: '0x00000000000000000000000000000000000A11cE',
  FACILITATOR_ADDRESS: '0x000000000000000000000000000000000000fAc1',
  FACILITATOR_NETWORK: 'broker',
  FACILITATOR_CHAIN_ID: '4663',
};

/** CPU seconds (user + system) a process has used: per request, a figure the machine's other load barely moves. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

/** The pid of the node process serving (npm start runs it under npm and a shell). */
function serverPid(rootPid) {
  for (let pid = rootPid, depth = 0; depth < 4; depth++) {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (argv[0].endsWith('node') && argv.some((a) => a.endsWith('scripts/start.mjs'))) return pid;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    if (!children.length) return rootPid;
    pid = Number(children[0]);
  }
  return rootPid;
}

async function waitFor(url, deadlineMs = 60_000) {
  const started = performance.now();
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return performance.now() - started;
    } catch {
      // Not listening yet: poll again until the deadline.
    }
    if (performance.now() - started > deadlineMs) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function start(command, args, env) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  return {
    child,
    stop: () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
  };
}

function load(base, route) {
  return new Promise((resolve, reject) => {
    const requests = [
      {
        method: route.method,
        path: route.path,
        headers: route.body ? { 'content-type': 'application/json' } : {},
        setupRequest: (req) => (route.body ? { ...req, body: route.body() } : req),
      },
    ];
    autocannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** One request; fails unless it gets the route's status. Returns the body and the x402 header. */
async function check(base, route) {
  const res = await fetch(base + route.path, {
    method: route.method,
    headers: route.body ? { 'content-type': 'application/json' } : {},
    body: route.body?.(),
  });
  const text = await res.text();
  if (res.status !== route.status)
    throw new Error(`${route.name} at ${base}: HTTP ${res.status} (expected ${route.status}): ${text.slice(0, 300)}`);
  return `${res.headers.get('payment-required') ?? ''}\n${text}`;
}

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const eldDir = join(dir, 'loop-delay');
mkdirSync(eldDir);
const PROBE_ENV = { NODE_OPTIONS: `--require ${join(ROOT, 'bench', 'loop-delay-probe.cjs')}`, SVC_BENCH_ELD_DIR: eldDir };
const probeCounts = new Map();

/** The event loop's delay in `pid` since the previous call (bench/loop-delay-probe.cjs). */
async function loopDelaySince(pid) {
  const n = probeCounts.get(pid) ?? 0;
  probeCounts.set(pid, n + 1);
  process.kill(pid, 'SIGUSR2');
  const file = join(eldDir, `${pid}-${n}.json`);
  for (let waited = 0; waited < 5000; waited += 10) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no event-loop delay figures from ${pid}`);
}
// Inside the project so the bundle resolves its packages from node_modules.
const bareDir = join(ROOT, 'node_modules', '.cache', 'svc-bench-bare');
const stops = [];
try {
  // The yardstick, bundled like the service is (vite resolves $lib and $generated).
  await build({
    configFile: false,
    logLevel: 'warn',
    root: ROOT,
    resolve: { alias: { $lib: join(ROOT, 'src/lib'), $generated: join(ROOT, 'src/generated') } },
    define: { __SVC_BUILD_COMMIT__: JSON.stringify('bench') },
    build: { ssr: join(ROOT, 'bench/bare-server.ts'), outDir: bareDir, emptyOutDir: true, minify: false },
  });

  const common = {
    ...PROBE_ENV,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    NODE_ENV: 'production',
    ...FACILITATOR_ENV,
  };
  if (process.env.REDIS_URL) common.REDIS_URL = process.env.REDIS_URL;
  const svcPort = await freePort();
  const barePort = await freePort();
  const svcDb = externalDb ?? `file:${join(dir, 'svc.db')}`;
  const bareDb = externalDb ?? `file:${join(dir, 'bare.db')}`;

  // `npm start` on a built tree, timed to its first 200.
  const svc = start('npm', ['start', '--silent'], {
    ...common,
    PORT: String(svcPort),
    HOST: '127.0.0.1',
    DATABASE_URL: svcDb,
    ORIGIN: `http://127.0.0.1:${svcPort}`,
  });
  stops.push(svc.stop);
  const startMs = await waitFor(`http://127.0.0.1:${svcPort}/api/health`);
  await new Promise((r) => setTimeout(r, 1000));
  const pid = serverPid(svc.child.pid);
  const idleRss = rssMb(pid);

  const bare = start(process.execPath, [join(bareDir, 'bare-server.js')], {
    ...common,
    PORT: String(barePort),
    DATABASE_URL: bareDb,
    ORIGIN: `http://127.0.0.1:${svcPort}`,
  });
  stops.push(bare.stop);
  await waitFor(`http://127.0.0.1:${barePort}/api/health`);

  const servers = { service: `http://127.0.0.1:${svcPort}`, bare: `http://127.0.0.1:${barePort}` };
  const pids = { service: pid, bare: bare.child.pid };
  const db = externalDb ? `PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ''}` : 'embedded SQLite';
  console.log(`HTTP bench: ${CONNECTIONS} connections, ${ROUNDS} x ${SECONDS} s per server and route, alternating service/bare, ${db}`);
  console.log(
    `${'route'.padEnd(20)} ${'service/s'.padStart(9)} ${'bare/s'.padStart(8)} ${'ratio'.padStart(6)}  ${'svc p50/p99 ms'.padStart(15)}  ${'bare p50/p99 ms'.padStart(15)}  ${'CPU ms/req svc/bare'.padStart(19)}  errors`,
  );
  let worst = { ratio: Infinity, name: '' };
  const peaks = new Map();
  for (const route of ROUTES) {
    if (route.prepare) route.body = await route.prepare(servers.service);
    const totals = { service: { n: 0, s: 0, p50: [], p99: 0, bad: 0, cpu: 0 }, bare: { n: 0, s: 0, p50: [], p99: 0, bad: 0, cpu: 0 } };
    const answers = [];
    for (const base of Object.values(servers)) answers.push(await check(base, route));
    if (route.sameAnswer && answers[0] !== answers[1])
      throw new Error(`${route.name}: the bare server answers differently from the service`);
    // Warm both (JIT, statement caches) before anything is counted.
    for (const base of Object.values(servers))
      await new Promise((r, j) =>
        autocannon(
          {
            url: base,
            connections: CONNECTIONS,
            duration: 1,
            requests: [
              {
                method: route.method,
                path: route.path,
                headers: { 'content-type': 'application/json' },
                setupRequest: (q) => (route.body ? { ...q, body: route.body() } : q),
              },
            ],
          },
          (e, x) => (e ? j(e) : r(x)),
        ),
      );
    for (let round = 0; round < ROUNDS; round++) {
      for (const [which, base] of Object.entries(servers)) {
        const cpuBefore = cpuSeconds(pids[which]);
        const r = await load(base, route);
        const t = totals[which];
        t.cpu += cpuSeconds(pids[which]) - cpuBefore;
        t.n += r.requests.total;
        t.s += r.duration;
        t.p50.push(r.latency.p50);
        t.p99 = Math.max(t.p99, r.latency.p99);
        t.bad +=
          r.errors +
          r.timeouts +
          (route.status === 200 ? r.non2xx : r.requests.total - (r[`${route.status}`] ?? r.statusCodeStats?.[route.status]?.count ?? 0));
      }
    }
    const rate = (t) => t.n / t.s;
    const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratio = rate(totals.service) / rate(totals.bare);
    peaks.set(route, rate(totals.service));
    if (ratio < worst.ratio) worst = { ratio, name: route.name };
    const flag = ratio >= TARGETS.ratio && totals.service.p99 <= TARGETS.p99Ms ? '' : '  (target not met)';
    console.log(
      `${route.name.padEnd(20)} ${rate(totals.service).toFixed(0).padStart(9)} ${rate(totals.bare).toFixed(0).padStart(8)} ${ratio.toFixed(2).padStart(6)}  ${`${med(totals.service.p50)}/${totals.service.p99}`.padStart(15)}  ${`${med(totals.bare.p50)}/${totals.bare.p99}`.padStart(15)}  ${`${((totals.service.cpu * 1000) / totals.service.n).toFixed(2)}/${((totals.bare.cpu * 1000) / totals.bare.n).toFixed(2)}`.padStart(19)}  ${totals.service.bad}/${totals.bare.bad}${flag}`,
    );
  }
  if (OPEN_SECONDS > 0) {
    console.log(
      `\nOpen loop (${OPEN_SECONDS} s per phase after 1 s unmeasured at the same rate, ${CONNECTIONS} keep-alive connections, latency from the scheduled send time; ms)`,
    );
    console.log(
      `${'route'.padEnd(20)} ${'rate/s'.padStart(7)}  ${'svc p50/p99/max'.padStart(17)}  ${'svc loop p99/max'.padStart(16)}  ${'bare p50/p99/max'.padStart(17)}  ${'bare loop p99/max'.padStart(17)}  ${'gen loop max'.padStart(12)}  errors`,
    );
    const fmt = (...xs) => xs.map((x) => (x < 10 ? x.toFixed(1) : x.toFixed(0))).join('/');
    for (const route of ROUTES) {
      for (const share of [0.25, 0.5]) {
        const rate = Math.round(peaks.get(route) * share);
        const seen = {};
        for (const [which, base] of Object.entries(servers)) {
          // A steady load: the first second (the generator's own JIT, the server's first
          // requests on 64 connections) is sent and not counted.
          await openLoop(base, route, { rate, seconds: 1, connections: CONNECTIONS });
          await loopDelaySince(pids[which]);
          // The generator's own event-loop delay: a request it sends late counts against the
          // server, so this is the floor under any max in the row, on both servers.
          const generatorLoop = monitorEventLoopDelay({ resolution: 1 });
          generatorLoop.enable();
          const r = await openLoop(base, route, { rate, seconds: OPEN_SECONDS, connections: CONNECTIONS });
          generatorLoop.disable();
          seen[which] = { ...r, loop: await loopDelaySince(pids[which]), generatorMax: generatorLoop.max / 1e6 };
        }
        const { service: a, bare: b } = seen;
        const p99Target = route.stores ? STEADY_TARGETS.storesP99Ms : STEADY_TARGETS.readsP99Ms;
        const flag = share === 0.5 && (a.p99 > p99Target || a.max > STEADY_TARGETS.maxMs) ? '  (target not met)' : '';
        console.log(
          `${`${route.name} ${share === 0.25 ? '1/4' : '1/2'}`.padEnd(20)} ${String(rate).padStart(7)}  ${fmt(a.p50, a.p99, a.max).padStart(17)}  ${fmt(a.loop.p99, a.loop.max).padStart(16)}  ${fmt(b.p50, b.p99, b.max).padStart(17)}  ${fmt(b.loop.p99, b.loop.max).padStart(17)}  ${fmt(a.generatorMax, b.generatorMax).padStart(12)}  ${a.bad}/${b.bad}${flag}`,
        );
      }
    }
    console.log(
      `steady targets at 1/2 of peak: p99 <= ${STEADY_TARGETS.storesP99Ms} ms on a route that stores the call, <= ${STEADY_TARGETS.readsP99Ms} ms on one that reads, max <= ${STEADY_TARGETS.maxMs} ms`,
    );
  }
  const wal = await walBytesPerCall({ base: servers.service, path: '/api/tools/validate-coil', body: coilBody(), database: svcDb });
  if (wal) console.log(`\n${wal}`);
  const loadedRss = rssMb(pid);
  console.log(`service RSS: idle ${idleRss.toFixed(0)} MB (target <= ${TARGETS.idleRssMb}), after load ${loadedRss.toFixed(0)} MB`);
  console.log(`npm start on a built tree to first 200: ${startMs.toFixed(0)} ms (target <= ${TARGETS.startMs})`);
  console.log(`targets: ratio >= ${TARGETS.ratio} of bare and p99 <= ${TARGETS.p99Ms} ms per route`);
  console.log(`worst ratio: ${worst.ratio.toFixed(2)} (${worst.name})`);
} finally {
  for (const stop of stops) stop();
  rmSync(dir, { recursive: true, force: true });
}
