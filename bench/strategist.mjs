#!/usr/bin/env node
// `npm run bench:strategist`: the local strategist against each set of bench/strategist/, printed
// apart: theses.json (the development set, written beside the reader), held-out.json (written
// afterwards by another engineer), blind-dev.json (written blind, a development set whose
// failures may be read) and every generalization-*.json (written blind, from the
// registry and the class descriptions only). Per class: passed / total and the hard violations
// (an asset the thesis rules out or bets against held, a pin missed by more than 100 bps); then
// the time per thesis after start-up.
//
// --verbose (or BENCH_VERBOSE=1) lists each failed check of the development and held-out sets.
// A generalization set is only ever scored: its ids, sentences and failed checks are never
// printed, --verbose or not (the runner does not even keep them).
// Figures only: it exits 0 whatever the rate.
//
//   BENCH_ROUNDS (20)  timed rounds over every thesis of each set, after one warm-up round
import { performance } from 'node:perf_hooks';
import { runnerImport } from 'vite';

const verbose = process.argv.includes('--verbose') || process.env.BENCH_VERBOSE === '1';
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const startedAt = performance.now();
const { module } = await runnerImport(new URL('./strategist/runner.ts', import.meta.url).pathname, {
  configFile: false,
  logLevel: 'warn',
});
const loadedAt = performance.now();

const pct = (p, t) => `${((100 * p) / t).toFixed(0).padStart(3)}%`;
const row = (label, width, s) =>
  `  ${label.padEnd(width)}  ${String(s.passed).padStart(3)} / ${String(s.total).padEnd(3)} ${pct(s.passed, s.total)}   ${String(s.violations).padStart(3)} hard violation(s)${s.violating ? ` in ${s.violating} thesis(es)` : ''}`;

let firstAnswerMs;
for (const set of module.benchSets()) {
  const t0 = performance.now();
  const report = await module.runBench({ rounds, path: new URL(`./strategist/${set.file}`, import.meta.url), blind: set.blind });
  firstAnswerMs ??= performance.now() - t0;
  const width = Math.max(...report.perClass.map((c) => c.class.length), 'overall'.length);
  console.log(
    `strategist benchmark, ${set.label} (${set.file}): ${report.overall.total} theses${set.blind ? ', written blind: scores only' : ''}`,
  );
  for (const c of report.perClass) console.log(row(c.class, width, c));
  console.log(row('overall', width, report.overall));
  const t = report.msPerThesis;
  if (t.samples > 0)
    console.log(
      `  time per thesis after start-up (${t.samples} answers): p50 ${t.p50.toFixed(3)} ms, p95 ${t.p95.toFixed(3)} ms, mean ${t.mean.toFixed(3)} ms, max ${t.max.toFixed(3)} ms; CPU time p50 ${report.cpuMsPerThesis.p50.toFixed(3)} ms, p95 ${report.cpuMsPerThesis.p95.toFixed(3)} ms`,
    );
  if (set.blind) continue;
  const failed = report.results.filter((r) => r.failures.length);
  if (verbose) for (const r of failed) console.log(`  FAIL ${r.id} (${r.class}): ${r.failures.join('; ')}`);
  else if (failed.length) console.log(`  failed: ${failed.map((r) => r.id).join(', ')} (--verbose says why)`);
}
console.log(
  `start-up: the strategist modules and the language model load in ${(loadedAt - startedAt).toFixed(0)} ms (the model alone ${module.startup.nlpLoadMs.toFixed(0)} ms); the first set (first answers and the lexicon's compilation included) took ${firstAnswerMs.toFixed(0)} ms`,
);
