/** The Mode B gates are one list: the pack's mode description and the submit refusals agree on every combination. */
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { SvcError } from '../../src/lib/server/errors';
import { composeDepositPack, describeModes } from '../../src/lib/server/vaults/deposit-pack';
import { checkModeBConfigGates, checkReceiverIsPartnerWallet, type ModeBSettings } from '../../src/lib/server/vaults/mode-b';
import { modeBConfigOf } from '../../src/lib/server/vaults/mode-b-gates';
import { resolveRailAVault } from '../../src/lib/server/vaults/registry';

const WALLET = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
const pack = composeDepositPack({
  vault: resolveRailAVault(undefined),
  amount: '1',
  units: 1_000_000n,
  receiver: WALLET,
  lifetimeSeconds: 900,
  generatedAt: new Date('2026-11-22T10:00:00.000Z'),
  appOrigin: 'http://localhost:3000',
});

function refusal(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (!(e instanceof SvcError)) throw e;
    return e.code;
  }
}

describe('Mode B gates', () => {
  it('describe Mode B as available exactly when submit would refuse nothing, and refuse in the spec order', () => {
    for (let bits = 0; bits < 16; bits++) {
      const settings: ModeBSettings = {
        depositExecutionEnabled: Boolean(bits & 1),
        ownerApprovedWalletDeposit: Boolean(bits & 2),
        partnerApiKey: bits & 4 ? 'k' : undefined,
        partnerWalletAddress: bits & 8 ? WALLET : undefined,
        partnerTimeoutMs: 1000,
      };
      const config = refusal(() => checkModeBConfigGates(settings));
      const receiver = config ?? refusal(() => checkReceiverIsPartnerWallet(settings, WALLET));
      const expected = !(bits & 1)
        ? 'MODE_B_DISABLED'
        : !(bits & 2)
          ? 'OWNER_APPROVAL_REQUIRED'
          : !(bits & 4)
            ? 'PARTNER_KEY_MISSING'
            : !(bits & 8)
              ? 'RECEIVER_NOT_PARTNER_WALLET'
              : null;
      expect(receiver, `gates ${bits.toString(2)}`).toBe(expected);
      expect(describeModes(pack, modeBConfigOf(settings)).B.available, `gates ${bits.toString(2)}`).toBe(expected === null);
    }
  });

  it('refuses another receiver even with every gate open, and is never available when the gates were not read', () => {
    const open: ModeBSettings = {
      depositExecutionEnabled: true,
      ownerApprovedWalletDeposit: true,
      partnerApiKey: 'k',
      partnerWalletAddress: WALLET,
      partnerTimeoutMs: 1000,
    };
    expect(refusal(() => checkReceiverIsPartnerWallet(open, getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc')))).toBe(
      'RECEIVER_NOT_PARTNER_WALLET',
    );
    expect(describeModes(pack, undefined).B.available).toBe(false);
    expect(describeModes(pack, undefined).B.gates).toEqual([
      'PARTNERBOT_DEPOSIT_EXECUTION_ENABLED',
      'OWNER_APPROVED_PARTNER_WALLET_DEPOSIT',
      'PARTNER_API_KEY',
      'receiver equals PARTNER_WALLET_ADDRESS',
      'exact confirmPlanHash',
    ]);
  });
});
