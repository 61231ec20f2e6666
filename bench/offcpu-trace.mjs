// Where the service's main thread spends a steady load (issue 27): on the CPU, waiting for a
// CPU another task holds, blocked in the kernel (with the kernel stacks it blocked in), or
// asleep waiting for work. A CPU profile sees only the first; the event loop's delay sees the
// sum. This reads the scheduler's own record of every switch of the main thread, through the
// kernel's tracefs, while bench/open-loop.mjs holds a fixed rate on one route, and counts every
// fsync of the server's threads.
//
// Needs root and tracefs (mounted here if it is not). On a built tree:
//   node bench/offcpu-trace.mjs [validate-coil|registry] [rate/s] [seconds] [database folder]
// The database folder defaults to a new one under the system's temporary folder; give one on
// another file system (/dev/shm, say) to compare.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coilBody, freePort } from './load-fixtures.mjs';
import { openLoop } from './open-loop.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const TRACING = '/sys/kernel/tracing';
const [routeName = 'validate-coil', rateArg = '1000', secondsArg = '10', dbFolder] = process.argv.slice(2);
const rate = Number(rateArg);
const seconds = Number(secondsArg);

const ROUTES = {
  'validate-coil': { method: 'POST', path: '/api/tools/validate-coil', body: coilBody(), status: 200 },
  registry: { method: 'GET', path: '/api/stocks/registry', status: 200 },
};
const route = ROUTES[routeName];
if (!route || !(rate > 0) || !(seconds > 0)) {
  console.error(`usage: node bench/offcpu-trace.mjs [${Object.keys(ROUTES).join('|')}] [rate/s] [seconds] [database folder]`);
  process.exit(2);
}
if (!existsSync(`${TRACING}/trace`)) execFileSync('mount', ['-t', 'tracefs', 'nodev', TRACING]);
const traceFile = (name, value) => writeFileSync(`${TRACING}/${name}`, value);

const dir = dbFolder ?? mkdtempSync(join(tmpdir(), 'svc-offcpu-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), '--no-build'], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    ORIGIN: base,
    DATABASE_URL: `file:${join(dir, `offcpu-${process.pid}.db`)}`,
    RATE_LIMIT_MAX: '1000000000',
    NODE_ENV: 'production',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const EVENTS = ['sched/sched_switch', 'sched/sched_wakeup', 'ext4/ext4_sync_file_enter', 'ext4/ext4_sync_file_exit'];
try {
  for (const deadline = Date.now() + 60_000; ;) {
    if ((await fetch(`${base}/api/health`).catch(() => null))?.ok) break;
    if (Date.now() > deadline) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  // The server runs in the process start.mjs is: its main thread's id is the process id.
  const main = server.pid;
  await openLoop(base, route, { rate, seconds: 2, connections: 64 });
  const threads = new Set(readdirSync(`/proc/${main}/task`).map(Number));

  traceFile('tracing_on', '0');
  traceFile('trace', '');
  traceFile('buffer_size_kb', '65536');
  traceFile('trace_clock', 'mono');
  traceFile('events/sched/sched_switch/filter', `prev_pid == ${main} || next_pid == ${main}`);
  traceFile('events/sched/sched_wakeup/filter', `pid == ${main}`);
  // A kernel stack each time the main thread blocks uninterruptibly (TASK_UNINTERRUPTIBLE = 2).
  traceFile('events/sched/sched_switch/trigger', `stacktrace if prev_pid == ${main} && prev_state & 2`);
  for (const event of EVENTS) traceFile(`events/${event}/enable`, '1');
  const schedstat = () => readFileSync(`/proc/${main}/task/${main}/schedstat`, 'utf8').split(' ').map(Number);
  traceFile('tracing_on', '1');
  const before = schedstat();
  const load = await openLoop(base, route, { rate, seconds, connections: 64 });
  const after = schedstat();
  traceFile('tracing_on', '0');
  traceFile('events/sched/sched_switch/trigger', `!stacktrace if prev_pid == ${main} && prev_state & 2`);
  for (const event of EVENTS) traceFile(`events/${event}/enable`, '0');
  traceFile('events/sched/sched_switch/filter', '0');
  traceFile('events/sched/sched_wakeup/filter', '0');
  const text = readFileSync(`${TRACING}/trace`, 'utf8');
  traceFile('trace', '');
  report(
    text,
    main,
    threads,
    load,
    [load.startedAtMs / 1000, load.startedAtMs / 1000 + seconds],
    [after[0] - before[0], after[1] - before[1]],
  );
} finally {
  server.kill('SIGKILL');
  if (!dbFolder) rmSync(dir, { recursive: true, force: true });
}

function parse(text) {
  const events = [];
  for (const line of text.split('\n')) {
    if (line.startsWith(' => ')) {
      const last = events[events.length - 1];
      if (last?.stack) last.stack.push(line.slice(4).trim());
      continue;
    }
    // The trigger writes its stack as an event of its own, right after the switch it belongs to.
    if (line.endsWith(': <stack trace>')) {
      const last = events[events.length - 1];
      if (last) last.stack = [];
      continue;
    }
    const m = /^\s*.+?-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (\S+): (.*)$/.exec(line);
    if (!m) continue;
    const [, pid, at, name, rest] = m;
    events.push({ pid: Number(pid), at: Number(at), name, rest });
  }
  return events;
}

function report(text, main, threads, load, [from, to], [onCpuNs, waitingNs]) {
  const field = (rest, key) => new RegExp(`${key}=(\\S+)`).exec(rest)?.[1];
  const events = parse(text);
  const inWindow = (at) => at >= from && at <= to;
  // The thread's state between its events: on a CPU; preempted or woken and waiting for a CPU
  // (R); blocked (D); asleep (S). The switch from the idle task to the thread is missing from
  // this kernel's trace when the thread wakes on an idle CPU, so a thread that was woken and is
  // next seen leaving a CPU counts as on it from its wake-up: on an idle CPU it runs at once.
  const runs = [];
  const waits = { R: [], D: [], S: [] };
  const takers = new Map();
  const blockedStacks = new Map();
  let state = null;
  const close = (at) => {
    if (!state || !inWindow(at)) return;
    const ms = (at - state.at) * 1e3;
    if (state.kind === 'on') return void runs.push({ at: state.at, ms });
    (waits[state.kind] ??= []).push(ms);
    if (state.kind === 'R' && state.taker) takers.set(state.taker, (takers.get(state.taker) ?? 0) + ms);
    if (state.kind === 'D') {
      const key = (state.stack ?? [])
        .filter((frame) => !/^(trace_event|__traceiter|__schedule|schedule\b)/.test(frame))
        .slice(0, 5)
        .join(' < ');
      const entry = blockedStacks.get(key) ?? { n: 0, ms: 0, max: 0 };
      blockedStacks.set(key, { n: entry.n + 1, ms: entry.ms + ms, max: Math.max(entry.max, ms) });
    }
  };
  for (const e of events) {
    if (e.name === 'sched_wakeup') {
      if (state && (state.kind === 'S' || state.kind === 'D')) {
        close(e.at);
        state = { kind: 'R', at: e.at, woken: true };
      }
    } else if (e.name === 'sched_switch') {
      const prev = Number(field(e.rest, 'prev_pid'));
      if (prev === main) {
        if (state?.woken) state = { kind: 'on', at: state.at };
        close(e.at);
        const kind = field(e.rest, 'prev_state')[0];
        state = { kind: kind === 'R' || kind === 'D' ? kind : 'S', at: e.at, taker: field(e.rest, 'next_comm'), stack: e.stack };
      } else {
        close(e.at);
        state = { kind: 'on', at: e.at };
      }
    }
  }
  const fsyncs = { main: [], others: [] };
  const entered = new Map();
  for (const e of events) {
    if (e.name === 'ext4_sync_file_enter') entered.set(e.pid, e.at);
    else if (e.name === 'ext4_sync_file_exit' && entered.has(e.pid) && threads.has(e.pid) && inWindow(e.at)) {
      (e.pid === main ? fsyncs.main : fsyncs.others).push((e.at - entered.get(e.pid)) * 1e3);
      entered.delete(e.pid);
    }
  }
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const max = (xs) => (xs.length ? Math.max(...xs) : 0);
  const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : 0);
  const f = (x) => x.toFixed(x < 10 ? 1 : 0);
  const span = (to - from) * 1e3;
  console.log(
    `${route.method} ${route.path} at ${rate}/s for ${seconds} s, 64 connections: p50 / p99 / max ${f(load.p50)} / ${f(load.p99)} / ${f(load.max)} ms, ${load.bad} bad`,
  );
  console.log(`the server's main thread (tid ${main}) over the ${f(span)} ms of the load:`);
  // The kernel's own totals (/proc/<pid>/task/<tid>/schedstat), against which the trace's sums are checked.
  console.log(`  schedstat: on a CPU ${f(onCpuNs / 1e6)} ms, runnable and waiting for one ${f(waitingNs / 1e6)} ms`);
  const line = (what, xs) =>
    console.log(
      `  ${what.padEnd(40)} ${f(sum(xs)).padStart(6)} ms (${f((100 * sum(xs)) / span)} %), ${xs.length} times, longest ${f(max(xs))} ms`,
    );
  line(
    'on a CPU',
    runs.map((r) => r.ms),
  );
  line('ready, waiting for a CPU (preempted)', waits.R);
  line('blocked in the kernel (uninterruptible)', waits.D);
  line('asleep (waiting for work, or a lock)', waits.S);
  const top = [...takers].sort((a, b) => b[1] - a[1]).slice(0, 6);
  console.log(`  the CPU went, while it waited, to: ${top.map(([who, ms]) => `${who} ${f(ms)} ms`).join(', ')}`);
  for (const [stack, { n, ms, max: longest }] of [...blockedStacks].sort((a, b) => b[1].ms - a[1].ms).slice(0, 4))
    console.log(`  blocked ${n} times, ${f(ms)} ms, longest ${f(longest)} ms in: ${stack || '(no stack)'}`);
  const longestRuns = [...runs].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`  longest stretches on a CPU: ${longestRuns.map((r) => `${f(r.ms)} ms`).join(', ')}`);
  for (const [who, xs] of Object.entries(fsyncs))
    console.log(
      `fsync by ${who === 'main' ? 'the main thread' : "the server's other threads"}: ${xs.length}, median ${f(median(xs))} ms, longest ${f(max(xs))} ms`,
    );
}
