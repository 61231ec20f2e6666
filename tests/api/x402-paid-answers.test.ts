/**
 * "Nobody pays for an answer they do not get", when the facilitator's answer is lost or cannot
 * be used: through the real server, the fake facilitator and the local chain 4663 where the
 * transfer really happens (or does not). A retry with the same payment is served the answer
 * stored at its first presentation once the transfer is known: settled by the facilitator, or
 * proven on chain (the authorization used by a transfer of the price to the recipient). An
 * unused authorization is settled then, once; one that expired unused is refused with nothing
 * charged. A buyer using the x402 reference client (`@x402/fetch`) with the x402
 * payment-identifier extension gets the same through a new authorization under the same id.
 */
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm';
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { getAddress, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import type { LocalChain } from '../support/chain/local-chain';
import type { FakeFacilitator } from '../support/fake-facilitator';
import type { TestServer } from '../support/server';
import { startChainPaymentLane, type ChainPaymentLane } from '../support/x402-chain-lane';
import { decodeBase64Json, nowSeconds, signAuthorization, v2PaymentHeader } from '../support/x402-payer';

let lane: ChainPaymentLane | undefined;
let chain: LocalChain;
let facilitator: FakeFacilitator;
let server: TestServer;
let payTo: Address;
const OTHER = getAddress('0x000000000000000000000000000000000000beef');
const PRICE = 20_000n;
const ROUTE = '/api/vaults/x402/vault-risk-score';
const body = { allocations: [{ tokenAddress: USDG.address, weightBps: 10000 }] };

beforeAll(async () => {
  lane = await startChainPaymentLane({ facilitatorTimeoutMs: 2000 });
  ({ chain, facilitator, server, payTo } = lane);
});
afterAll(async () => {
  await lane?.stop();
});

const usdgAbi = () => chain.artifact('TestUSDG').abi;
const balanceOf = (who: Address) => lane!.usdgBalance(who);

/** A new payer holding USDG (it needs no gas: the facilitator sends the transaction). */
async function fundedPayer(): Promise<PrivateKeyAccount> {
  const payer = privateKeyToAccount(generatePrivateKey());
  await chain.send(USDG.address as Address, usdgAbi(), 'mint', [payer.address, 1_000_000n]);
  return payer;
}

async function paymentOf(payer: PrivateKeyAccount, validBefore?: bigint) {
  const challenge = await server.post(ROUTE, body);
  expect(challenge.status).toBe(402);
  const required = decodePaymentRequiredHeader(challenge.headers.get('payment-required')!);
  const signed = await signAuthorization(payer, { to: payTo, value: PRICE, validBefore });
  return { signed, header: v2PaymentHeader(signed, required.accepts[0]!, required.resource as never) };
}

const pay = (header: string) => server.request('POST', ROUTE, { body, headers: { 'PAYMENT-SIGNATURE': header } });

/** Payee and payer balances, to prove money moved exactly once (or not at all). */
async function balances(payer: Address) {
  return { payee: await balanceOf(payTo), payer: await balanceOf(payer) };
}

describe('a paid answer is never lost: chain 4663 proves what the facilitator did not say', () => {
  it('the transfer happened and the facilitator answer was lost (timeout): the retry is served the stored answer, proven on chain, charged once', async () => {
    const payer = await fundedPayer();
    const before = await balances(payer.address);
    const { header } = await paymentOf(payer);
    facilitator.nextSettle({ kind: 'settle_then_hang' });
    const first = await pay(header);
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({ status: 'settlement_unknown', doNotPayAgain: true });
    expect(first.json.result).toBeUndefined();
    expect(await balances(payer.address)).toEqual({ payee: before.payee + PRICE, payer: before.payer - PRICE });

    const settles = facilitator.settleCalls().length;
    const retry = await pay(header);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json.result.score.total).toEqual(expect.any(Number));
    expect(retry.json.payment).toMatchObject({ storedAnswer: true, outcome: 'onchain_verified' });
    expect(retry.json.payment.receipt.settlementEvidence).toBe('onchain_verified');
    const settled = decodeBase64Json(retry.headers.get('payment-response'));
    expect(settled).toMatchObject({ success: true, payer: payer.address });
    const onChain = await chain.publicClient.getTransactionReceipt({ hash: settled.transaction });
    expect(onChain.status).toBe('success');
    expect(facilitator.settleCalls().length).toBe(settles);
    expect(await balances(payer.address)).toEqual({ payee: before.payee + PRICE, payer: before.payer - PRICE });

    // Served again from then on, and the receipt is stored.
    const again = await pay(header);
    expect(again.status).toBe(200);
    expect(again.json.result).toEqual(retry.json.result);
    expect((await server.get(`/api/x402/receipts/${retry.json.payment.receipt.receiptId}`)).json.hashMatches).toBe(true);
  });

  it('the facilitator timed out before any transfer: the retry settles the same authorization now, then serves the stored answer, charged once', async () => {
    const payer = await fundedPayer();
    const before = await balances(payer.address);
    const { signed, header } = await paymentOf(payer);
    facilitator.nextSettle({ kind: 'hang' });
    const first = await pay(header);
    expect(first.status).toBe(202);
    expect(await balances(payer.address)).toEqual(before);

    const settles = facilitator.settleCalls().length;
    const retry = await pay(header);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json.payment).toMatchObject({ storedAnswer: true, outcome: 'facilitator_reported_success' });
    expect(facilitator.settleCalls().length).toBe(settles + 1);
    expect(facilitator.settleCalls().at(-1)!.json.paymentPayload.payload.authorization.nonce).toBe(signed.authorization.nonce);
    expect(await balances(payer.address)).toEqual({ payee: before.payee + PRICE, payer: before.payer - PRICE });
    const status = await server.get(`/api/x402/authorizations/${payer.address}/${signed.authorization.nonce}`);
    expect(status.json.authorization.status).toBe('settled');
  });

  it('a report that does not match (another payTo) after a real transfer: the retry proves the transfer on chain and serves the answer', async () => {
    const payer = await fundedPayer();
    const before = await balances(payer.address);
    const { header } = await paymentOf(payer);
    facilitator.nextSettle({ kind: 'report_pay_to', payTo: OTHER });
    const first = await pay(header);
    expect(first.status).toBe(502);
    expect(first.json.error.code).toBe('X402_SETTLEMENT_REPORT_MISMATCH');
    const settles = facilitator.settleCalls().length;
    const retry = await pay(header);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json.payment).toMatchObject({ storedAnswer: true, outcome: 'onchain_verified', payTo });
    expect(retry.json.payment.receipt.facilitatorTransaction).toBe(first.json.reportedTransaction);
    expect(facilitator.settleCalls().length).toBe(settles);
    expect(await balances(payer.address)).toEqual({ payee: before.payee + PRICE, payer: before.payer - PRICE });
  });

  it('the x402 reference client with a payment-identifier: a new authorization under the same id gets the stored answer, never a second charge', async () => {
    const payer = await fundedPayer();
    const before = await balances(payer.address);
    const client = x402Client.fromConfig({
      schemes: [
        {
          network: 'eip155:4663',
          client: new ExactEvmScheme({ address: payer.address, signTypedData: (m) => payer.signTypedData(m as never) }),
        },
      ],
      // USDG on chain 4663 is not among the client's default assets: the buyer allows it, at this price.
      spendControls: { allowedAssets: [{ network: 'eip155:4663', asset: USDG.address, maxAmountPerPayment: PRICE.toString() }] },
    });
    const paymentId = generatePaymentId();
    client.onBeforePaymentCreation(async ({ paymentRequired }) => {
      paymentRequired.extensions ??= {};
      appendPaymentIdentifierToExtensions(paymentRequired.extensions, paymentId);
    });
    const payingFetch = wrapFetchWithPayment(fetch, client);
    const call = () =>
      payingFetch(`${server.url}${ROUTE}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    facilitator.nextSettle({ kind: 'settle_then_hang' });
    const first = await call();
    expect(first.status).toBe(202);
    const sent = facilitator.settleCalls().at(-1)!.json.paymentPayload.payload.authorization;
    const settles = facilitator.settleCalls().length;

    const retry = await call();
    const answer = await retry.json();
    expect(retry.status).toBe(200);
    expect(answer.payment).toMatchObject({ storedAnswer: true, outcome: 'onchain_verified' });
    expect(answer.payment.receipt.authorizationNonce).toBe(sent.nonce);
    expect(facilitator.settleCalls().length).toBe(settles);
    expect(await balances(payer.address)).toEqual({ payee: before.payee + PRICE, payer: before.payer - PRICE });
  });

  // Last: it moves the chain's clock forward.
  it('an authorization that expired unused on chain is refused with nothing charged, and its answer is not given', async () => {
    const payer = await fundedPayer();
    const before = await balances(payer.address);
    const { signed, header } = await paymentOf(payer, nowSeconds() + 30n);
    facilitator.nextSettle({ kind: 'hang' });
    expect((await pay(header)).status).toBe(202);
    await chain.testClient.increaseTime({ seconds: 120 });
    await chain.testClient.mine({ blocks: 1 });

    const settles = facilitator.settleCalls().length;
    const retry = await pay(header);
    expect(retry.status, retry.text).toBe(402);
    expect(retry.json).toMatchObject({ code: 'X402_AUTHORIZATION_EXPIRED_UNUSED', charged: false });
    expect(retry.json.error).toContain('nothing was charged');
    expect(retry.json.result).toBeUndefined();
    expect(facilitator.settleCalls().length).toBe(settles);
    expect(await balances(payer.address)).toEqual(before);
    const status = await server.get(`/api/x402/authorizations/${payer.address}/${signed.authorization.nonce}`);
    expect(status.json.authorization.status).toBe('expired_unused');
    expect((await pay(header)).json.error.code).toBe('X402_NONCE_USED');
  });
});
