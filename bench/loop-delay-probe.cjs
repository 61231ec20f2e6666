// Preloaded into a benched server (NODE_OPTIONS=--require): samples the event loop's delay
// with perf_hooks.monitorEventLoopDelay and, on each SIGUSR2, writes what it saw since the
// previous signal to $SVC_BENCH_ELD_DIR/<pid>-<n>.json (ms) and starts afresh. Inert without
// that variable, so the npm process in front of the server loads it and does nothing.
const dir = process.env.SVC_BENCH_ELD_DIR;
if (dir) {
  const { monitorEventLoopDelay } = require('node:perf_hooks');
  const { writeFileSync, renameSync } = require('node:fs');
  const { join } = require('node:path');
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let n = 0;
  process.on('SIGUSR2', () => {
    const ms = (ns) => ns / 1e6;
    const figures = { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
    const file = join(dir, `${process.pid}-${n++}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(figures));
    renameSync(`${file}.tmp`, file);
    histogram.reset();
  });
}
