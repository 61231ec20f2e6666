/**
 * Golden vectors of every content hash the service stores or hands out. The literals were
 * computed by each caller's own code before the callers moved onto the one canonical-hash
 * helper (`src/lib/server/canonical.ts`); a stored receipt, plan or pack hash must never change,
 * so any drift in key order, `undefined` handling or number form fails here.
 */
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashCanonical, sha256Hex } from '../../src/lib/server/canonical';
import { STOCK_TOKENS, USDG } from '../../src/lib/server/registry';
import { validateStockIntent, type StockIntentInput } from '../../src/lib/server/stocks/intent';
import { computePlanHash as stockPlanHash } from '../../src/lib/server/stocks/plan';
import { composeDepositPack, computePlanHash as depositPlanHash } from '../../src/lib/server/vaults/deposit-pack';
import { createVaultManifest, vaultManifestHash } from '../../src/lib/server/vaults/manifest';
import { compileRebalancePolicy } from '../../src/lib/server/vaults/rebalance-policy';
import { manifestReceipt, packReceipt } from '../../src/lib/server/vaults/receipts';
import { resolveRailAVault } from '../../src/lib/server/vaults/registry';
import { buildPaymentReceipt } from '../../src/lib/server/x402/receipts';
import { intent } from '../support/stock-intents';

const AT = new Date('2026-11-22T10:00:00.000Z');

/** Every shape the rule has to settle: key order, nesting, undefined members and elements, numbers, text. */
const PROBE = {
  z: 1,
  a: { y: [3, undefined, { d: 1e21, c: 0.1 }], x: undefined, w: null },
  s: 'é\u2028"\\\n€',
  n: [-0, 1e-7, 100, true, false],
  u: undefined,
};

const first = STOCK_TOKENS[0]!;
const second = STOCK_TOKENS[1]!;
const MANIFEST_INPUT = {
  slug: 'golden-vault',
  name: 'Golden vault',
  allocations: [
    { ticker: first.ticker, tokenAddress: first.address.toLowerCase(), targetWeightBps: 3000 },
    { ticker: second.ticker, tokenAddress: second.address, targetWeightBps: 3000 },
    { ticker: 'USDG', tokenAddress: USDG.address, targetWeightBps: 4000 },
  ],
};

describe('canonical JSON and its hash (one rule for every caller)', () => {
  it('drops undefined members, writes undefined array elements as null, sorts keys, RFC 8785 numbers', () => {
    expect(canonicalJson(PROBE)).toBe(
      '{"a":{"w":null,"y":[3,null,{"c":0.1,"d":1e+21}]},"n":[0,1e-7,100,true,false],"s":"é\u2028\\"\\\\\\n€","z":1}',
    );
    expect(hashCanonical(PROBE)).toBe('317e6243586596d99b3f98442cc33ed0d5d12a33f04e884232134a84f562d3f2');
    expect(sha256Hex(canonicalJson(PROBE))).toBe(hashCanonical(PROBE));
  });

  it('writes what the `canonicalize` package writes (the reference it replaced), and refuses what it refuses', () => {
    const outcome = (f: () => string | undefined) => {
      try {
        return { text: f() };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    // Any JSON value, with text in every Unicode plane and lone surrogates, numbers of every
    // magnitude, undefined members and elements, dates, and nesting.
    const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), loneSurrogate) }),
    );
    const leaf = fc.oneof(
      text,
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.date({ noInvalidDate: true }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node')), fc.dictionary(text, tie('node'))),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(outcome(() => canonicalJson(v))).toEqual(
          outcome(
            () =>
              canonicalize(v) ??
              (() => {
                throw new Error('value has no JSON representation');
              })(),
          ),
        );
      }),
      { numRuns: 3000 },
    );
    // 3000 property runs take about 3 s alone; a full `npm test` on a busy 2-core machine needs more than the 5 s default.
  }, 30_000);

  it('refuses a value with no JSON form instead of hashing nothing', () => {
    expect(() => hashCanonical(undefined)).toThrow();
    expect(() => hashCanonical({ n: Number.NaN })).toThrow();
  });
});

describe('golden hashes of every caller', () => {
  it('vault manifest hash', () => {
    const { manifest, manifestHash } = createVaultManifest(MANIFEST_INPUT);
    expect(manifestHash).toBe('32378823c0961861f558dbde7db9aeb50bbe84ddb96c776f8324401973e35259');
    expect(vaultManifestHash(manifest)).toBe(manifestHash);
    expect(vaultManifestHash(PROBE as never)).toBe('317e6243586596d99b3f98442cc33ed0d5d12a33f04e884232134a84f562d3f2');
  });

  it('vault rebalance policy hash', () => {
    const { manifest } = createVaultManifest(MANIFEST_INPUT);
    expect(compileRebalancePolicy(manifest, {}, AT).policyHash).toBe('d7d7fbc591357cd400b80a640d952109c95d96ecb5d53066e4fa108350a8eaa9');
  });

  it('vault receipts (id and hash)', () => {
    const { manifest } = createVaultManifest(MANIFEST_INPUT);
    const receipt = manifestReceipt(manifest, AT);
    expect([receipt.receiptId, receipt.receiptHash]).toEqual([
      'vrcpt_c5743fa4f436d280228c6fb1',
      '07fcee74e147c0ea48885591ae45d8376f27ff14c606fe144e82fb8163de24ff',
    ]);
  });

  it('vault deposit pack plan hash and its receipt', () => {
    const pack = composeDepositPack({
      vault: resolveRailAVault(undefined),
      amount: '12.5',
      units: 12_500_000n,
      receiver: getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8'),
      lifetimeSeconds: 900,
      generatedAt: AT,
      appOrigin: 'http://localhost:3000',
    });
    expect(pack.planHash).toBe('0x20e2a32ccf7da03a1d7e89b95691b335c1eca522ced8610ed995df8036b8747a');
    expect(depositPlanHash(PROBE as never)).toBe('0x317e6243586596d99b3f98442cc33ed0d5d12a33f04e884232134a84f562d3f2');
    const receipt = packReceipt(pack, AT);
    expect([receipt.receiptId, receipt.receiptHash]).toEqual([
      'vrcpt_af0483acad906ea0bd161fc9',
      'e419f05131b289a7d86cf77993eceadb51c26fe953be92990cc7ae828424778e',
    ]);
  });

  it('stock plan hash', () => {
    const { intent: normalised } = validateStockIntent(intent() as unknown as StockIntentInput, { maxNotionalUsd: 500 });
    expect(stockPlanHash(normalised!, AT)).toBe('2803748920b8a9b7f885dd739f953f2a38ff66aacee1407d65b6f41e40b81f82');
    expect(stockPlanHash(PROBE, AT)).toBe('1c92f31aedd12b772b2c250ecb4e2b27064e3518baecac8f67fe623784497482');
  });

  it('x402 payment receipt (id and hash)', () => {
    const receipt = buildPaymentReceipt({
      serviceName: 'vault-risk-score',
      resource: 'http://localhost:3000/api/x402/vault-risk-score',
      x402Version: 2,
      payer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      payTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      amountUnits: '250000',
      nonce: `0x${'ab'.repeat(32)}`,
      validAfter: '0',
      validBefore: '1795000000',
      transaction: `0x${'cd'.repeat(32)}`,
      issuedAt: AT,
    });
    expect([receipt.receiptId, receipt.receiptHash]).toEqual([
      'x402rcpt_d7ee9b7f12b92b02b7332b85f90e9315',
      '35c10dd9225834262db1c01c26243f65ac06472c6bc98f03dd822844dd88b95d',
    ]);
  });
});
