/**
 * Receipts (interface 2.5): RFC 8785 canonical JSON, golden vectors and verification. The golden
 * hashes below were computed independently of this code (sorted-key, whitespace-free JSON
 * with SHA-256) and are written out literally: any change to hashing fails here.
 */
import { describe, expect, it } from 'vitest';
import { coilSchema, type CoilInput } from '../../src/lib/server/coil/manifest';
import { riskAudit } from '../../src/lib/server/coil/audit';
import { canonicalJson, hashCanonical } from '../../src/lib/server/canonical';
import { buildReceipt, manifestHashOf, receiptIdOf, verifyReceipt, weightsChecksumOf } from '../../src/lib/server/receipts/receipt';
import { ORACLE_POLICY_VERSION, REGISTRY_VERSION } from '../../src/lib/server/registry';

const GOLDEN_ROOT: CoilInput = {
  schemaVersion: '1.0.0',
  slug: 'golden-root',
  name: 'Golden root basket',
  mode: 'readiness-check',
  assets: [
    { ticker: 'NVDA', tokenAddress: '0xd0601CE157Db5bdC3162BbaC2a2C8aF5320D9EEC', weightBps: 4000, rationale: 'Accelerators.' },
    { ticker: 'SPY', tokenAddress: '0x117cc2133c37B721F49dE2A7a74833232B3B4C0C', weightBps: 3500, rationale: 'Broad index.' },
    { ticker: 'SGOV', tokenAddress: '0x92FD66527192E3e61d4DDd13322Aa222DE86F9B5', weightBps: 2500, rationale: 'Cash-like ballast.' },
  ],
  risk: {
    allowNonCanonicalAssets: false,
    notInvestmentAdvice: true,
    liveExecutionAllowed: false,
    oracleStalenessSeconds: 3600,
    notes: ['golden'],
    maxSingleAssetWeightBps: 4000,
  },
  forkOf: null,
  executionMode: 'paper_only',
  rebalancePolicy: { method: 'drift', driftThresholdBps: 500 },
};

const GOLDEN_ROOT_HASH = '2172ac66978ee8c66ef33b4f6864a57e1b0adca0e7c00a5a43f669ea7f9b628f';

const GOLDEN_FORK: CoilInput = {
  schemaVersion: '1.0.0',
  slug: 'golden-fork',
  name: 'Golden fork — café ü',
  mode: 'brokerage-mcp-plan',
  assets: [
    { ticker: 'NVDA', tokenAddress: '0xd0601CE157Db5bdC3162BbaC2a2C8aF5320D9EEC', weightBps: 3000, rationale: 'Accelerators.' },
    { ticker: 'AMD', tokenAddress: '0x86923f96303D656E4aa86D9d42D1e57ad2023fdC', weightBps: 3000, rationale: 'Second source.' },
    { ticker: 'SPY', tokenAddress: '0x117cc2133c37B721F49dE2A7a74833232B3B4C0C', weightBps: 4000, rationale: 'Broad index.' },
  ],
  risk: { allowNonCanonicalAssets: false, notInvestmentAdvice: true, liveExecutionAllowed: false, oracleStalenessSeconds: 1800, notes: [] },
  forkOf: 'golden-root',
  parentManifestHash: GOLDEN_ROOT_HASH,
  executionMode: 'human_confirm',
  rebalancePolicy: { method: 'hybrid', driftThresholdBps: 250, maxSlippageBps: 50, maxDailyTurnoverBps: 2000 },
  fuses: [
    { kind: 'noMargin', limit: null },
    { kind: 'maxSingleOrderNotional', limit: 250 },
    { kind: 'humanConfirmation', limit: 0 },
  ],
  memo: { title: 'Fork', body: 'Adds AMD.', disclaimer: 'Not investment advice.' },
};

const root = () => coilSchema.parse(structuredClone(GOLDEN_ROOT));
const fork = () => coilSchema.parse(structuredClone(GOLDEN_FORK));

describe('RFC 8785 canonical JSON', () => {
  it('sorts keys, drops whitespace, keeps array order and formats numbers per ECMAScript', () => {
    expect(canonicalJson({ b: [3, 1, { d: 1, c: 2 }], a: 'x' })).toBe('{"a":"x","b":[3,1,{"c":2,"d":1}]}');
    expect(canonicalJson({ n: [1e21, 1e-7, 0.5, -0, 100] })).toBe('{"n":[1e+21,1e-7,0.5,0,100]}');
    expect(canonicalJson({ s: 'é\u2028"\\\n' })).toBe('{"s":"é\u2028\\"\\\\\\n"}');
  });

  it('sorts keys by UTF-16 code units (the RFC 8785 test vector)', () => {
    const value = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(canonicalJson(value)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('drops undefined members so absent and undefined hash alike', () => {
    expect(hashCanonical({ a: 1, b: undefined })).toBe(hashCanonical({ a: 1 }));
  });
});

describe('golden receipt vectors', () => {
  it('root Coil: manifestHash, weightsChecksum, receiptId', () => {
    const coil = root();
    expect(manifestHashOf(coil)).toBe(GOLDEN_ROOT_HASH);
    expect(weightsChecksumOf(coil)).toBe('db089c632dccd4c14006bb153a8177bfe41c85f4c063361821b4c64ed1744a18');
    const receipt = buildReceipt(coil, 'coil_manifest', new Date('2026-01-01T00:00:00Z'));
    expect(receipt).toEqual({
      receiptVersion: 'svc-coil-receipt-1.0.0',
      receiptId: 'hrcpt_fcc868c04df7d1e48f8e3162cb48a165',
      kind: 'coil_manifest',
      coilId: 'coil_2172ac66978ee8c66ef33b4f',
      coilSlug: 'golden-root',
      manifestHash: GOLDEN_ROOT_HASH,
      weightsChecksum: 'db089c632dccd4c14006bb153a8177bfe41c85f4c063361821b4c64ed1744a18',
      validationStatus: 'valid',
      anchoring: 'paper',
      registryVersion: REGISTRY_VERSION,
      oraclePolicyVersion: ORACLE_POLICY_VERSION,
      compilerVersion: 'svc-coil-compiler-1.0.0',
      generatedAt: '2026-01-01T00:00:00.000Z',
      liveOrderSent: false,
    });
  });

  it('fork Coil: manifestHash, weightsChecksum, risk_fuse receiptId and fuseChecksum, parent carried', () => {
    const coil = fork();
    expect(manifestHashOf(coil)).toBe('019a5d62fa177eaa59a0d9daa8c5a849f5e0204e46522ce0b5553e577dace417');
    expect(weightsChecksumOf(coil)).toBe('cb113e1546c2910a864b0eb221538d250247e2772c86ac8996b344c35ea59e93');
    const receipt = buildReceipt(coil, 'risk_fuse', new Date('2026-02-03T04:05:06.007Z'));
    expect(receipt.receiptId).toBe('hrcpt_7ed37a04cd702d1eb0716bfebab639a1');
    expect(receipt.fuseChecksum).toBe('9b11d832f3566ae86a9eac874ff994d915d96fced5f2d96612023517700cef02');
    expect(riskAudit(coil).fuseChecksum).toBe(receipt.fuseChecksum);
    expect(receipt.parentManifestHash).toBe(GOLDEN_ROOT_HASH);
  });

  it('the receipt id depends on kind, manifest hash and timestamp only', () => {
    expect(receiptIdOf('coil_manifest', GOLDEN_ROOT_HASH, '2026-01-01T00:00:00.000Z')).toBe('hrcpt_fcc868c04df7d1e48f8e3162cb48a165');
    expect(receiptIdOf('validation', GOLDEN_ROOT_HASH, '2026-01-01T00:00:00.000Z')).not.toBe('hrcpt_fcc868c04df7d1e48f8e3162cb48a165');
  });
});

describe('manifest identity', () => {
  it('excludes timestamps', () => {
    expect(manifestHashOf(coilSchema.parse({ ...GOLDEN_ROOT, createdAt: '2030-01-01T00:00:00Z' }))).toBe(GOLDEN_ROOT_HASH);
  });

  it('has one form for "no parent"', () => {
    expect(manifestHashOf(coilSchema.parse({ ...GOLDEN_ROOT, parentManifestHash: null }))).toBe(GOLDEN_ROOT_HASH);
    expect(
      verifyReceipt(coilSchema.parse({ ...GOLDEN_ROOT, parentManifestHash: null }), {
        ...buildReceipt(root(), 'coil_manifest', new Date(0)),
      }).ok,
    ).toBe(true);
  });

  it('ignores key order and address case', () => {
    const reordered = coilSchema.parse({
      rebalancePolicy: GOLDEN_ROOT.rebalancePolicy,
      executionMode: 'paper_only',
      forkOf: null,
      risk: GOLDEN_ROOT.risk,
      assets: GOLDEN_ROOT.assets.map((a) => ({
        rationale: a.rationale,
        weightBps: a.weightBps,
        tokenAddress: a.tokenAddress.toLowerCase(),
        ticker: a.ticker,
      })),
      mode: 'readiness-check',
      name: GOLDEN_ROOT.name,
      slug: GOLDEN_ROOT.slug,
      schemaVersion: '1.0.0',
    });
    expect(manifestHashOf(reordered)).toBe(GOLDEN_ROOT_HASH);
    expect(weightsChecksumOf(reordered)).toBe(weightsChecksumOf(root()));
  });

  it('changes with any content: a weight, a rationale, the asset order', () => {
    const moved = root();
    moved.assets[0]!.weightBps = 3900;
    moved.assets[1]!.weightBps = 3600;
    expect(manifestHashOf(moved)).not.toBe(GOLDEN_ROOT_HASH);
    expect(weightsChecksumOf(moved)).not.toBe(weightsChecksumOf(root()));
    const reasoned = root();
    reasoned.assets[0]!.rationale = 'Different.';
    expect(manifestHashOf(reasoned)).not.toBe(GOLDEN_ROOT_HASH);
    expect(weightsChecksumOf(reasoned)).toBe(weightsChecksumOf(root()));
    const reordered = root();
    reordered.assets.reverse();
    expect(manifestHashOf(reordered)).not.toBe(GOLDEN_ROOT_HASH);
    expect(weightsChecksumOf(reordered)).toBe(weightsChecksumOf(root()));
  });
});

describe('verification', () => {
  const at = new Date('2026-01-01T00:00:00Z');

  it('accepts the receipt of the same Coil', () => {
    const verification = verifyReceipt(root(), { ...buildReceipt(root(), 'coil_manifest', at) });
    expect(verification).toMatchObject({ ok: true, mismatches: [], stampedVersionsCurrent: true });
    expect(verification.checked).toEqual(
      expect.arrayContaining([
        'manifestHash',
        'weightsChecksum',
        'receiptId',
        'coilId',
        'parentManifestHash',
        'validationStatus',
        'anchoring',
      ]),
    );
  });

  it('names every tampered field', () => {
    const receipt: Record<string, unknown> = { ...buildReceipt(root(), 'coil_manifest', at) };
    receipt.manifestHash = '0'.repeat(64);
    receipt.weightsChecksum = '1'.repeat(64);
    receipt.anchoring = 'onchain';
    receipt.validationStatus = 'invalid';
    receipt.liveOrderSent = true;
    const verification = verifyReceipt(root(), receipt);
    expect(verification.ok).toBe(false);
    expect(verification.mismatches.sort()).toEqual(['anchoring', 'liveOrderSent', 'manifestHash', 'validationStatus', 'weightsChecksum']);
  });

  it('catches a receipt of another Coil or another time', () => {
    const receipt = { ...buildReceipt(root(), 'coil_manifest', at) };
    const changed = root();
    changed.assets[0]!.weightBps = 3900;
    changed.assets[1]!.weightBps = 3600;
    expect(verifyReceipt(changed, receipt).mismatches).toEqual(['manifestHash', 'weightsChecksum', 'receiptId', 'coilId']);
    expect(verifyReceipt(root(), { ...receipt, generatedAt: '2026-01-02T00:00:00.000Z' }).mismatches).toEqual(['receiptId']);
    expect(verifyReceipt(root(), { ...receipt, kind: 'mystery' }).mismatches).toEqual(['kind', 'receiptId']);
  });

  it('checks lineage and the fuse checksum of a risk_fuse receipt', () => {
    const receipt: Record<string, unknown> = { ...buildReceipt(fork(), 'risk_fuse', at) };
    expect(verifyReceipt(fork(), receipt).ok).toBe(true);
    expect(verifyReceipt(fork(), { ...receipt, fuseChecksum: 'f'.repeat(64) }).mismatches).toEqual(['fuseChecksum']);
    expect(verifyReceipt(fork(), { ...receipt, parentManifestHash: undefined }).mismatches).toEqual(['parentManifestHash']);
    const looser = fork();
    looser.fuses = [{ kind: 'noMargin', limit: null }];
    expect(verifyReceipt(looser, receipt).mismatches).toContain('fuseChecksum');
  });

  it('survives a receipt of the wrong types', () => {
    const verification = verifyReceipt(root(), { manifestHash: 42, kind: null, generatedAt: [] });
    expect(verification.ok).toBe(false);
    expect(verification.recomputed.receiptId).toBeNull();
    expect(verification.mismatches).toContain('manifestHash');
  });
});
