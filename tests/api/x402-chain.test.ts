/**
 * A real settlement on the local chain 4663: the buyer signs with a viem local account (and,
 * once, through the x402 reference client, to prove the challenge is consumable by a standard
 * buyer), the server checks and forwards the payment, and the fake facilitator calls
 * `transferWithAuthorization` on the test USDG at the canonical address, so the payee's
 * balance really moves by the price and the receipt names the real transaction.
 */
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm';
import { getAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAssetByTicker, USDG } from '../../src/lib/server/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { FakeFacilitator } from '../support/fake-facilitator';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { decodeBase64Json, signAuthorization, v2PaymentHeader } from '../support/x402-payer';

let chain: LocalChain;
let facilitator: FakeFacilitator;
let server: TestServer;
let payTo: Address;
const apiKey = secretMarker('facilitator');

const composition = {
  allocations: [
    { tokenAddress: findAssetByTicker('NVDA')!.address, weightBps: 6000 },
    { tokenAddress: USDG.address, weightBps: 4000 },
  ],
};

beforeAll(async () => {
  chain = await startLocalChain();
  payTo = getAddress(chain.accounts[3]!.address);
  facilitator = await new FakeFacilitator({ apiKey, orgPayTo: payTo, chain, signerIndex: 9 }).start();
  server = await startServer({
    env: {
      BROKER_CHAIN_RPC_URL: chain.rpcUrl,
      FACILITATOR_ENABLED: 'true',
      FACILITATOR_API_KEY: apiKey,
      FACILITATOR_URL: facilitator.url,
      FACILITATOR_PAYTO_ADDRESS: payTo,
      FACILITATOR_ADDRESS: facilitator.signerAddress()!,
      FACILITATOR_TIMEOUT_MS: '20000',
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await facilitator?.stop();
  await chain?.stop();
});

const usdgAbi = () => chain.artifact('TestUSDG').abi;
const balanceOf = (who: Address) => chain.read<bigint>(USDG.address as Address, usdgAbi(), 'balanceOf', [who]);

describe('settlement on the local chain 4663', () => {
  it("moves the price from the payer to the pinned payee with transferWithAuthorization, and the receipt names the real transaction", async () => {
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
    expect(await chain.read<boolean>(USDG.address as Address, usdgAbi(), 'authorizationState', [payer.address, signed.authorization.nonce])).toBe(true);
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
