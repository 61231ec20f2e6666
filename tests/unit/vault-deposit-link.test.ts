/** The deposit link of a Rail A vault (vaults/deposit-link.ts), as GET /api/vaults/{slug}/deposit-link answers it. */
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { findSvcError } from '../../src/lib/server/errors';
import { buildDepositLink } from '../../src/lib/server/vaults/deposit-link';
import { buildDepositPack } from '../../src/lib/server/vaults/deposit-pack';
import { ACK_HASHES, ACK_TEXTS, V1_VAULT } from '../../src/lib/server/vaults/registry';

const NOW = new Date('2026-01-01T00:00:00Z');
const deps = { now: NOW, appOrigin: 'https://svc.example', chain: null };
const RECEIVER = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');

describe('deposit link', () => {
  it('names the vault, both ack texts with their hashes and the widget link', async () => {
    const link = await buildDepositLink({ slug: V1_VAULT.slug }, deps);
    expect(link.vault.slug).toBe(V1_VAULT.slug);
    expect(link.ackTexts).toEqual([
      { slot: 'risk', text: ACK_TEXTS.risk, keccak256: ACK_HASHES.risk },
      { slot: 'jurisdiction', text: ACK_TEXTS.jurisdiction, keccak256: ACK_HASHES.jurisdiction },
    ]);
    expect(link.depositFunction).toBe(V1_VAULT.depositFunction);
    expect(link.depositLinkUrl).toBe(`https://svc.example/vaults/${V1_VAULT.slug}/deposit`);
    expect(link).toMatchObject({ full: false, prepared: null });
  });

  it('carries a checked amount in the link, and refuses a malformed one', async () => {
    const link = await buildDepositLink({ slug: V1_VAULT.slug, amount: '12.5' }, deps);
    expect(new URL(link.depositLinkUrl).searchParams.get('amount')).toBe('12.5');
    const refused = await buildDepositLink({ slug: V1_VAULT.slug, amount: '1.0000001' }, deps).catch((e) => e);
    expect(findSvcError(refused)?.issues[0]?.path).toBe('amount');
  });

  it('is the full Mode A pack with an amount and a receiver, built exactly as prepare-command builds it', async () => {
    const link = await buildDepositLink({ slug: V1_VAULT.slug, amount: '12.5', receiver: RECEIVER }, deps);
    const pack = await buildDepositPack({ vaultId: V1_VAULT.slug, amountUsdg: '12.5', receiver: RECEIVER }, deps);
    expect(link.full).toBe(true);
    expect(link.prepared).toEqual(pack);
    expect(link.depositLinkUrl).toBe(pack.depositLinkUrl);
  });
});
