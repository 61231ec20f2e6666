/**
 * A real settlement on the local chain 4663: the buyer signs with a viem local account (and,
 * once, through the x402 reference client, to prove the challenge is consumable by a standard
 * buyer), the server checks and forwards the payment, and the fake facilitator calls
 * `transferWithAuthorization` on the test USDG at the canonical address, so the payee's
 * balance really moves by the price and the receipt names the real transaction.
 */
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm';
import { getAddress, keccak256, stringToBytes, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAssetByTicker, USDG } from '../../src/lib/server/registry';
import { ACK_HASHES, V1_VAULT } from '../../src/lib/server/vaults/registry';
import type { LocalChain } from '../support/chain/local-chain';
import { placeV1Vault, type PlacedV1 } from '../support/chain/vaults';
import type { FakeFacilitator } from '../support/fake-facilitator';
import type { TestServer } from '../support/server';
import { startChainPaymentLane, type ChainPaymentLane } from '../support/x402-chain-lane';
import { decodeBase64Json, signAuthorization, v2PaymentHeader } from '../support/x402-payer';

let chain: LocalChain;
let facilitator: FakeFacilitator;
let server: TestServer;
let payTo: Address;
let v1: PlacedV1;

const composition = {
  allocations: [
    { tokenAddress: findAssetByTicker('NVDA')!.address, weightBps: 6000 },
    { tokenAddress: USDG.address, weightBps: 4000 },
  ],
};

let lane: ChainPaymentLane | undefined;

beforeAll(async () => {
  lane = await startChainPaymentLane({
    facilitatorTimeoutMs: 20_000,
    prepare: async (c) => {
      v1 = await placeV1Vault(c);
    },
  });
  ({ chain, facilitator, server, payTo } = lane);
});
afterAll(async () => {
  await lane?.stop();
});

const usdgAbi = () => chain.artifact('TestUSDG').abi;
const balanceOf = (who: Address) => chain.read<bigint>(USDG.address as Address, usdgAbi(), 'balanceOf', [who]);

describe('settlement on the local chain 4663', () => {
  it('moves the price from the payer to the pinned payee with transferWithAuthorization, and the receipt names the real transaction', async () => {
    const payer = chain.accounts[2]!;
    await chain.send(USDG.address as Address, usdgAbi(), 'mint', [payer.address, 1_000_000n]);
    const [payerBefore, payeeBefore] = await Promise.all([balanceOf(payer.address), balanceOf(payTo)]);

    const challenge = await server.post('/api/vaults/x402/vault-risk-score', composition);
    expect(challenge.status).toBe(402);
    const required = decodePaymentRequiredHeader(challenge.headers.get('payment-required')!);
    const signed = await signAuthorization(payer, { to: payTo, value: 20_000n });
    const res = await server.request('POST', '/api/vaults/x402/vault-risk-score', {
      body: composition,
      headers: { 'PAYMENT-SIGNATURE': v2PaymentHeader(signed, required.accepts[0]!, required.resource as never) },
    });
    expect(res.status).toBe(200);
    const settled = decodeBase64Json(res.headers.get('payment-response'));
    expect(settled.success).toBe(true);

    expect(await balanceOf(payTo)).toBe(payeeBefore + 20_000n);
    expect(await balanceOf(payer.address)).toBe(payerBefore - 20_000n);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: settled.transaction as Hex });
    expect(receipt.status).toBe('success');
    expect(getAddress(receipt.from)).toBe(facilitator.signerAddress());
    expect(res.json.payment.receipt.facilitatorTransaction).toBe(settled.transaction);
    expect(
      await chain.read<boolean>(USDG.address as Address, usdgAbi(), 'authorizationState', [payer.address, signed.authorization.nonce]),
    ).toBe(true);
  });

  it('a payment built by the x402 reference client from the PAYMENT-REQUIRED header settles for real', async () => {
    const payer = chain.accounts[4]!;
    await chain.send(USDG.address as Address, usdgAbi(), 'mint', [payer.address, 1_000_000n]);
    const payeeBefore = await balanceOf(payTo);
    const challenge = await server.post('/api/vaults/x402/vault-fee-calculation', { highWaterMarkUsdg: '100', navUsdg: '150' });
    const required = decodePaymentRequiredHeader(challenge.headers.get('payment-required')!);
    const client = new ExactEvmScheme({ address: payer.address, signTypedData: (m) => payer.signTypedData(m as never) });
    const created = await client.createPaymentPayload(2, required.accepts[0]!);
    expect(created.x402Version).toBe(2);
    const header = encodePaymentSignatureHeader({ resource: required.resource, accepted: required.accepts[0]!, ...created } as never);
    const res = await server.request('POST', '/api/vaults/x402/vault-fee-calculation', {
      body: { highWaterMarkUsdg: '100', navUsdg: '150' },
      headers: { 'PAYMENT-SIGNATURE': header },
    });
    expect(res.status).toBe(200);
    expect(res.json.result.performanceFee.usdg).toBe('5');
    expect(await balanceOf(payTo)).toBe(payeeBefore + 10_000n);
  });

  it('a payer without funds: the transfer reverts on chain and the facilitator answer success:false is a refusal', async () => {
    const broke = chain.accounts[5]!;
    const payeeBefore = await balanceOf(payTo);
    const challenge = await server.post('/api/vaults/x402/vault-risk-score', composition);
    const required = decodePaymentRequiredHeader(challenge.headers.get('payment-required')!);
    const signed = await signAuthorization(broke, { to: payTo, value: 20_000n });
    const res = await server.request('POST', '/api/vaults/x402/vault-risk-score', {
      body: composition,
      headers: { 'PAYMENT-SIGNATURE': v2PaymentHeader(signed, required.accepts[0]!) },
    });
    expect(res.status).toBe(402);
    expect(res.json.code).toBe('X402_SETTLEMENT_REFUSED');
    expect(res.json.facilitatorReason).toBe('invalid_transaction_state');
    expect(await balanceOf(payTo)).toBe(payeeBefore);
  });
});

describe('the paid deposit pack on the local chain 4663', () => {
  async function payForPack(payerIndex: number, body: Record<string, unknown>) {
    const payer = chain.accounts[payerIndex]!;
    await chain.send(USDG.address as Address, usdgAbi(), 'mint', [payer.address, 1_000_000n]);
    const challenge = await server.post('/api/vaults/x402/vault-deposit-pack', body);
    expect(challenge.status).toBe(402);
    const required = decodePaymentRequiredHeader(challenge.headers.get('payment-required')!);
    expect(required.accepts[0]!.amount).toBe('30000');
    const signed = await signAuthorization(payer, { to: payTo, value: 30_000n });
    return server.request('POST', '/api/vaults/x402/vault-deposit-pack', {
      body,
      headers: { 'PAYMENT-SIGNATURE': v2PaymentHeader(signed, required.accepts[0]!, required.resource as never) },
    });
  }

  it('verifies the ack pins on chain before settling, then moves the price and answers the pack', async () => {
    const receiver = getAddress(chain.accounts[6]!.address);
    const payeeBefore = await balanceOf(payTo);
    const res = await payForPack(6, { amountUsdg: '40', receiver });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.ackVerification).toMatchObject({
      source: 'onchain_eth_call',
      chainRead: true,
      readFrom: 'vault_ack_views',
      readAddress: V1_VAULT.address,
    });
    expect(res.json.result.pack).toMatchObject({
      vaultAddress: V1_VAULT.address,
      amountUnits: '40000000',
      receiver,
      ackHashes: { risk: ACK_HASHES.risk, jurisdiction: ACK_HASHES.jurisdiction },
    });
    expect(await balanceOf(payTo)).toBe(payeeBefore + 30_000n);
  });

  it('refuses a pack whose acks differ from the on-chain pins (409) before the facilitator is called: nothing is charged', async () => {
    await v1.setPinnedAcks(keccak256(stringToBytes('some-other-risk-ack-v2')), ACK_HASHES.jurisdiction);
    try {
      const settles = facilitator.settleCalls().length;
      const payeeBefore = await balanceOf(payTo);
      const res = await payForPack(7, { amountUsdg: '40', receiver: getAddress(chain.accounts[7]!.address) });
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe('ACK_HASH_MISMATCH');
      expect(facilitator.settleCalls().length).toBe(settles);
      expect(await balanceOf(payTo)).toBe(payeeBefore);
    } finally {
      await v1.restorePinnedAcks();
    }
  });
});
