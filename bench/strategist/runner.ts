/**
 * The strategist benchmark: every thesis of theses.json through the local strategist (the
 * same `runStrategist` the routes call, provider `mock`), its checks, the pass rate per class
 * and overall, and the time per thesis after start-up. Figures only: nothing here fails.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { SvcError } from '../../src/lib/server/errors';
import { runStrategist, type StrategistConfig } from '../../src/lib/server/strategist';
import { failedChecks, type BenchThesis, type Outcome } from './checks';

const CONFIG: StrategistConfig = { strategistProvider: 'mock', partner: { timeoutMs: 1000 } };
const NOW = new Date('2026-01-01T00:00:00Z');

export function loadTheses(path = new URL('./theses.json', import.meta.url)): BenchThesis[] {
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

export interface BenchReport {
  results: Array<{ id: string; class: string; failures: string[] }>;
  perClass: Array<{ class: string; passed: number; total: number }>;
  passed: number;
  total: number;
  msPerThesis: { mean: number; p50: number; p95: number; max: number };
}

export async function runBench(options: { rounds?: number; path?: URL } = {}): Promise<BenchReport> {
  const theses = loadTheses(options.path);
  const results: BenchReport['results'] = [];
  for (const thesis of theses)
    results.push({ id: thesis.id, class: thesis.class, failures: failedChecks(thesis, await outcomeOf(thesis)) });

  // Timing after start-up: one warm-up pass, then every thesis timed over several rounds.
  const rounds = options.rounds ?? 20;
  const samples: number[] = [];
  for (const thesis of theses) await outcomeOf(thesis);
  for (let r = 0; r < rounds; r++) {
    for (const thesis of theses) {
      const start = performance.now();
      await outcomeOf(thesis);
      samples.push(performance.now() - start);
    }
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;

  const classes = [...new Set(theses.map((t) => t.class))];
  const perClass = classes.map((c) => {
    const of = results.filter((r) => r.class === c);
    return { class: c, passed: of.filter((r) => r.failures.length === 0).length, total: of.length };
  });
  return {
    results,
    perClass,
    passed: results.filter((r) => r.failures.length === 0).length,
    total: results.length,
    msPerThesis: {
      mean: samples.reduce((s, x) => s + x, 0) / samples.length,
      p50: at(0.5),
      p95: at(0.95),
      max: samples[samples.length - 1]!,
    },
  };
}
