#!/usr/bin/env node
// `npm run bench` (issues 13, 27, 37): the built service against three yardsticks measured in
// the same run, loaded alternately (service, same-work, bare ceiling, durable ceiling, then
// again) with autocannon so the machine's drift cancels:
//   - same-work: a bare node:http server that calls the same domain functions and the same
//     stores for the same routes (bench/bare-server.ts): what the framework, the front and the
//     per-call rules cost over the work itself;
//   - bare ceiling: read, parse and hash the body, answer as many bytes (bench/ceiling-server.mjs);
//   - durable ceiling: the same plus one stored row per request, group commit, WAL,
//     synchronous=NORMAL (in PostgreSQL when DATABASE_URL says so).
// Prints per route the rates, the service's ratio to each yardstick and its latencies; then,
// per route, open-loop phases at shares of the service's own peak on all four servers at the
// same rate; then the ratio targets of issue 37, each met or not; idle RSS and start-up time.
// Figures only: nothing here fails a build.
//
//   BENCH_SECONDS (5)       seconds per round and server
//   BENCH_ROUNDS (2)        rounds per route (each round loads every server once)
//   BENCH_CONNECTIONS (64)  concurrent connections
//   BENCH_ROUTES            comma-separated route names to run (default: all)
//   BENCH_OPEN_SECONDS (5)  seconds of each open-loop phase (0 skips them)
//   BENCH_OPEN_SHARES (0.5) comma-separated shares of the service's peak for the open loop
//   DATABASE_URL, REDIS_URL a postgresql:// database and a Redis for every server (default:
//                           a fresh embedded SQLite file each, in a temp directory)
//
// The open loop (issue 27) counts latency from each request's scheduled send time
// (bench/open-loop.mjs) and reads the event loop's delay inside each server meanwhile
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
const TARGETS = { idleRssMb: 150, startMs: 2000 };
// Issue 37: every target is a ratio to a yardstick measured in the same run, alternating, so
// the machine's drift cancels. Every route against the same-work server; the two routes that
// store the least against the durable ceiling; the answers kept in memory against the bare one.
const RATIO_TARGETS = { sameWork: 0.8, durable: 0.3, bare: 0.8 };
const DURABLE_RATIO_ROUTES = new Set(['validate-coil', 'receipt']);
const BARE_RATIO_ROUTES = new Set(['GET health', 'GET stocks/registry', 'x402 402 challenge']);
// The open-loop phases, as shares of the service's own peak (the targets are read at 1/2).
const OPEN_SHARES = (process.env.BENCH_OPEN_SHARES ?? '0.5').split(',').map(Number);
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

  // The two ceilings (bench/ceiling-server.mjs): what this machine does for a request at all,
  // without and with one stored row.
  const ceilings = {};
  for (const mode of ['bare', 'durable']) {
    const port = await freePort();
    const ceiling = start(process.execPath, [join(ROOT, 'bench', 'ceiling-server.mjs')], {
      ...PROBE_ENV,
      CEILING_MODE: mode,
      PORT: String(port),
      DATABASE_URL: externalDb ?? `file:${join(dir, `ceiling-${mode}.db`)}`,
    });
    stops.push(ceiling.stop);
    await waitFor(`http://127.0.0.1:${port}/`);
    ceilings[mode] = { base: `http://127.0.0.1:${port}`, pid: ceiling.child.pid };
  }

  // In the order they are loaded, alternating within every round.
  const servers = {
    service: `http://127.0.0.1:${svcPort}`,
    'same-work': `http://127.0.0.1:${barePort}`,
    'bare ceiling': ceilings.bare.base,
    'durable ceiling': ceilings.durable.base,
  };
  const pids = { service: pid, 'same-work': bare.child.pid, 'bare ceiling': ceilings.bare.pid, 'durable ceiling': ceilings.durable.pid };
  const names = Object.keys(servers);
  const db = externalDb ? `PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ''}` : 'embedded SQLite';
  console.log(
    `HTTP bench: ${CONNECTIONS} connections, ${ROUNDS} x ${SECONDS} s per server and route, alternating ${names.join(' / ')}, ${db}`,
  );
  console.log(
    `${'route'.padEnd(20)} ${'service/s'.padStart(9)} ${'same-work/s'.padStart(11)} ${'bare/s'.padStart(8)} ${'durable/s'.padStart(9)}  ${'ratio same/bare/durable'.padStart(23)}  ${'svc p50/p99 ms'.padStart(14)}  ${'CPU ms/req svc/same'.padStart(19)}  errors`,
  );
  const peaks = new Map();
  const ratios = new Map();
  for (const route of ROUTES) {
    if (route.prepare) route.body = await route.prepare(servers.service);
    const totals = Object.fromEntries(names.map((n) => [n, { n: 0, s: 0, p50: [], p99: 0, bad: 0, cpu: 0 }]));
    const serviceAnswer = await check(servers.service, route);
    const sameWorkAnswer = await check(servers['same-work'], route);
    if (route.sameAnswer && serviceAnswer !== sameWorkAnswer)
      throw new Error(`${route.name}: the same-work server answers differently from the service`);
    // The ceilings answer as many bytes as the service does, with its status.
    const length = Buffer.byteLength(serviceAnswer.slice(serviceAnswer.indexOf('\n') + 1));
    for (const mode of ['bare', 'durable'])
      await fetch(`${ceilings[mode].base}/__ceiling/answer-length`, {
        method: 'POST',
        body: JSON.stringify({ route: route.path, length, status: route.status }),
      });
    // Warm every server (JIT, statement caches) before anything is counted.
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
    const svc = totals.service;
    const r = {
      same: rate(svc) / rate(totals['same-work']),
      bare: rate(svc) / rate(totals['bare ceiling']),
      durable: rate(svc) / rate(totals['durable ceiling']),
    };
    peaks.set(route, rate(svc));
    ratios.set(route, r);
    const bad = names.map((n) => totals[n].bad).join('/');
    console.log(
      `${route.name.padEnd(20)} ${rate(svc).toFixed(0).padStart(9)} ${rate(totals['same-work']).toFixed(0).padStart(11)} ${rate(totals['bare ceiling']).toFixed(0).padStart(8)} ${rate(totals['durable ceiling']).toFixed(0).padStart(9)}  ${`${r.same.toFixed(2)}/${r.bare.toFixed(2)}/${r.durable.toFixed(2)}`.padStart(23)}  ${`${med(svc.p50)}/${svc.p99}`.padStart(14)}  ${`${((svc.cpu * 1000) / svc.n).toFixed(2)}/${((totals['same-work'].cpu * 1000) / totals['same-work'].n).toFixed(2)}`.padStart(19)}  ${bad}`,
    );
  }
  const verdicts = [];
  const verdict = (what, figure, target, met) => verdicts.push(`${met ? 'met    ' : 'NOT met'}  ${what}: ${figure} (target ${target})`);
  for (const route of ROUTES) {
    const r = ratios.get(route);
    verdict(`${route.name} / same-work`, r.same.toFixed(2), '>= 0.8', r.same >= RATIO_TARGETS.sameWork);
    if (DURABLE_RATIO_ROUTES.has(route.name))
      verdict(`${route.name} / durable ceiling`, r.durable.toFixed(2), '>= 0.3', r.durable >= RATIO_TARGETS.durable);
    if (BARE_RATIO_ROUTES.has(route.name))
      verdict(`${route.name} / bare ceiling`, r.bare.toFixed(2), '>= 0.8', r.bare >= RATIO_TARGETS.bare);
  }
  if (OPEN_SECONDS > 0) {
    console.log(
      `\nOpen loop (${OPEN_SECONDS} s per phase after 1 s unmeasured at the same rate, ${CONNECTIONS} keep-alive connections, latency from the scheduled send time; ms; p50/p99/max, and each server's event-loop p99/max)`,
    );
    console.log(
      `${'route'.padEnd(20)} ${'rate/s'.padStart(7)}  ${names.map((n) => n.padStart(17)).join('  ')}  ${'gen loop max'.padStart(12)}  errors`,
    );
    const fmt = (...xs) => xs.map((x) => (x < 10 ? x.toFixed(1) : x.toFixed(0))).join('/');
    for (const route of ROUTES) {
      for (const share of OPEN_SHARES) {
        const rate = Math.round(peaks.get(route) * share);
        const seen = {};
        for (const [which, base] of Object.entries(servers)) {
          // A steady load: the first second (the generator's own JIT, the server's first
          // requests on 64 connections) is sent and not counted.
          await openLoop(base, route, { rate, seconds: 1, connections: CONNECTIONS });
          await loopDelaySince(pids[which]);
          // The generator's own event-loop delay: a request it sends late counts against the
          // server, so this is the floor under any max in the row, on every server.
          const generatorLoop = monitorEventLoopDelay({ resolution: 1 });
          generatorLoop.enable();
          const r = await openLoop(base, route, { rate, seconds: OPEN_SECONDS, connections: CONNECTIONS });
          generatorLoop.disable();
          seen[which] = { ...r, loop: await loopDelaySince(pids[which]), generatorMax: generatorLoop.max / 1e6 };
        }
        const label = `${route.name} ${share === 0.5 ? '1/2' : share === 0.25 ? '1/4' : share}`;
        console.log(
          `${label.padEnd(20)} ${String(rate).padStart(7)}  ${names.map((n) => fmt(seen[n].p50, seen[n].p99, seen[n].max).padStart(17)).join('  ')}  ${fmt(Math.max(...names.map((n) => seen[n].generatorMax))).padStart(12)}  ${names.map((n) => seen[n].bad).join('/')}`,
        );
        console.log(
          `${''.padEnd(20)} ${'loop'.padStart(7)}  ${names.map((n) => fmt(seen[n].loop.p99, seen[n].loop.max).padStart(17)).join('  ')}`,
        );
        if (share === 0.5) {
          const yardstick = route.stores ? 'durable ceiling' : 'bare ceiling';
          const a = seen.service;
          const b = seen[yardstick];
          verdict(
            `${route.name} open loop 1/2 p99 / ${yardstick}`,
            `${fmt(a.p99)} / ${fmt(b.p99)} ms = ${(a.p99 / b.p99).toFixed(1)}x`,
            '<= 2x',
            a.p99 <= 2 * b.p99,
          );
          verdict(
            `${route.name} open loop 1/2 max / ${yardstick}`,
            `${fmt(a.max)} / ${fmt(b.max)} ms = ${(a.max / b.max).toFixed(1)}x`,
            '<= 3x',
            a.max <= 3 * b.max,
          );
        }
      }
    }
  }
  console.log(`\nTargets (issue 37, same-run ratios, ${db}):`);
  for (const line of verdicts) console.log(`  ${line}`);
  const wal = await walBytesPerCall({ base: servers.service, path: '/api/tools/validate-coil', body: coilBody(), database: svcDb });
  if (wal) console.log(`\n${wal}`);
  const loadedRss = rssMb(pid);
  console.log(`service RSS: idle ${idleRss.toFixed(0)} MB (target <= ${TARGETS.idleRssMb}), after load ${loadedRss.toFixed(0)} MB`);
  console.log(`npm start on a built tree to first 200: ${startMs.toFixed(0)} ms (target <= ${TARGETS.startMs})`);
} finally {
  for (const stop of stops) stop();
  rmSync(dir, { recursive: true, force: true });
}
