#!/usr/bin/env node
// `npm run bench:strategist`: the local strategist against the theses of
// bench/strategist/theses.json (written beside the reader) and bench/strategist/held-out.json
// (written afterwards by another engineer and never used to tune it: the honest figure).
// Prints the pass rate per class and overall for each set, the time per thesis after
// start-up, and (with --verbose, or BENCH_VERBOSE=1) every failed check.
// Figures only: it exits 0 whatever the rate.
//
//   BENCH_ROUNDS (20)  timed rounds over every thesis, after one warm-up round
import { runnerImport } from 'vite';

const verbose = process.argv.includes('--verbose') || process.env.BENCH_VERBOSE === '1';
const { module } = await runnerImport(new URL('./strategist/runner.ts', import.meta.url).pathname, {
  configFile: false,
  logLevel: 'warn',
});

const pct = (p, t) => `${((100 * p) / t).toFixed(0).padStart(3)}%`;
for (const [label, file, rounds] of [
  ['development set', 'theses.json', Number(process.env.BENCH_ROUNDS ?? 20)],
  ['held-out set', 'held-out.json', 0],
]) {
  const report = await module.runBench({ rounds, path: new URL(`./strategist/${file}`, import.meta.url) });
  const width = Math.max(...report.perClass.map((c) => c.class.length), 'overall'.length);
  console.log(`strategist benchmark, ${label} (${file}): ${report.total} theses`);
  for (const c of report.perClass)
    console.log(`  ${c.class.padEnd(width)}  ${String(c.passed).padStart(3)} / ${String(c.total).padEnd(3)} ${pct(c.passed, c.total)}`);
  console.log(
    `  ${'overall'.padEnd(width)}  ${String(report.passed).padStart(3)} / ${String(report.total).padEnd(3)} ${pct(report.passed, report.total)}`,
  );
  const t = report.msPerThesis;
  if (rounds > 0)
    console.log(
      `time per thesis after start-up: mean ${t.mean.toFixed(3)} ms, p50 ${t.p50.toFixed(3)} ms, p95 ${t.p95.toFixed(3)} ms, max ${t.max.toFixed(3)} ms`,
    );
  const failed = report.results.filter((r) => r.failures.length);
  if (verbose) for (const r of failed) console.log(`  FAIL ${r.id} (${r.class}): ${r.failures.join('; ')}`);
  else if (failed.length) console.log(`failed: ${failed.map((r) => r.id).join(', ')} (--verbose says why)`);
}
