/** Fixed Coils for tests: canonical registry addresses, weights that validate. */
import { coilSchema, type Coil, type CoilInput } from '../../src/lib/server/coil/manifest';

export const ADDR = {
  NVDA: '0xd0601CE157Db5bdC3162BbaC2a2C8aF5320D9EEC',
  AMD: '0x86923f96303D656E4aa86D9d42D1e57ad2023fdC',
  MSFT: '0xe93237C50D904957Cf27E7B1133b510C669c2e74',
  SPY: '0x117cc2133c37B721F49dE2A7a74833232B3B4C0C',
  SGOV: '0x92FD66527192E3e61d4DDd13322Aa222DE86F9B5',
  AAPL: '0xaF3D76f1834A1d425780943C99Ea8A608f8a93f9',
} as const;

export const UNKNOWN_ADDRESS = '0x1111111111111111111111111111111111111111';

/** The smallest Coil the spec describes (2.3), as a caller would write it (no defaults). */
export function rawCoil(overrides: Partial<CoilInput> = {}): CoilInput {
  return {
    schemaVersion: '1.0.0',
    slug: 'ai-chips-test',
    name: 'AI chips test basket',
    mode: 'readiness-check',
    assets: [
      { ticker: 'NVDA', tokenAddress: ADDR.NVDA, weightBps: 4000, rationale: 'Leads data-center accelerators.' },
      { ticker: 'AMD', tokenAddress: ADDR.AMD, weightBps: 3000, rationale: 'Second source of accelerators.' },
      { ticker: 'MSFT', tokenAddress: ADDR.MSFT, weightBps: 3000, rationale: 'Cloud demand for AI compute.' },
    ],
    risk: {
      allowNonCanonicalAssets: false,
      notInvestmentAdvice: true,
      liveExecutionAllowed: false,
      oracleStalenessSeconds: 3600,
      notes: ['test basket'],
    },
    forkOf: null,
    ...overrides,
  };
}

/** A parsed Coil (defaults applied), ready for the domain functions. */
export function makeCoil(overrides: Partial<CoilInput> = {}): Coil {
  return coilSchema.parse(rawCoil(overrides));
}

/** Every required capsule fuse declared, so a capsule needs no default. */
export const FULL_FUSES: CoilInput['fuses'] = [
  { kind: 'singleAssetCap', limit: 4000 },
  { kind: 'maxSingleOrderNotional', limit: 250 },
  { kind: 'maxSlippage', limit: 50 },
  { kind: 'maxDailyTurnover', limit: 2000 },
  { kind: 'humanConfirmation', limit: 0 },
  { kind: 'noOptions' },
  { kind: 'noMargin' },
];
