#!/usr/bin/env node
// `npm run bench:strategist`: the local strategist against the theses of
// bench/strategist/theses.json. Prints the pass rate per class and overall, the time per
// thesis after start-up, and (with --verbose, or BENCH_VERBOSE=1) every failed check.
// Figures only: it exits 0 whatever the rate.
//
//   BENCH_ROUNDS (20)  timed rounds over every thesis, after one warm-up round
import { runnerImport } from 'vite';

const verbose = process.argv.includes('--verbose') || process.env.BENCH_VERBOSE === '1';
const { module } = await runnerImport(new URL('./strategist/runner.ts', import.meta.url).pathname, {
  configFile: false,
  logLevel: 'warn',
});
const report = await module.runBench({ rounds: Number(process.env.BENCH_ROUNDS ?? 20) });

const pct = (p, t) => `${((100 * p) / t).toFixed(0).padStart(3)}%`;
const width = Math.max(...report.perClass.map((c) => c.class.length), 'overall'.length);
console.log(`strategist benchmark: ${report.total} theses`);
for (const c of report.perClass)
  console.log(`  ${c.class.padEnd(width)}  ${String(c.passed).padStart(3)} / ${String(c.total).padEnd(3)} ${pct(c.passed, c.total)}`);
console.log(
  `  ${'overall'.padEnd(width)}  ${String(report.passed).padStart(3)} / ${String(report.total).padEnd(3)} ${pct(report.passed, report.total)}`,
);
const t = report.msPerThesis;
console.log(
  `time per thesis after start-up: mean ${t.mean.toFixed(3)} ms, p50 ${t.p50.toFixed(3)} ms, p95 ${t.p95.toFixed(3)} ms, max ${t.max.toFixed(3)} ms`,
);
const failed = report.results.filter((r) => r.failures.length);
if (verbose) for (const r of failed) console.log(`  FAIL ${r.id} (${r.class}): ${r.failures.join('; ')}`);
else if (failed.length) console.log(`failed: ${failed.map((r) => r.id).join(', ')} (--verbose says why)`);
