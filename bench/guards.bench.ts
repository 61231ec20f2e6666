/**
 * Micro-benchmarks of the per-request guards (every JSON response is scanned, every body is
 * searched for credentials). Target: a 100 KB response scans in well under 5 ms.
 */
import { bench, describe } from 'vitest';
import { findCredentials } from '../src/lib/server/guards/credential-guard';
import { scanForExecutionClaims } from '../src/lib/server/guards/output-guard';

const sentence = 'The partner executes the trade, not this service; no order is placed and weights sum to 10000 bps. ';
const bigResponse = {
  items: Array.from({ length: 400 }, (_, i) => ({ id: i, memo: sentence.repeat(2), tags: ['a', 'b', 'c'], n: i * 3 })),
};
// Every string new on every run: no memoised verdicts (string building included).
let run = 0;
const distinctResponse = () => ({
  items: Array.from({ length: 400 }, (_, i) => ({
    id: i,
    memo: `Run ${run} item ${i}: ${sentence}`.repeat(2),
    tags: ['a', 'b', 'c'],
    n: i * 3,
  })),
});
const deepBody = {
  coil: {
    assets: Array.from({ length: 15 }, (_, i) => ({
      ticker: `T${i}`,
      tokenAddress: '0x' + String(i).padStart(40, '0'),
      weightBps: 666,
      rationale: sentence,
    })),
    memo: { title: 'x', body: sentence.repeat(20) },
  },
};

describe('guards', () => {
  bench(`output guard over a ${Math.round(JSON.stringify(bigResponse).length / 1024)} KB response`, () => {
    scanForExecutionClaims(bigResponse);
  });
  bench(`output guard over a ${Math.round(JSON.stringify(distinctResponse()).length / 1024)} KB response of never-seen strings`, () => {
    run++;
    scanForExecutionClaims(distinctResponse());
  });
  bench('credential guard over a 15-asset Coil body', () => {
    findCredentials(deepBody);
  });
});
