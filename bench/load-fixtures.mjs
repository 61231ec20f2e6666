// What the HTTP benchmarks send, and where they listen: shared by http-bench.mjs and
// offcpu-trace.mjs so both load the same work.
import { createServer } from 'node:net';

export const COIL = {
  schemaVersion: '1.0.0',
  slug: 'bench-basket',
  name: 'Bench basket',
  mode: 'readiness-check',
  assets: [
    {
      ticker: 'NVDA',
      tokenAddress: '0xd0601CE157Db5bdC3162BbaC2a2C8aF5320D9EEC',
      weightBps: 4000,
      rationale: 'Leads data-center accelerators.',
    },
    {
      ticker: 'AMD',
      tokenAddress: '0x86923f96303D656E4aa86D9d42D1e57ad2023fdC',
      weightBps: 3000,
      rationale: 'Second source of accelerators.',
    },
    {
      ticker: 'MSFT',
      tokenAddress: '0xe93237C50D904957Cf27E7B1133b510C669c2e74',
      weightBps: 3000,
      rationale: 'Cloud demand for AI compute.',
    },
  ],
  risk: {
    allowNonCanonicalAssets: false,
    notInvestmentAdvice: true,
    liveExecutionAllowed: false,
    oracleStalenessSeconds: 3600,
    notes: ['bench'],
  },
  forkOf: null,
};

// Every request stores a distinct Coil (its slug numbered), as a stream of agents would:
// a write per request, and no manifest whose receipt list grows without bound.
let counter = 0;
export const coilBody =
  (extra = {}) =>
  () =>
    JSON.stringify({ coil: { ...COIL, slug: `bench-${process.pid}-${counter++}` }, ...extra });

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
