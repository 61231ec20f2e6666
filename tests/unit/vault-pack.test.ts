import fc from 'fast-check';
import { decodeFunctionData, getAddress, keccak256, parseAbi, stringToBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import { SvcError } from '../../src/lib/server/errors';
import { scanForExecutionClaims } from '../../src/lib/server/guards/output-guard';
import { USDG } from '../../src/lib/server/registry';
import { formatUsdgUnits, parseUsdgAmount } from '../../src/lib/server/vaults/amount';
import { verifyAckPins } from '../../src/lib/server/vaults/acks';
import type { ChainReader } from '../../src/lib/server/vaults/chain';
import { fakeReader } from '../support/fake-chain-reader';
import { buildDepositPack, composeDepositPack, computePlanHash, validateReceiver } from '../../src/lib/server/vaults/deposit-pack';
import { ACK_HASHES, ACK_TEXTS, resolveRailAVault, V1_VAULT, V2_SUITE } from '../../src/lib/server/vaults/registry';

const RECEIVER = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
const NOW = new Date('2026-11-22T10:00:00.000Z');

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof SvcError ? e.code : `not a SvcError: ${String(e)}`;
  }
  return undefined;
}

describe('USDG amounts in 6-decimal units, without floating point', () => {
  it('parses exact units', () => {
    expect(parseUsdgAmount('0.1').units).toBe(100_000n);
    expect(parseUsdgAmount('0.000001').units).toBe(1n);
    expect(parseUsdgAmount('9999.999999').units).toBe(9_999_999_999n);
    expect(parseUsdgAmount('10000').units).toBe(10_000_000_000n);
    expect(parseUsdgAmount('10000.000000').units).toBe(10_000_000_000n);
    expect(parseUsdgAmount('007.50').amount).toBe('007.50');
  });

  it('rejects with its own code and never rounds or clamps', () => {
    expect(code(() => parseUsdgAmount('1.0000001'))).toBe('AMOUNT_TOO_MANY_DECIMALS');
    expect(code(() => parseUsdgAmount('0'))).toBe('AMOUNT_NOT_POSITIVE');
    expect(code(() => parseUsdgAmount('0.000000'))).toBe('AMOUNT_NOT_POSITIVE');
    expect(code(() => parseUsdgAmount('-1'))).toBe('AMOUNT_NOT_POSITIVE');
    expect(code(() => parseUsdgAmount('-0.0000001'))).toBe('AMOUNT_NOT_POSITIVE');
    expect(code(() => parseUsdgAmount('10000.000001'))).toBe('AMOUNT_ABOVE_PACK_MAX');
    for (const bad of ['', ' 1', '1 ', '1.', '.5', '1e3', '0x10', '1,5', '+1', 'NaN', 'Infinity', '１']) {
      expect(
        code(() => parseUsdgAmount(bad)),
        bad,
      ).toBe('AMOUNT_MALFORMED');
    }
    expect(code(() => parseUsdgAmount(12.5))).toBe('AMOUNT_MALFORMED');
  });

  it('round-trips every unit count in range (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10_000_000_000n }), (units) => {
        expect(parseUsdgAmount(formatUsdgUnits(units)).units).toBe(units);
      }),
    );
  });
});

describe('receiver rules', () => {
  it('refuses the vault, the USDG token, the zero address and malformed or mis-checksummed addresses', () => {
    expect(code(() => validateReceiver(V1_VAULT.address, V1_VAULT))).toBe('RECEIVER_IS_VAULT');
    expect(code(() => validateReceiver(V1_VAULT.address.toLowerCase(), V1_VAULT))).toBe('RECEIVER_IS_VAULT');
    expect(code(() => validateReceiver(V1_VAULT.implementationAddress, V1_VAULT))).toBe('RECEIVER_IS_VAULT');
    expect(code(() => validateReceiver(USDG.address, V1_VAULT))).toBe('RECEIVER_IS_USDG_TOKEN');
    expect(code(() => validateReceiver(`0x${'0'.repeat(40)}`, V1_VAULT))).toBe('RECEIVER_ZERO_ADDRESS');
    expect(code(() => validateReceiver('0x123', V1_VAULT))).toBe('RECEIVER_MALFORMED');
    expect(code(() => validateReceiver(RECEIVER.replace('C', 'c').replace('a', 'A'), V1_VAULT))).toBe('RECEIVER_MALFORMED');
    expect(validateReceiver(RECEIVER.toLowerCase(), V1_VAULT)).toBe(RECEIVER);
  });
});

describe('vault registry', () => {
  it('has exactly one Rail A vault and fails closed for anything else', () => {
    expect(resolveRailAVault(undefined)).toBe(V1_VAULT);
    expect(resolveRailAVault('SVC-VAULT')).toBe(V1_VAULT);
    expect(resolveRailAVault(V1_VAULT.address.toLowerCase())).toBe(V1_VAULT);
    expect(code(() => resolveRailAVault('svc-vault-v2'))).toBe('VAULT_UNKNOWN');
    expect(code(() => resolveRailAVault(V2_SUITE[0]!.address))).toBe('VAULT_UNKNOWN');
    expect(code(() => resolveRailAVault('anything'))).toBe('VAULT_UNKNOWN');
    expect(V1_VAULT.railId).toBe('rail_a_vault_deposit');
    expect(V2_SUITE.map((c) => c.role)).toEqual([
      'vault',
      'request_queue',
      'batch_settler',
      'price_mesh',
      'risk_policy',
      'liveness',
      'receipt_registry',
      'asset_registry',
      'execution_adapter',
    ]);
    for (const c of V2_SUITE) expect(c.addressSource).toMatch(/operator/);
  });

  it('hashes the ack texts with keccak256 of their UTF-8 bytes', () => {
    expect(ACK_TEXTS).toEqual({ risk: 'svc-vault-depositor-risk-ack-v1', jurisdiction: 'svc-vault-source-disclosure-ack-v1' });
    expect(ACK_HASHES.risk).toBe(keccak256(stringToBytes('svc-vault-depositor-risk-ack-v1')));
    expect(ACK_HASHES.jurisdiction).toBe(keccak256(stringToBytes('svc-vault-source-disclosure-ack-v1')));
  });
});

describe('composing a pack', () => {
  const input = {
    vault: V1_VAULT,
    amount: '12.5',
    units: 12_500_000n,
    receiver: RECEIVER,
    lifetimeSeconds: 900,
    generatedAt: NOW,
    appOrigin: 'https://svc.example',
  };

  it('encodes approve and depositWithAcks with viem, never a plain deposit()', () => {
    const pack = composeDepositPack(input);
    const abi = parseAbi([
      'function approve(address,uint256)',
      'function depositWithAcks(uint256,address,bytes32,bytes32)',
      'function deposit(uint256,address)',
    ]);
    expect(decodeFunctionData({ abi, data: pack.approveCalldata })).toEqual({
      functionName: 'approve',
      args: [V1_VAULT.address, 12_500_000n],
    });
    expect(decodeFunctionData({ abi, data: pack.depositCalldata })).toEqual({
      functionName: 'depositWithAcks',
      args: [12_500_000n, RECEIVER, ACK_HASHES.risk, ACK_HASHES.jurisdiction],
    });
    expect(pack.expiresAt).toBe('2026-11-22T10:15:00.000Z');
    expect(pack.depositLinkUrl).toBe(`https://svc.example/vaults/svc-vault/deposit?amount=12.5&receiver=${RECEIVER}`);
  });

  it('planHash is deterministic and changes with any field', () => {
    const a = composeDepositPack(input);
    expect(composeDepositPack(input).planHash).toBe(a.planHash);
    expect(computePlanHash(a)).toBe(a.planHash);
    expect(composeDepositPack({ ...input, units: 12_500_001n, amount: '12.500001' }).planHash).not.toBe(a.planHash);
    expect(composeDepositPack({ ...input, generatedAt: new Date(NOW.getTime() + 1) }).planHash).not.toBe(a.planHash);
    expect(composeDepositPack({ ...input, lifetimeSeconds: 901 }).planHash).not.toBe(a.planHash);
    expect(computePlanHash({ ...a, receiver: getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc') })).not.toBe(a.planHash);
  });

  it('passes the execution-claim guard (every text of the pack and its modes)', async () => {
    const result = await buildDepositPack(
      { amountUsdg: '12.5', receiver: RECEIVER },
      { now: NOW, appOrigin: 'https://svc.example', chain: null },
    );
    expect(scanForExecutionClaims(result)).toBeUndefined();
    expect(result.ackVerification.source).toBe('registry_pinned_copy');
  });
});

describe('ack verification', () => {
  it('refuses when an RPC serves another chain, without reading anything else', async () => {
    let reads = 0;
    const reader = fakeReader({
      chainId: async () => 1,
      readContract: (async () => {
        reads++;
        return ACK_HASHES.risk;
      }) as ChainReader['readContract'],
    });
    await expect(verifyAckPins(V1_VAULT, reader, NOW)).rejects.toMatchObject({ code: 'ACK_PIN_UNVERIFIABLE' });
    expect(reads).toBe(0);
  });

  it('compares both slots and names the differing one', async () => {
    const reader = fakeReader({
      readContract: (async ({ functionName }: { functionName: string }) =>
        functionName === 'requiredRiskAckHash' ? ACK_HASHES.risk : keccak256(stringToBytes('other'))) as ChainReader['readContract'],
    });
    await expect(verifyAckPins(V1_VAULT, reader, NOW)).rejects.toMatchObject({
      code: 'ACK_HASH_MISMATCH',
      issues: [{ path: 'ackHashes.jurisdiction' }],
    });
  });

  it('an absent access-policy entry is unverifiable, not a match', async () => {
    const reverted = Object.assign(new Error('x'), { name: 'ContractFunctionRevertedError' });
    const reader = fakeReader({
      readContract: (async ({ functionName }: { functionName: string }) => {
        if (functionName === 'getVaultPolicy')
          return {
            usPersonsRestricted: false,
            requiredRiskAckHash: `0x${'0'.repeat(64)}`,
            requiredJurisdictionAckHash: `0x${'0'.repeat(64)}`,
            exists: false,
          };
        throw reverted;
      }) as ChainReader['readContract'],
    });
    await expect(verifyAckPins(V1_VAULT, reader, NOW)).rejects.toMatchObject({ code: 'ACK_PIN_UNVERIFIABLE' });
  });
});
