/**
 * @persistence: nonces, payment receipts and paid answers survive a restart, on SQLite and
 * (with TEST_DATABASE_URL) PostgreSQL. A settled authorization presented again after the
 * restart for the same request gets the answer stored before it was settled, without calling
 * the facilitator; for another request it is refused; one whose settlement outcome was unknown
 * is still unknown (no chain to prove it on here), never settled blind; the receipt is served
 * byte-identical.
 */
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { FakeFacilitator } from '../support/fake-facilitator';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { signAuthorization, v2PaymentHeader } from '../support/x402-payer';

const PAY_TO = getAddress('0x00000000000000000000000000000000000a11ce');
const started: TestServer[] = [];
let facilitator: FakeFacilitator | undefined;

afterAll(async () => {
  for (const s of started) await s.stop();
  await facilitator?.stop();
});

describe('@persistence x402', () => {
  it('@persistence nonces, payment receipts and paid answers survive a restart', async () => {
    const apiKey = secretMarker('facilitator');
    facilitator = await new FakeFacilitator({ apiKey, orgPayTo: PAY_TO }).start();
    const env = {
      FACILITATOR_ENABLED: 'true',
      FACILITATOR_API_KEY: apiKey,
      FACILITATOR_URL: facilitator.url,
      FACILITATOR_PAYTO_ADDRESS: PAY_TO,
      FACILITATOR_TIMEOUT_MS: '1500',
    };
    const body = { allocations: [{ tokenAddress: USDG.address, weightBps: 10000 }] };
    const first = await startServer({ env });

    const challenge = await first.post('/api/vaults/x402/vault-risk-score', body);
    const accepted = decodePaymentRequiredHeader(challenge.headers.get('payment-required')!).accepts[0]!;
    const settledHeader = v2PaymentHeader(
      await signAuthorization(privateKeyToAccount(generatePrivateKey()), { to: PAY_TO, value: 20_000n }),
      accepted,
    );
    const paid = await first.request('POST', '/api/vaults/x402/vault-risk-score', {
      body,
      headers: { 'PAYMENT-SIGNATURE': settledHeader },
    });
    expect(paid.status).toBe(200);
    const receiptId = paid.json.payment.receipt.receiptId;
    const receiptText = (await first.get(`/api/x402/receipts/${receiptId}`)).text;

    facilitator.nextSettle({ kind: 'hang' });
    const unknownHeader = v2PaymentHeader(
      await signAuthorization(privateKeyToAccount(generatePrivateKey()), { to: PAY_TO, value: 20_000n }),
      accepted,
    );
    const unknown = await first.request('POST', '/api/vaults/x402/vault-risk-score', {
      body,
      headers: { 'PAYMENT-SIGNATURE': unknownHeader },
    });
    expect(unknown.status).toBe(202);

    await first.stop({ keepData: true });
    const again = await startServer({ env, databaseUrl: first.databaseUrl });
    again.adoptDataOf(first);
    started.push(again);

    const settles = facilitator.settleCalls().length;
    const replay = await again.request('POST', '/api/vaults/x402/vault-risk-score', {
      body,
      headers: { 'PAYMENT-SIGNATURE': settledHeader },
    });
    expect(replay.status).toBe(200);
    expect(replay.json.result).toEqual(paid.json.result);
    expect(replay.json.generatedAt).toBe(paid.json.generatedAt);
    expect(replay.json.payment).toMatchObject({ storedAnswer: true, receipt: paid.json.payment.receipt });
    const otherRequest = await again.request('POST', '/api/vaults/x402/vault-risk-score', {
      body: { ...body, performanceFeeBps: 500 },
      headers: { 'PAYMENT-SIGNATURE': settledHeader },
    });
    expect(otherRequest.status).toBe(409);
    expect(otherRequest.json.error.code).toBe('X402_NONCE_USED');
    const pending = await again.request('POST', '/api/vaults/x402/vault-risk-score', {
      body,
      headers: { 'PAYMENT-SIGNATURE': unknownHeader },
    });
    expect(pending.status).toBe(202);
    expect(pending.json).toMatchObject({
      status: 'settlement_unknown',
      doNotPayAgain: true,
      stillPending: { chain: 'rpc_not_configured' },
    });
    expect(facilitator.settleCalls().length).toBe(settles);

    const stored = await again.get(`/api/x402/receipts/${receiptId}`);
    expect(stored.status).toBe(200);
    expect(stored.text).toBe(receiptText);
    expect(stored.json.hashMatches).toBe(true);
  });
});
