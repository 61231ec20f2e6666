/**
 * The strategist benchmark: every thesis of a set through the local strategist (the same
 * `runStrategist` the routes call, provider `mock`), its checks, the pass rate and the hard
 * violations per class and overall, and the time per thesis after start-up. Figures only:
 * nothing here fails.
 *
 * A blind set (generalization-*.json, written by someone who never saw the reader) is measured,
 * never read: its report keeps no thesis id, sentence or failed check, only counts per class,
 * so nothing that prints it can show which case failed (issue 33: fix the class, not the case).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { SvcError } from '../../src/lib/server/errors';
import { loadThesisNlp, runStrategist, type StrategistConfig } from '../../src/lib/server/strategist';
import { judge, type BenchThesis, type Outcome } from './checks';

const CONFIG: StrategistConfig = { strategistProvider: 'mock', partner: { timeoutMs: 1000 } };
const NOW = new Date('2026-01-01T00:00:00Z');
const HERE = new URL('./', import.meta.url);

/** The reader's library is loaded once, here, so that the timings below are after start-up (and so that
 * the module runner that imports this file is still open when the library is imported). */
export const startup = await (async () => {
  const start = performance.now();
  await loadThesisNlp();
  return { nlpLoadMs: performance.now() - start };
})();

export interface BenchSet {
  label: string;
  file: string;
  /** Written blind: only counts are reported. */
  blind: boolean;
}

/** The sets, in the order they are printed: development, held-out, blind-dev, then every generalization-*.json. */
export function benchSets(): BenchSet[] {
  const blind = readdirSync(fileURLToPath(HERE))
    .filter((f) => /^generalization-.+\.json$/.test(f))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return [
    { label: 'development', file: 'theses.json', blind: false },
    { label: 'held-out', file: 'held-out.json', blind: false },
    // Written blind like the generalization sets, but a development set: its failures may be read.
    ...(existsSync(fileURLToPath(new URL('./blind-dev.json', HERE))) ? [{ label: 'blind-dev', file: 'blind-dev.json', blind: false }] : []),
    ...blind.map((file) => ({ label: basename(file, '.json'), file, blind: true })),
  ];
}

export function loadTheses(path: URL = new URL('./theses.json', HERE)): BenchThesis[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { theses: BenchThesis[] }).theses;
}

export async function outcomeOf(thesis: BenchThesis): Promise<Outcome> {
  try {
    return { response: await runStrategist({ prompt: thesis.thesis, userPreferences: thesis.preferences }, { config: CONFIG, now: NOW }) };
  } catch (error) {
    if (error instanceof SvcError) return { errorCode: error.code };
    throw error;
  }
}

export interface ClassScore {
  class: string;
  passed: number;
  total: number;
  /** Theses with at least one hard violation. */
  violating: number;
  /** Hard violations, counted one by one. */
  violations: number;
}

export interface BenchReport {
  /** Each thesis's failures; empty for a blind set. */
  results: Array<{ id: string; class: string; failures: string[] }>;
  perClass: ClassScore[];
  overall: Omit<ClassScore, 'class'>;
  msPerThesis: { mean: number; p50: number; p95: number; max: number; samples: number };
  /** The process's CPU time per thesis (user + system): what the answer costs, without the time spent waiting for a core. */
  cpuMsPerThesis: { p50: number; p95: number };
}

export async function runBench(options: { rounds?: number; path?: URL; blind?: boolean } = {}): Promise<BenchReport> {
  const theses = loadTheses(options.path);
  const judged: Array<{ id: string; class: string; failures: string[]; violations: number }> = [];
  for (const thesis of theses) {
    const verdict = judge(thesis, await outcomeOf(thesis));
    judged.push({ id: thesis.id, class: thesis.class, failures: verdict.failures, violations: verdict.hardViolations.length });
  }

  // Timing after start-up: one warm-up pass, then every thesis timed over several rounds.
  const rounds = options.rounds ?? 20;
  const samples: number[] = [];
  const cpu: number[] = [];
  if (rounds > 0) for (const thesis of theses) await outcomeOf(thesis);
  for (let r = 0; r < rounds; r++) {
    for (const thesis of theses) {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      await outcomeOf(thesis);
      const used = process.cpuUsage(cpuStart);
      samples.push(performance.now() - start);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  samples.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const quantile = (list: number[], q: number) => list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? NaN;
  const at = (q: number) => quantile(samples, q);

  const score = (of: typeof judged) => ({
    passed: of.filter((r) => r.failures.length === 0).length,
    total: of.length,
    violating: of.filter((r) => r.violations > 0).length,
    violations: of.reduce((s, r) => s + r.violations, 0),
  });
  const classes = [...new Set(theses.map((t) => t.class))];
  return {
    results: options.blind ? [] : judged.map(({ id, class: c, failures }) => ({ id, class: c, failures })),
    perClass: classes.map((c) => ({ class: c, ...score(judged.filter((r) => r.class === c)) })),
    overall: score(judged),
    msPerThesis: {
      mean: samples.reduce((s, x) => s + x, 0) / Math.max(1, samples.length),
      p50: at(0.5),
      p95: at(0.95),
      max: samples[samples.length - 1] ?? NaN,
      samples: samples.length,
    },
    cpuMsPerThesis: { p50: quantile(cpu, 0.5), p95: quantile(cpu, 0.95) },
  };
}
