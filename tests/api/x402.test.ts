/**
 * x402 payment lanes through the real server against the fake facilitator: discovery
 * (schema, providers, status), requirements rebuilt by the server, the 402 challenge in both
 * protocol versions, paid calls signed by a viem local account over the USDG EIP-712 domain,
 * every refusal that must never reach the facilitator, and every facilitator outcome
 * (success, success:false, 5xx, timeout, a reported payTo other than the pinned one).
 */
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { request as httpRequest } from 'node:http';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAssetByTicker, USDG } from '../../src/lib/server/registry';
import { V1_VAULT } from '../../src/lib/server/vaults/registry';
import { PAID_VAULT_SERVICES } from '../../src/lib/server/x402/catalogue';
import { buildPaymentReceipt } from '../../src/lib/server/x402/receipts';
import { FakeFacilitator } from '../support/fake-facilitator';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { decodeBase64Json, nowSeconds, signAuthorization, v1PaymentHeader, v2PaymentHeader } from '../support/x402-payer';

const PAY_TO = getAddress('0x00000000000000000000000000000000000a11ce');
const OTHER = getAddress('0x000000000000000000000000000000000000beef');
const FACILITATOR_ADDRESS = getAddress('0x000000000000000000000000000000000000fac1');
const RISK_PRICE = 20_000n;
const apiKey = secretMarker('facilitator');

const composition = {
  allocations: [
    { tokenAddress: findAssetByTicker('AAPL')!.address, ticker: 'AAPL', weightBps: 3000 },
    { tokenAddress: findAssetByTicker('SPY')!.address, weightBps: 4000 },
    { tokenAddress: USDG.address, weightBps: 3000 },
  ],
  performanceFeeBps: 1000,
};

let facilitator: FakeFacilitator;
let server: TestServer;

beforeAll(async () => {
  facilitator = await new FakeFacilitator({ apiKey, orgPayTo: PAY_TO }).start();
  server = await startServer({
    env: {
      FACILITATOR_ENABLED: 'true',
      FACILITATOR_API_KEY: apiKey,
      FACILITATOR_URL: facilitator.url,
      FACILITATOR_PAYTO_ADDRESS: PAY_TO,
      FACILITATOR_ADDRESS: FACILITATOR_ADDRESS,
      FACILITATOR_NETWORK: 'broker',
      FACILITATOR_CHAIN_ID: '4663',
      FACILITATOR_USDG_ADDRESS: USDG.address,
      FACILITATOR_TIMEOUT_MS: '1500',
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await facilitator?.stop();
});

const payer = () => privateKeyToAccount(generatePrivateKey());

async function challengeFor(service = 'vault-risk-score') {
  const res = await server.post(`/api/vaults/x402/${service}`, composition);
  expect(res.status).toBe(402);
  return { res, v2: decodePaymentRequiredHeader(res.headers.get('payment-required')!) };
}

async function v2Payment(terms: Partial<Parameters<typeof signAuthorization>[1]> = {}, acceptedPatch: Record<string, unknown> = {}) {
  const { v2 } = await challengeFor();
  const accepted = { ...v2.accepts[0]!, ...acceptedPatch };
  const signed = await signAuthorization(payer(), { to: PAY_TO, value: RISK_PRICE, ...terms });
  return { signed, header: v2PaymentHeader(signed, accepted, v2.resource as never) };
}

async function waitForLog(match: (line: any) => boolean): Promise<any> {
  for (let i = 0; i < 50; i++) {
    for (const raw of server.logs) {
      try {
        const line = JSON.parse(raw);
        if (match(line)) return line;
      } catch {
        // not a JSON line
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('log line not found');
}

function payV2(header: string, body: unknown = composition) {
  return server.request('POST', '/api/vaults/x402/vault-risk-score', { body, headers: { 'PAYMENT-SIGNATURE': header } });
}

describe('discovery', () => {
  it('GET /api/x402/schema carries the architecture object of spec 2.11 value by value', async () => {
    const res = await server.get('/api/x402/schema');
    expect(res.status).toBe(200);
    expect(res.json.architecture).toEqual({
      vaultChain: 'broker_chain',
      vaultChainId: 4663,
      baseAsset: 'USDG',
      baseAssetAddress: USDG.address,
      x402Providers: {
        partnerCloud: { status: 'live_or_configured', paymentChain: 'base', label: expect.any(String) },
        facilitator: {
          status: 'configured_or_live_or_blocked',
          paymentChain: 'broker_chain',
          chainId: 4663,
          asset: 'USDG',
          facilitator: FACILITATOR_ADDRESS,
          label: expect.any(String),
        },
      },
      brokerMcpUsedForVaultExecution: false,
      svcStoresBrokerCredentials: false,
      svcPlacesOrders: false,
    });
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
  });

  it('lists every paid vault service with provider, payment chain, price and settlement asset, chains kept apart', async () => {
    const res = await server.get('/api/x402/schema');
    const names = res.json.services.map((s: any) => s.name);
    expect(names).toEqual(['vault-fee-calculation', 'vault-risk-score', 'vault-comparison', 'vault-deposit-pack']);
    const risk = res.json.services.find((s: any) => s.name === 'vault-risk-score');
    expect(risk).toMatchObject({
      provider: 'facilitator',
      paymentChain: 'broker_chain',
      network: 'eip155:4663',
      price: { units: '20000', amount: '0.02', asset: 'USDG', decimals: 6 },
      settlementAsset: { symbol: 'USDG', address: USDG.address, decimals: 6, chain: 'broker_chain' },
      settlesHere: true,
    });
    expect(res.json.vaultChain).toEqual({
      name: 'broker_chain',
      chainId: 4663,
      baseAsset: 'USDG',
      baseAssetAddress: USDG.address,
      baseAssetDecimals: 6,
      role: expect.any(String),
    });
    expect(res.json.x402PaymentChain).toMatchObject({
      lane: 'facilitator',
      paymentChain: 'broker_chain',
      chainId: 4663,
      network: 'eip155:4663',
      asset: 'USDG',
      facilitatorState: 'configured',
      settlesHere: true,
    });
    expect(res.json.sourceVerification.length).toBeGreaterThan(0);
    for (const block of res.json.sourceVerification) expect(block.lastVerified).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('GET /api/x402/providers: partner cloud on base with 11 endpoints, the facilitator configured, self-hosted disabled, lanes labelled', async () => {
    const res = await server.get('/api/x402/providers');
    expect(res.status).toBe(200);
    const { partnerCloud, facilitator: f, selfHosted } = res.json.providers;
    expect(partnerCloud).toMatchObject({ paymentChain: 'base', chainId: 8453, asset: 'USDC', status: 'live', endpointCount: 11 });
    expect(partnerCloud.endpoints).toHaveLength(11);
    expect(new Set(partnerCloud.endpoints.map((e: any) => e.name)).size).toBe(11);
    expect(f).toMatchObject({
      status: 'configured',
      chainId: 4663,
      asset: 'USDG',
      mainnetOnly: true,
      testnetLane: false,
      payTo: PAY_TO,
      blockers: [],
    });
    expect(selfHosted).toMatchObject({ status: 'disabled', paymentChain: null, asset: null });
    for (const entry of res.json.laneSelection.vaultServices) {
      expect(entry.lane).toMatchObject({ lane: 'facilitator', provider: 'facilitator', paymentChain: 'broker_chain', settlesHere: true });
      expect(entry.lane.reason).toContain('FACILITATOR_ENABLED=true');
    }
  });

  it('GET /api/x402/facilitator/status reaches the supported-networks route with the bearer key and shows booleans only', async () => {
    const before = facilitator.requests.length;
    const res = await server.get('/api/x402/facilitator/status');
    expect(res.status).toBe(200);
    expect(res.json.configuration).toEqual({
      enabled: true,
      apiKeyConfigured: true,
      urlConfigured: true,
      payToConfigured: true,
      facilitatorAddressConfigured: true,
      networkConfigured: true,
      chainIdConfigured: true,
      usdgAddressConfigured: true,
    });
    expect(res.json.state).toBe('configured');
    expect(res.json.constants).toMatchObject({
      network: 'eip155:4663',
      chainId: 4663,
      asset: 'USDG',
      mainnetOnly: true,
      verifyRouteUsed: false,
      eip712: { name: 'Global Dollar', version: '1' },
    });
    expect(res.json.reachability).toMatchObject({
      checked: true,
      state: 'reachable',
      supportsLane: true,
      reportedPayTo: PAY_TO,
      payToMatchesPinned: true,
    });
    const call = facilitator.requests.slice(before).find((r) => r.path === '/supported');
    expect(call?.authorization).toBe(`Bearer ${apiKey}`);
    // The check's time is the server's clock; a caller's nowIso pins the answer, never the check.
    const startedAt = Date.now();
    const pinned = await server.get('/api/x402/facilitator/status?nowIso=2031-01-01T00:00:00.000Z');
    expect(pinned.status).toBe(200);
    const checkedAt = Date.parse(pinned.json.checkedAt);
    expect(checkedAt).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(checkedAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect(res.text).not.toContain(apiKey);
    expect(res.text).not.toContain(facilitator.url);
  });
});

describe('requirements', () => {
  it('are rebuilt by the server: buyer-supplied amount, network, token and recipient are ignored', async () => {
    const res = await server.post('/api/vaults/x402/vault-risk-score/requirements', {
      amount: '1',
      maxAmountRequired: '1',
      network: 'eip155:8453',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      payTo: OTHER,
    });
    expect(res.status).toBe(200);
    expect(res.json.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:4663',
        amount: '20000',
        asset: USDG.address,
        payTo: PAY_TO,
        maxTimeoutSeconds: expect.any(Number),
        extra: { name: 'Global Dollar', version: '1' },
      },
    ]);
    expect(res.json.acceptsV1[0]).toMatchObject({
      network: 'broker',
      maxAmountRequired: '20000',
      payTo: PAY_TO,
      asset: USDG.address,
      resource: `${server.url}/api/vaults/x402/vault-risk-score`,
    });
    expect(res.json.ignoredBuyerFields).toEqual(['amount', 'asset', 'maxAmountRequired', 'network', 'payTo']);
    expect(res.json.lane).toMatchObject({ provider: 'facilitator', paymentChain: 'broker_chain', settlesHere: true });
  });

  it('an unknown service is 404 with a code, on both the requirements and the paid route', async () => {
    const a = await server.post('/api/vaults/x402/free-money/requirements', {});
    expect(a.status).toBe(404);
    expect(a.json.error.code).toBe('X402_SERVICE_UNKNOWN');
    const b = await server.post('/api/vaults/x402/free-money', {});
    expect(b.status).toBe(404);
    expect(b.json.error.code).toBe('X402_SERVICE_UNKNOWN');
  });
});

describe('402 challenge', () => {
  it('without a payment header: the v1 body { x402Version, error, accepts } and the v2 PAYMENT-REQUIRED header', async () => {
    const settles = facilitator.settleCalls().length;
    const { res, v2 } = await challengeFor();
    expect(res.json.x402Version).toBe(1);
    expect(typeof res.json.error).toBe('string');
    expect(res.json.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'broker',
        maxAmountRequired: '20000',
        resource: `${server.url}/api/vaults/x402/vault-risk-score`,
        description: expect.any(String),
        mimeType: 'application/json',
        outputSchema: expect.any(Object),
        payTo: PAY_TO,
        maxTimeoutSeconds: expect.any(Number),
        asset: USDG.address,
        extra: { name: 'Global Dollar', version: '1' },
      },
    ]);
    expect(v2).toMatchObject({
      x402Version: 2,
      resource: { url: `${server.url}/api/vaults/x402/vault-risk-score` },
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:4663',
          amount: '20000',
          asset: USDG.address,
          payTo: PAY_TO,
          extra: { name: 'Global Dollar', version: '1' },
        },
      ],
    });
    expect(res.json.vaultChain.chainId).toBe(4663);
    expect(res.json.x402PaymentChain.network).toBe('eip155:4663');
    expect(facilitator.settleCalls().length).toBe(settles);
  });

  it('a header that is not base64 JSON is 400 X402_PAYMENT_MALFORMED with the requirements', async () => {
    const res = await payV2('not-base64!!');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'X402_PAYMENT_MALFORMED', x402Version: 1 });
    expect(res.json.accepts).toHaveLength(1);
  });
});

describe('the 402 challenge answered from its first text (http/dispatch.ts `unpaidChallenge`)', () => {
  const answerOf = (res: { status: number; text: string; headers: Headers }) => ({
    status: res.status,
    body: res.text,
    paymentRequired: res.headers.get('payment-required'),
  });

  it.each(PAID_VAULT_SERVICES.map((s) => s.name))(
    '%s: every unpaid request gets the challenge the procedure itself answers',
    async (name) => {
      const path = `/api/vaults/x402/${name}`;
      // A pinned clock sends the request through the procedure, never through the kept text.
      const computed = answerOf(await server.post(path, { ...composition, nowIso: '2026-03-01T00:00:00Z' }));
      expect(computed.status).toBe(402);
      const bodies: unknown[] = [
        {},
        composition,
        { note: 'settled and filled: the order was placed' },
        { serviceName: 'vault-fee-calculation' },
        {},
      ];
      for (const body of bodies) expect(answerOf(await server.post(path, body))).toEqual(computed);
    },
  );

  it('a request that something besides its path could change is answered by the procedure, after the challenge was kept', async () => {
    const path = '/api/vaults/x402/vault-risk-score';
    expect((await server.post(path, {})).status).toBe(402);
    const refused = [
      await server.post(`${path}?nowIso=yesterday`, {}),
      await server.post(path, { nowIso: 'yesterday' }),
      await server.post(path, { ...composition, label: 'lone \ud800 surrogate' }),
      await server.request('POST', path, { body: {}, headers: { 'X-PAYMENT': 'e30=', 'PAYMENT-SIGNATURE': 'e30=' } }),
    ];
    expect(refused.map((r) => [r.status, r.json.error?.code ?? r.json.code])).toEqual([
      [400, 'NOW_ISO_INVALID'],
      [400, 'NOW_ISO_INVALID'],
      [400, 'INPUT_TEXT_INVALID'],
      [400, 'X402_PAYMENT_MALFORMED'],
    ]);
    const unknown = await server.post('/api/vaults/x402/free-money', {});
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'X402_SERVICE_UNKNOWN']);
  });
});

describe('paid calls', () => {
  it('a v2 PAYMENT-SIGNATURE payment settles through the facilitator and answers 200 with both payment response headers', async () => {
    const before = facilitator.settleCalls().length;
    const { signed, header } = await v2Payment();
    const res = await payV2(header);
    expect(res.status).toBe(200);
    expect(res.json.result.score.total).toEqual(expect.any(Number));
    expect(res.json.result.policyVersion).toBe('svc-vault-risk-score-1.0.0');
    const xResponse = decodeBase64Json(res.headers.get('x-payment-response'));
    const v2Response = decodeBase64Json(res.headers.get('payment-response'));
    expect(v2Response).toMatchObject({ success: true, network: 'eip155:4663', payer: signed.authorization.from });
    expect(v2Response.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(xResponse).toEqual(v2Response);

    const calls = facilitator.settleCalls().slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.authorization).toBe(`Bearer ${apiKey}`);
    expect(calls[0]!.json.paymentRequirements).toMatchObject({
      scheme: 'exact',
      network: 'eip155:4663',
      amount: '20000',
      asset: USDG.address,
      payTo: PAY_TO,
    });
    expect(calls[0]!.json.paymentPayload.payload.authorization.nonce).toBe(signed.authorization.nonce);
    expect(facilitator.verifyCalls()).toHaveLength(0);

    const receipt = res.json.payment.receipt;
    expect(receipt).toMatchObject({
      serviceName: 'vault-risk-score',
      payer: signed.authorization.from,
      payTo: PAY_TO,
      amountUnits: '20000',
      authorizationNonce: signed.authorization.nonce,
      facilitatorTransaction: v2Response.transaction,
    });
    const recomputed = buildPaymentReceipt({
      serviceName: 'vault-risk-score',
      resource: `${server.url}/api/vaults/x402/vault-risk-score`,
      x402Version: 2,
      payer: signed.authorization.from,
      payTo: PAY_TO,
      amountUnits: '20000',
      nonce: signed.authorization.nonce,
      validAfter: signed.authorization.validAfter,
      validBefore: signed.authorization.validBefore,
      transaction: v2Response.transaction,
      issuedAt: new Date(receipt.issuedAt),
    });
    expect(receipt).toEqual(recomputed);

    const stored = await server.get(`/api/x402/receipts/${receipt.receiptId}`);
    expect(stored.status).toBe(200);
    expect(stored.json.receipt).toEqual(receipt);
    expect(stored.json.hashMatches).toBe(true);
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
    expect(res.json.vaultChain.name).toBe('broker_chain');
  });

  it('a v1 X-PAYMENT payment settles too, with v1 requirements sent to the facilitator', async () => {
    const before = facilitator.settleCalls().length;
    const signed = await signAuthorization(payer(), { to: PAY_TO, value: 10_000n });
    const res = await server.request('POST', '/api/vaults/x402/vault-fee-calculation', {
      body: { highWaterMarkUsdg: '1000', navUsdg: '1200' },
      headers: { 'X-PAYMENT': v1PaymentHeader(signed) },
    });
    expect(res.status).toBe(200);
    expect(res.json.result.performanceFee).toEqual({ usdg: '20', units: '20000000' });
    expect(decodeBase64Json(res.headers.get('x-payment-response'))).toMatchObject({ success: true, network: 'broker' });
    const call = facilitator.settleCalls().slice(before)[0]!;
    expect(call.json).toMatchObject({
      x402Version: 1,
      paymentRequirements: { network: 'broker', maxAmountRequired: '10000', payTo: PAY_TO },
    });
  });

  it('@persistence the identical payment replayed gets the stored answer without a second settlement; for another body or service it is refused', async () => {
    const { header } = await v2Payment();
    const paid = await payV2(header);
    expect(paid.status).toBe(200);
    expect(paid.json.payment.storedAnswer).toBe(false);
    const settles = facilitator.settleCalls().length;
    const replay = await payV2(header);
    expect(replay.status).toBe(200);
    expect(replay.json.result).toEqual(paid.json.result);
    expect(replay.json.generatedAt).toBe(paid.json.generatedAt);
    expect(replay.json.payment).toMatchObject({ storedAnswer: true, receipt: paid.json.payment.receipt });
    expect(decodeBase64Json(replay.headers.get('payment-response'))).toEqual(decodeBase64Json(paid.headers.get('payment-response')));
    expect(facilitator.settleCalls().length).toBe(settles);

    const otherBody = await payV2(header, { ...composition, performanceFeeBps: 500 });
    expect(otherBody.status).toBe(409);
    expect(otherBody.json.error.code).toBe('X402_NONCE_USED');
    expect(otherBody.json.error.message).toContain('another request');
    expect(otherBody.json.authorization.status).toBe('settled');
    expect(otherBody.json.result).toBeUndefined();
    const otherService = await server.request('POST', '/api/vaults/x402/vault-comparison', {
      body: composition,
      headers: { 'PAYMENT-SIGNATURE': header },
    });
    expect(otherService.status).not.toBe(200);
    expect(otherService.json.result).toBeUndefined();
    expect(facilitator.settleCalls().length).toBe(settles);
  });

  it('@persistence two simultaneous presentations of one authorization reach the facilitator once (unique nonce key)', async () => {
    const { header } = await v2Payment();
    const settles = facilitator.settleCalls().length;
    const [a, b] = await Promise.all([payV2(header), payV2(header)]);
    // The later one is either refused while the first is settling (409) or, once it settled, served the stored answer.
    const statuses = [a.status, b.status].sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    if (statuses[1] === 200) expect(a.json.result).toEqual(b.json.result);
    expect(facilitator.settleCalls().length).toBe(settles + 1);
  });

  it('a payment to another payTo, of a smaller amount or on another network is refused before the facilitator', async () => {
    const settles = facilitator.settleCalls().length;

    const toOther = await v2Payment({ to: OTHER }, { payTo: OTHER });
    const r1 = await payV2(toOther.header);
    expect(r1.status).toBe(402);
    expect(r1.json).toMatchObject({ code: 'X402_PAYMENT_REJECTED', reason: 'invalid_exact_evm_payload_recipient_mismatch' });
    expect(r1.headers.get('payment-required')).toBeTruthy();

    // The buyer claims the pinned payTo in `accepted` but signs for another recipient.
    const sneaky = await v2Payment({ to: OTHER });
    expect((await payV2(sneaky.header)).json.reason).toBe('invalid_exact_evm_payload_recipient_mismatch');

    const smaller = await v2Payment({ value: RISK_PRICE - 1n }, { amount: String(RISK_PRICE - 1n) });
    const r2 = await payV2(smaller.header);
    expect(r2.status).toBe(402);
    expect(r2.json.reason).toBe('invalid_exact_evm_payload_authorization_value');

    const smallerSigned = await v2Payment({ value: RISK_PRICE - 1n });
    expect((await payV2(smallerSigned.header)).json.reason).toBe('invalid_exact_evm_payload_authorization_value');

    const otherNetwork = await v2Payment({}, { network: 'eip155:8453' });
    const r3 = await payV2(otherNetwork.header);
    expect(r3.status).toBe(402);
    expect(r3.json.reason).toBe('invalid_network');

    const v1Base = await signAuthorization(payer(), { to: PAY_TO, value: RISK_PRICE });
    const r4 = await server.request('POST', '/api/vaults/x402/vault-risk-score', {
      body: composition,
      headers: { 'X-PAYMENT': v1PaymentHeader(v1Base, 'base') },
    });
    expect(r4.status).toBe(402);
    expect(r4.json.reason).toBe('invalid_network');

    const otherAsset = await v2Payment({}, { asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' });
    expect((await payV2(otherAsset.header)).json.reason).toBe('invalid_payment_requirements');

    expect(facilitator.settleCalls().length).toBe(settles);
  });

  it('an expired authorization is refused, and a pinned nowIso in the past does not revive it', async () => {
    const settles = facilitator.settleCalls().length;
    const expired = await v2Payment({ validBefore: nowSeconds() - 60n });
    const res = await payV2(expired.header, { ...composition, nowIso: '2020-01-01T00:00:00Z' });
    expect(res.status).toBe(402);
    expect(res.json.reason).toBe('invalid_exact_evm_payload_authorization_valid_before');
    const notYet = await v2Payment({ validAfter: nowSeconds() + 3600n, validBefore: nowSeconds() + 7200n });
    expect((await payV2(notYet.header)).json.reason).toBe('invalid_exact_evm_payload_authorization_valid_after');
    expect(facilitator.settleCalls().length).toBe(settles);
  });

  it('a signature by another key, or over another EIP-712 domain, is refused before the facilitator', async () => {
    const settles = facilitator.settleCalls().length;
    const { v2 } = await challengeFor();
    const signed = await signAuthorization(payer(), { to: PAY_TO, value: RISK_PRICE });
    const forged = { ...signed, authorization: { ...signed.authorization, from: payer().address } };
    const r1 = await payV2(v2PaymentHeader(forged, v2.accepts[0]!));
    expect(r1.status).toBe(402);
    expect(r1.json.reason).toBe('invalid_exact_evm_payload_signature');
    const otherDomain = await signAuthorization(payer(), { to: PAY_TO, value: RISK_PRICE, domain: { name: 'USD Coin', version: '2' } });
    expect((await payV2(v2PaymentHeader(otherDomain, v2.accepts[0]!))).json.reason).toBe('invalid_exact_evm_payload_signature');
    const otherChain = await signAuthorization(payer(), { to: PAY_TO, value: RISK_PRICE, domain: { chainId: 46630 } });
    expect((await payV2(v2PaymentHeader(otherChain, v2.accepts[0]!))).json.reason).toBe('invalid_exact_evm_payload_signature');
    expect(facilitator.settleCalls().length).toBe(settles);
  });

  it('an invalid service input with a payment is refused before any settlement (nothing is charged)', async () => {
    const settles = facilitator.settleCalls().length;
    const { header } = await v2Payment();
    const shape = await payV2(header, { allocations: 'all in' });
    expect(shape.status).toBe(400);
    expect(shape.json.error.code).toBe('VAULT_COMPOSITION_SHAPE');
    const fake = await payV2(header, {
      allocations: [{ tokenAddress: '0x1111111111111111111111111111111111111111', ticker: 'AAPL', weightBps: 10000 }],
    });
    expect(fake.status).toBe(422);
    expect(fake.json.error.code).toBe('VAULT_COMPOSITION_INVALID');
    expect(facilitator.settleCalls().length).toBe(settles);
    // The authorization was never used, so it still pays for a valid request.
    expect((await payV2(header)).status).toBe(200);
  });
});

describe('the paid deposit pack (vault-deposit-pack)', () => {
  const PACK_PRICE = 30_000n;
  const NOW = '2026-11-22T10:00:00.000Z';
  const receiver = getAddress('0x00000000000000000000000000000000000b0b00');
  const packBody = { amountUsdg: '25.5', receiver, nowIso: NOW };
  const packChallenge = async () =>
    decodePaymentRequiredHeader((await server.post('/api/vaults/x402/vault-deposit-pack', packBody)).headers.get('payment-required')!);

  it('is listed at 0.03 USDG with the free route as its twin, and answers a 402 challenge without a payment', async () => {
    const listing = (await server.get('/api/x402/schema')).json.services.find((s: any) => s.name === 'vault-deposit-pack');
    expect(listing).toMatchObject({
      route: 'POST /api/vaults/x402/vault-deposit-pack',
      freeRoute: 'POST /api/partnerbot/vault-deposit/prepare-command',
      provider: 'facilitator',
      price: { units: '30000', amount: '0.03', asset: 'USDG', decimals: 6 },
      settlesHere: true,
    });

    const settles = facilitator.settleCalls().length;
    const res = await server.post('/api/vaults/x402/vault-deposit-pack', packBody);
    expect(res.status).toBe(402);
    expect(res.json.x402Version).toBe(1);
    expect(res.json.accepts).toEqual([
      expect.objectContaining({
        scheme: 'exact',
        network: 'broker',
        maxAmountRequired: '30000',
        resource: `${server.url}/api/vaults/x402/vault-deposit-pack`,
        payTo: PAY_TO,
        asset: USDG.address,
        extra: { name: 'Global Dollar', version: '1' },
      }),
    ]);
    const v2 = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
    expect(v2.accepts).toEqual([expect.objectContaining({ network: 'eip155:4663', amount: '30000', payTo: PAY_TO, asset: USDG.address })]);
    expect(res.json.pack).toBeUndefined();
    expect(res.json.result).toBeUndefined();
    expect(facilitator.settleCalls().length).toBe(settles);
  });

  it('a paid call settles through the fake facilitator and answers the same pack as the free route', async () => {
    const before = facilitator.settleCalls().length;
    const v2 = await packChallenge();
    const signed = await signAuthorization(payer(), { to: PAY_TO, value: PACK_PRICE });
    const res = await server.request('POST', '/api/vaults/x402/vault-deposit-pack', {
      body: packBody,
      headers: { 'PAYMENT-SIGNATURE': v2PaymentHeader(signed, v2.accepts[0]!, v2.resource as never) },
    });
    expect(res.status, res.text).toBe(200);
    expect(decodeBase64Json(res.headers.get('payment-response'))).toMatchObject({
      success: true,
      network: 'eip155:4663',
      payer: signed.authorization.from,
    });
    const calls = facilitator.settleCalls().slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.json.paymentRequirements).toMatchObject({ amount: '30000', payTo: PAY_TO, asset: USDG.address });
    expect(res.json.payment.receipt).toMatchObject({ serviceName: 'vault-deposit-pack', amountUnits: '30000', payTo: PAY_TO });

    const pack = res.json.result.pack;
    expect(pack).toMatchObject({
      packVersion: 'partnerbot-vault-deposit-1.0.0',
      mode: 'A',
      chainId: 4663,
      asset: 'USDG',
      assetDecimals: 6,
      amount: '25.5',
      amountUnits: '25500000',
      receiver,
      receiverMustBeDepositor: true,
      generatedAt: NOW,
      svcExecutesDeposit: false,
    });
    // No RPC on this server: the pins were compared with the registry copy, and it says so.
    expect(res.json.result.ackVerification).toMatchObject({ source: 'registry_pinned_copy', chainRead: false, matches: true });
    expect(res.json.result.modes.C).toMatchObject({ available: true, recommended: true });
    expect(res.json.result.svcExecutesDeposit).toBe(false);
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });

    // One function builds both: the free route answers the identical pack for the same request.
    const free = await server.post('/api/partnerbot/vault-deposit/prepare-command', packBody);
    expect(free.status).toBe(200);
    const { pack: freePack, ackVerification, modes, partnerbotSocialCommand, depositLinkUrl, svcExecutesDeposit } = free.json;
    expect(res.json.result).toEqual({
      pack: freePack,
      ackVerification,
      modes,
      partnerbotSocialCommand,
      depositLinkUrl,
      svcExecutesDeposit,
    });
  });

  it("an invalid pack request with a payment is refused with the pack's own code before any settlement", async () => {
    const settles = facilitator.settleCalls().length;
    const v2 = await packChallenge();
    const signed = await signAuthorization(payer(), { to: PAY_TO, value: PACK_PRICE });
    const header = v2PaymentHeader(signed, v2.accepts[0]!, v2.resource as never);
    const pay = (body: unknown) =>
      server.request('POST', '/api/vaults/x402/vault-deposit-pack', { body, headers: { 'PAYMENT-SIGNATURE': header } });

    const decimals = await pay({ ...packBody, amountUsdg: '1.0000001' });
    expect(decimals.status).toBe(400);
    expect(decimals.json.error.code).toBe('AMOUNT_TOO_MANY_DECIMALS');
    const wrongType = await pay({ ...packBody, amountUsdg: 25 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error.code).toBe('AMOUNT_MALFORMED');
    const toVault = await pay({ ...packBody, receiver: V1_VAULT.address });
    expect(toVault.status).toBe(400);
    expect(toVault.json.error.code).toBe('RECEIVER_IS_VAULT');
    const unknownVault = await pay({ ...packBody, vaultId: 'not-a-vault' });
    expect(unknownVault.status).toBe(404);
    expect(unknownVault.json.error.code).toBe('VAULT_UNKNOWN');
    expect(facilitator.settleCalls().length).toBe(settles);
    // Nothing was charged, so the same authorization still pays for a valid request.
    expect((await pay(packBody)).status).toBe(200);
  });
});

describe('facilitator outcomes', () => {
  it('success:false with HTTP 200 is a refusal carrying the facilitator reason, and the nonce is not reused', async () => {
    facilitator.nextSettle({ kind: 'refuse', reason: 'insufficient_funds', message: 'balance too low' });
    const { header } = await v2Payment();
    const res = await payV2(header);
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ code: 'X402_SETTLEMENT_REFUSED', facilitatorReason: 'insufficient_funds', x402Version: 1 });
    expect(res.json.error).toContain('insufficient_funds');
    expect(res.json.result).toBeUndefined();
    expect(decodeBase64Json(res.headers.get('payment-response'))).toMatchObject({ success: false, errorReason: 'insufficient_funds' });
    const settles = facilitator.settleCalls().length;
    const again = await payV2(header);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('X402_NONCE_USED');
    expect(facilitator.settleCalls().length).toBe(settles);
  });

  it('a timeout is settlement_unknown: kept with its nonce and answer; with no chain to prove what happened a retry stays unknown', async () => {
    facilitator.nextSettle({ kind: 'hang' });
    const { signed, header } = await v2Payment();
    const res = await payV2(header);
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: 'settlement_unknown', cause: 'timeout', doNotPayAgain: true });
    expect(res.json.error.code).toBe('X402_SETTLEMENT_UNKNOWN');
    expect(res.json.result).toBeUndefined();
    expect(res.headers.get('payment-required')).toBeNull();

    const status = await server.get(`/api/x402/authorizations/${signed.authorization.from}/${signed.authorization.nonce}`);
    expect(status.json.authorization).toMatchObject({
      status: 'settlement_unknown',
      facilitatorReason: 'timeout',
      serviceName: 'vault-risk-score',
    });
    expect(status.json.reconciliationNeeded).toBe(true);

    // The operator's log names the authorization for reconciliation (never the header or the key).
    const logged = await waitForLog(
      (l) => l.event === 'x402_payment' && l.outcome === 'settlement_unknown' && l.authorizationId === res.json.authorization.id,
    );
    expect(logged.reason).toBeUndefined();

    // No chain to prove what happened (no BROKER_CHAIN_RPC_URL here): still unknown, said so, never settled blind.
    const settles = facilitator.settleCalls().length;
    const again = await payV2(header);
    expect(again.status).toBe(202);
    expect(again.json.error.code).toBe('X402_SETTLEMENT_UNKNOWN');
    expect(again.json).toMatchObject({ doNotPayAgain: true, stillPending: { chain: 'rpc_not_configured' } });
    expect(again.json.result).toBeUndefined();
    expect(facilitator.settleCalls().length).toBe(settles);
  });

  it('a 5xx, a dropped connection or an unreadable answer is settlement_unknown as well', async () => {
    for (const behaviour of [{ kind: 'status', status: 503 }, { kind: 'reset' }, { kind: 'bad_json' }] as const) {
      facilitator.nextSettle(behaviour);
      const { header } = await v2Payment();
      const res = await payV2(header);
      expect(res.status, behaviour.kind).toBe(202);
      expect(res.json.status).toBe('settlement_unknown');
    }
  });

  it('a 401 from the facilitator (call refused, no settlement answer) is 502 and not reported as paid', async () => {
    facilitator.nextSettle({ kind: 'status', status: 401, body: '{"error":"bad key"}' });
    const { header } = await v2Payment();
    const res = await payV2(header);
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe('X402_FACILITATOR_CALL_REJECTED');
  });

  it('a payTo reported differently from the pinned one fails closed: no service answer, kept for reconciliation', async () => {
    facilitator.nextSettle({ kind: 'report_pay_to', payTo: OTHER });
    const { signed, header } = await v2Payment();
    const res = await payV2(header);
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe('X402_SETTLEMENT_REPORT_MISMATCH');
    expect(res.json.field).toBe('payTo');
    expect(res.json.result).toBeUndefined();
    expect(res.headers.get('payment-response')).toBeNull();
    const status = await server.get(`/api/x402/authorizations/${signed.authorization.from}/${signed.authorization.nonce}`);
    expect(status.json.authorization.status).toBe('report_mismatch');
    expect(status.json.authorization.receiptId).toBeNull();
  });
});

describe('a paid answer is never lost', () => {
  it('a settled amount written as a JSON number or as "20000.0" is the same amount: the answer is given; another amount still fails closed', async () => {
    for (const amount of [20000, '20000.0', '20000']) {
      facilitator.nextSettle({ kind: 'report_amount', amount });
      const { header } = await v2Payment();
      const res = await payV2(header);
      expect(res.status, String(amount)).toBe(200);
      expect(res.json.result.score.total).toEqual(expect.any(Number));
    }
    for (const amount of [20001, '2000.0', '20000.5']) {
      facilitator.nextSettle({ kind: 'report_amount', amount });
      const { header } = await v2Payment();
      const res = await payV2(header);
      expect(res.status, String(amount)).toBe(502);
      expect(res.json).toMatchObject({ field: 'amount', doNotPayAgain: true });
      expect(res.json.error.code).toBe('X402_SETTLEMENT_REPORT_MISMATCH');
      expect(res.json.result).toBeUndefined();
    }
  });

  it('a buyer whose connection dropped right after sending gets the stored answer on a retry with the same payment, charged once', async () => {
    facilitator.nextSettle({ kind: 'delay', ms: 600 });
    const { signed, header } = await v2Payment();
    const settles = facilitator.settleCalls().length;
    const body = JSON.stringify(composition);
    // Send the paid request and close the connection before any answer can come.
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/vaults/x402/vault-risk-score`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'PAYMENT-SIGNATURE': header },
      });
      req.on('error', () => resolve());
      req.on('response', () => reject(new Error('an answer came before the connection was closed')));
      req.end(body, () => setTimeout(() => (req.destroy(), resolve()), 100));
    });
    const status = `/api/x402/authorizations/${signed.authorization.from}/${signed.authorization.nonce}`;
    for (let i = 0; i < 100 && (await server.get(status)).json?.authorization?.status !== 'settled'; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await server.get(status)).json.authorization.status).toBe('settled');
    expect(facilitator.settleCalls().length).toBe(settles + 1);

    const retry = await payV2(header);
    expect(retry.status).toBe(200);
    expect(retry.json.result.score.total).toEqual(expect.any(Number));
    expect(retry.json.payment).toMatchObject({ storedAnswer: true, outcome: 'facilitator_reported_success' });
    expect(decodeBase64Json(retry.headers.get('payment-response'))).toMatchObject({ success: true, payer: signed.authorization.from });
    expect(facilitator.settleCalls().length).toBe(settles + 1);
  });

  it('a retry of a mismatched report with no chain to read stays unknown and keeps the answer', async () => {
    facilitator.nextSettle({ kind: 'report_pay_to', payTo: OTHER });
    const { header } = await v2Payment();
    expect((await payV2(header)).status).toBe(502);
    const settles = facilitator.settleCalls().length;
    const again = await payV2(header);
    expect(again.status).toBe(202);
    expect(again.json).toMatchObject({ stillPending: { chain: 'rpc_not_configured' }, doNotPayAgain: true });
    expect(facilitator.settleCalls().length).toBe(settles);
  });

  it('the 402 challenge declares the x402 payment-identifier extension (optional)', async () => {
    const { v2 } = await challengeFor();
    expect(v2.extensions?.['payment-identifier']).toMatchObject({ info: { required: false } });
  });
});

describe('server-side settlement route', () => {
  it('POST /api/x402/facilitator/settle settles a payment given in the body and records a receipt', async () => {
    const { v2 } = await challengeFor('vault-comparison');
    const signed = await signAuthorization(payer(), { to: PAY_TO, value: 50_000n });
    const res = await server.post('/api/x402/facilitator/settle', {
      serviceName: 'vault-comparison',
      paymentHeader: v2PaymentHeader(signed, v2.accepts[0]!),
    });
    expect(res.status).toBe(200);
    expect(res.json.settlement).toMatchObject({
      outcome: 'facilitator_reported_success',
      amountUnits: '50000',
      payer: signed.authorization.from,
    });
    expect(res.json.settlement.receipt.serviceName).toBe('vault-comparison');
    expect(res.json.result).toBeUndefined();
    expect(res.headers.get('payment-response')).toBeTruthy();
  });

  it('with the lane configured, a missing serviceName is a 400 that names it', async () => {
    const res = await server.post('/api/x402/facilitator/settle', {});
    expect(res.status).toBe(400);
    expect(res.json.error.issues.map((i: any) => i.path)).toContain('serviceName');
  });

  it('without a payment it is 400, and it checks like the paid route', async () => {
    const res = await server.post('/api/x402/facilitator/settle', { serviceName: 'vault-comparison' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('X402_PAYMENT_MISSING');
    const signed = await signAuthorization(payer(), { to: PAY_TO, value: 1n });
    const cheap = await server.post('/api/x402/facilitator/settle', {
      serviceName: 'vault-comparison',
      paymentHeader: v1PaymentHeader(signed),
    });
    expect(cheap.status).toBe(402);
    expect(cheap.json.reason).toBe('invalid_exact_evm_payload_authorization_value');
  });
});

describe('output guard on a refusal that quotes the facilitator', () => {
  it('a refusal message that would claim an execution is blocked (500 OUTPUT_GUARD), and nothing is settled', async () => {
    facilitator.nextSettle({ kind: 'refuse', reason: 'insufficient_funds', message: 'The facilitator settled the payment already.' });
    const { signed, header } = await v2Payment();
    const res = await payV2(header);
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe('OUTPUT_GUARD');
    expect(res.text).not.toContain('settled the payment');
    const stored = await server.get(`/api/x402/authorizations/${signed.authorization.from}/${signed.authorization.nonce}`);
    expect(stored.json.authorization).toMatchObject({ status: 'refused', receiptId: null });
    await waitForLog((line) => line.event === 'output_guard' && line.level === 50);
  });
});

describe("the buyer's own words (the comparison echoes each vault's label)", () => {
  const claimingLabel = 'The agent sold NVDA';
  const comparison = {
    vaults: [
      { label: claimingLabel, allocations: [{ tokenAddress: findAssetByTicker('SPY')!.address, weightBps: 10000 }] },
      { label: 'cash', allocations: [{ tokenAddress: USDG.address, weightBps: 10000 }] },
    ],
  };

  it('a paid comparison labelled "The agent sold NVDA" settles once and answers 200 with the result it paid for', async () => {
    const settles = facilitator.settleCalls().length;
    const { v2 } = await challengeFor('vault-comparison');
    const signed = await signAuthorization(payer(), { to: PAY_TO, value: 50_000n });
    const res = await server.request('POST', '/api/vaults/x402/vault-comparison', {
      body: comparison,
      headers: { 'PAYMENT-SIGNATURE': v2PaymentHeader(signed, v2.accepts[0]!) },
    });
    expect(res.status).toBe(200);
    expect(res.json.result.columns.map((c: any) => c.label)).toEqual([claimingLabel, 'cash']);
    expect(res.json.payment.receipt.receiptId).toMatch(/^x402rcpt_[0-9a-f]{32}$/);
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
    expect(facilitator.settleCalls().length).toBe(settles + 1);
    const stored = await server.get(`/api/x402/authorizations/${signed.authorization.from}/${signed.authorization.nonce}`);
    expect(stored.json.authorization).toMatchObject({ status: 'settled', receiptId: res.json.payment.receipt.receiptId });
  });

  it('the free comparison gives the same answer for the same words, never a 500', async () => {
    const res = await server.post('/api/vaults/compare', comparison);
    expect(res.status).toBe(200);
    expect(res.json.comparison.columns[0].label).toBe(claimingLabel);
  });
});

describe('secrets', () => {
  it('the facilitator key never appears in a response, a header or a log line', async () => {
    // TestServer checks every response body and header above for the key; here the typed
    // client and the OpenAPI document are checked too, and the logs on stop (afterAll).
    const doc = await server.get('/api/openapi.json');
    expect(doc.text).not.toContain(apiKey);
    const trpc = await server.get('/trpc/x402.facilitatorStatus');
    expect(trpc.status).toBe(200);
    expect(trpc.text).not.toContain(apiKey);
    expect(server.logs.join('\n')).not.toContain(apiKey);
    // The key did reach the facilitator, as a bearer token only.
    expect(facilitator.settleCalls().every((c) => c.authorization === `Bearer ${apiKey}`)).toBe(true);
    expect(facilitator.requests.some((r) => r.body.includes(apiKey))).toBe(false);
  });
});

describe('lane selection without the facilitator', () => {
  let plain: TestServer;
  let blocked: TestServer;
  beforeAll(async () => {
    [plain, blocked] = await Promise.all([
      startServer({ allowPostgres: false }),
      startServer({
        allowPostgres: false,
        env: {
          FACILITATOR_ENABLED: 'true',
          FACILITATOR_API_KEY: secretMarker('facilitator'),
          FACILITATOR_URL: 'http://127.0.0.1:9',
          FACILITATOR_CHAIN_ID: '46630',
        },
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain?.stop(), blocked?.stop()]);
  });

  it('falls to the partner-cloud lane, labelled with provider, chain and reason; no payment is taken here', async () => {
    const providers = await plain.get('/api/x402/providers');
    expect(providers.json.providers.facilitator.status).toBe('disabled');
    for (const entry of providers.json.laneSelection.vaultServices) {
      expect(entry.lane).toMatchObject({
        lane: 'partnerCloud',
        provider: 'partnerCloud',
        paymentChain: 'base',
        asset: 'USDC',
        settlesHere: false,
      });
      expect(entry.lane.reason).toContain('FACILITATOR_ENABLED is not true');
    }
    const req = await plain.post('/api/vaults/x402/vault-risk-score/requirements', {});
    expect(req.status).toBe(200);
    expect(req.json.accepts).toEqual([]);
    expect(req.json.lane.provider).toBe('partnerCloud');
    expect(req.json.partnerCloudListing).toBe('svc-vault-risk-score-scaffold');
    expect(req.json.vaultChain.chainId).toBe(4663);
    expect(req.json.x402PaymentChain).toMatchObject({ lane: 'partnerCloud', paymentChain: 'base', chainId: 8453, asset: 'USDC' });

    const paid = await plain.post('/api/vaults/x402/vault-risk-score', composition);
    expect(paid.status).toBe(503);
    expect(paid.json.error.code).toBe('FACILITATOR_NOT_CONFIGURED');
    expect(paid.json.x402PaymentChain.lane).toBe('partnerCloud');

    const settle = await plain.post('/api/x402/facilitator/settle', { serviceName: 'vault-risk-score' });
    expect(settle.status).toBe(503);
    expect(settle.json.error.code).toBe('FACILITATOR_NOT_CONFIGURED');
    // The lane says it is off before it asks for the fields only it needs.
    for (const body of [{}, { serviceName: 42 }]) {
      const bare = await plain.post('/api/x402/facilitator/settle', body);
      expect(bare.status).toBe(503);
      expect(bare.json.error.code).toBe('FACILITATOR_NOT_CONFIGURED');
    }

    const status = await plain.get('/api/x402/facilitator/status');
    expect(status.json).toMatchObject({ state: 'disabled', reachability: { checked: false, state: 'not_checked' }, checkedAt: null });
    const schema = await plain.get('/api/x402/schema');
    expect(schema.json.architecture.x402Providers.facilitator.facilitator).toBeNull();
  });

  it('a selected but misconfigured facilitator lane is blocked (testnet chain id, no payTo), never silently downgraded', async () => {
    const providers = await blocked.get('/api/x402/providers');
    expect(providers.json.providers.facilitator.status).toBe('blocked');
    const blockers: string[] = providers.json.providers.facilitator.blockers;
    expect(blockers.some((b) => b.includes('FACILITATOR_CHAIN_ID'))).toBe(true);
    expect(blockers.some((b) => b.includes('FACILITATOR_PAYTO_ADDRESS'))).toBe(true);
    expect(providers.json.laneSelection.vaultServices[0].lane).toMatchObject({ lane: 'facilitator', settlesHere: false });
    const paid = await blocked.post('/api/vaults/x402/vault-risk-score', composition);
    expect(paid.status).toBe(503);
    expect(paid.json.error.code).toBe('FACILITATOR_NOT_CONFIGURED');
    expect(paid.json.error.issues.map((i: any) => i.message).join(' ')).toContain('FACILITATOR_PAYTO_ADDRESS');
    const req = await blocked.post('/api/vaults/x402/vault-risk-score/requirements', {});
    expect(req.status).toBe(503);
  });
});
