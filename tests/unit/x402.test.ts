/** x402 domain: lanes, architecture, requirements, payment checks, facilitator answers, the seller flow. */
import { DEFAULT_ASSETS } from '@x402/evm';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { x402Architecture, x402ArchitectureFromConfig } from '../../src/lib/server/x402/architecture';
import { findPaidService, PAID_VAULT_SERVICES } from '../../src/lib/server/x402/catalogue';
import { PARTNER_CLOUD_ENDPOINTS, PARTNER_CLOUD_LANE } from '../../src/lib/server/x402/constants';
import { facilitatorClient, settlePayment, type FacilitatorEndpoint } from '../../src/lib/server/x402/facilitator-client';
import { chainBlocks, facilitatorLaneState, selectVaultServiceLane, type FacilitatorSettings } from '../../src/lib/server/x402/lanes';
import { checkPayment, decodePayment, PaymentMalformed, PaymentRejected } from '../../src/lib/server/x402/payment';
import { buildPaymentReceipt, verifyPaymentReceipt } from '../../src/lib/server/x402/receipts';
import { buildRequirements } from '../../src/lib/server/x402/requirements';
import { payForAnswer } from '../../src/lib/server/x402/paid-call';
import { paidServiceInputErrorCode, runPaidService } from '../../src/lib/server/x402/settlement';
import { buildDepositPack } from '../../src/lib/server/vaults/deposit-pack';
import { MemoryAuthorizationStore } from '../support/x402-memory-store';
import { nowSeconds, signAuthorization, v1PaymentHeader, v2PaymentHeader } from '../support/x402-payer';
import { answerTimeAt, serverTimeAt } from '../support/clocks';
import { readServerClock } from '../../src/lib/server/clock';

const PAY_TO = getAddress('0x00000000000000000000000000000000000a11ce');
const configured: FacilitatorSettings = {
  enabled: true,
  apiKeyPresent: true,
  url: 'http://127.0.0.1:1',
  payToAddress: PAY_TO,
  timeoutMs: 1000,
};
const risk = findPaidService('vault-risk-score')!;
const req = buildRequirements(risk, { payTo: PAY_TO, origin: 'https://svc.example/' });

describe('lane selection', () => {
  it('uses the facilitator only when enabled and the key is set; otherwise the partner cloud, with the reason', () => {
    expect(selectVaultServiceLane(configured)).toMatchObject({
      lane: 'facilitator',
      paymentChain: 'broker_chain',
      chainId: 4663,
      asset: 'USDG',
      settlesHere: true,
    });
    const off = selectVaultServiceLane({ ...configured, enabled: false });
    expect(off).toMatchObject({ lane: 'partnerCloud', paymentChain: 'base', chainId: 8453, asset: 'USDC', settlesHere: false });
    expect(off.reason).toContain('FACILITATOR_ENABLED is not true');
    const noKey = selectVaultServiceLane({ ...configured, apiKeyPresent: false });
    expect(noKey.lane).toBe('partnerCloud');
    expect(noKey.reason).toContain('FACILITATOR_API_KEY is not set');
  });

  it('blocks (never downgrades) a selected lane with a testnet chain id, another USDG, a bad payTo or another network', () => {
    const s = facilitatorLaneState({
      ...configured,
      chainId: '46630',
      usdgAddress: '0x0000000000000000000000000000000000000001',
      payToAddress: 'not-an-address',
      network: 'base',
    });
    expect(s.state).toBe('blocked');
    expect(s.blockers).toHaveLength(4);
    expect(selectVaultServiceLane({ ...configured, chainId: '46630' })).toMatchObject({
      lane: 'facilitator',
      settlesHere: false,
      facilitatorState: 'blocked',
    });
    expect(
      facilitatorLaneState({ ...configured, network: 'eip155:4663', chainId: '4663', usdgAddress: USDG.address.toLowerCase() }).state,
    ).toBe('configured');
  });

  it('the x402PaymentChain block of a blocked lane reads blocked; the vault chain never moves; extra sources are appended', () => {
    const blocked = chainBlocks(selectVaultServiceLane({ ...configured, chainId: '46630' }));
    expect(blocked.x402PaymentChain).toMatchObject({
      lane: 'facilitator',
      facilitatorState: 'blocked',
      settlesHere: false,
      paymentChain: 'broker_chain',
    });
    expect(blocked.x402PaymentChain.reason).toContain('FACILITATOR_CHAIN_ID');
    const off = chainBlocks(selectVaultServiceLane({ ...configured, enabled: false }));
    expect(off.x402PaymentChain).toMatchObject({
      lane: 'partnerCloud',
      facilitatorState: 'disabled',
      settlesHere: false,
      paymentChain: 'base',
    });
    expect(off.vaultChain).toEqual(blocked.vaultChain);
    expect(off.vaultChain).toMatchObject({ name: 'broker_chain', chainId: 4663, baseAsset: 'USDG', baseAssetDecimals: 6 });
    const live = { subject: 'a read', source: 'eth_call', lastVerified: '2026-11-22T10:00:00.000Z', method: 'live_chain_read' as const };
    const withLive = chainBlocks(selectVaultServiceLane(configured), [live]);
    expect(withLive.sourceVerification.at(-1)).toEqual(live);
    expect(withLive.sourceVerification.slice(0, -1)).toEqual(chainBlocks(selectVaultServiceLane(configured)).sourceVerification);
  });
});

describe('constants', () => {
  it('partner cloud lists 11 distinct endpoints, and its USDC address matches the x402 reference table for base', () => {
    expect(PARTNER_CLOUD_ENDPOINTS).toHaveLength(11);
    expect(new Set(PARTNER_CLOUD_ENDPOINTS.map((e) => e.name)).size).toBe(11);
    const ref = (DEFAULT_ASSETS as unknown as Record<string, ReadonlyArray<{ asset: string; symbol: string }>>)['eip155:8453']!.find(
      (a) => a.symbol === 'USDC',
    )!;
    expect(PARTNER_CLOUD_LANE.assetAddress).toBe(ref.asset);
  });

  it('the catalogue prices every service once in USDG units, with unique names', () => {
    expect(new Set(PAID_VAULT_SERVICES.map((s) => s.name)).size).toBe(PAID_VAULT_SERVICES.length);
    for (const s of PAID_VAULT_SERVICES) expect(s.priceUnits).toBeGreaterThan(0n);
  });

  it("every service's example (the paid page's prefilled request) is a valid input the service answers, and says what it returns", async () => {
    const deps = { now: new Date('2026-11-22T10:00:00.000Z'), appOrigin: 'https://svc.example', chain: null, modeB: undefined };
    for (const s of PAID_VAULT_SERVICES) {
      expect(s.returns.length, s.name).toBeGreaterThan(20);
      const parsed = s.input.safeParse(s.example);
      expect(parsed.success, s.name).toBe(true);
      const answer = await s.run(parsed.data, deps as never);
      expect(s.output.safeParse(answer).success, s.name).toBe(true);
    }
  });

  it('the paid deposit pack is buildDepositPack with the same dependencies: same pack, same refusals', async () => {
    const service = findPaidService('vault-deposit-pack')!;
    expect(service.priceUnits).toBe(30_000n);
    const deps = { now: new Date('2026-11-22T10:00:00.000Z'), appOrigin: 'https://svc.example', chain: null, modeB: undefined };
    const request = { amountUsdg: '12.5', receiver: PAY_TO, expiresInSeconds: 600 };
    const paid = await runPaidService(service, service.input.parse(request), deps);
    expect(paid).toEqual(JSON.parse(JSON.stringify(await buildDepositPack(request, deps))));
    expect(paid).toMatchObject({ svcExecutesDeposit: false, pack: { amountUnits: '12500000', expiresAt: '2026-11-22T10:10:00.000Z' } });
    await expect(runPaidService(service, { amountUsdg: '0', receiver: PAY_TO }, deps)).rejects.toMatchObject({
      code: 'AMOUNT_NOT_POSITIVE',
    });
    expect(paidServiceInputErrorCode(service, 'receiver')).toBe('RECEIVER_MALFORMED');
    expect(paidServiceInputErrorCode(findPaidService('vault-risk-score')!, 'allocations')).toBe('VAULT_COMPOSITION_SHAPE');
  });
});

describe('architecture object (spec 2.11)', () => {
  it('has the literal values and a null facilitator address until one is configured', () => {
    const a = x402Architecture(null);
    expect(a).toMatchObject({
      vaultChain: 'broker_chain',
      vaultChainId: 4663,
      baseAsset: 'USDG',
      baseAssetAddress: USDG.address,
      brokerMcpUsedForVaultExecution: false,
      svcStoresBrokerCredentials: false,
      svcPlacesOrders: false,
    });
    expect(a.x402Providers.partnerCloud).toMatchObject({ status: 'live_or_configured', paymentChain: 'base' });
    expect(a.x402Providers.facilitator).toMatchObject({
      status: 'configured_or_live_or_blocked',
      paymentChain: 'broker_chain',
      chainId: 4663,
      asset: 'USDG',
      facilitator: null,
    });
    expect(x402Architecture(PAY_TO).x402Providers.facilitator.facilitator).toBe(PAY_TO);
    expect(x402ArchitectureFromConfig({ address: PAY_TO.toLowerCase() }).x402Providers.facilitator.facilitator).toBe(PAY_TO);
    expect(x402ArchitectureFromConfig({ address: 'nope' }).x402Providers.facilitator.facilitator).toBeNull();
    expect(x402ArchitectureFromConfig({})).toEqual(a);
  });
});

describe('requirements', () => {
  it('are built from the catalogue and the pinned payTo, in both versions', () => {
    expect(req.v2).toEqual({
      scheme: 'exact',
      network: 'eip155:4663',
      amount: '20000',
      asset: USDG.address,
      payTo: PAY_TO,
      maxTimeoutSeconds: 120,
      extra: { name: 'Global Dollar', version: '1' },
    });
    expect(req.v1).toMatchObject({
      network: 'broker',
      maxAmountRequired: '20000',
      resource: 'https://svc.example/api/vaults/x402/vault-risk-score',
    });
  });
});

describe('payment checks', () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const now = Number(nowSeconds());

  it('accepts a correct v1 and v2 authorization and recovers the payer', async () => {
    const signed = await signAuthorization(account, { to: PAY_TO, value: 20_000n });
    expect(await checkPayment(decodePayment('PAYMENT-SIGNATURE', v2PaymentHeader(signed, req.v2)), req, serverTimeAt(now * 1000))).toEqual({
      payer: account.address,
    });
    expect(await checkPayment(decodePayment('X-PAYMENT', v1PaymentHeader(signed)), req, serverTimeAt(now * 1000))).toEqual({
      payer: account.address,
    });
  });

  it('refuses a version on the wrong header, a Permit2 payload, a short signature and junk as malformed', async () => {
    const signed = await signAuthorization(account, { to: PAY_TO, value: 20_000n });
    expect(() => decodePayment('X-PAYMENT', v2PaymentHeader(signed, req.v2))).toThrow(PaymentMalformed);
    const permit2 = Buffer.from(
      JSON.stringify({ x402Version: 2, accepted: req.v2, payload: { signature: signed.signature, permit2Authorization: {} } }),
    ).toString('base64');
    expect(() => decodePayment('PAYMENT-SIGNATURE', permit2)).toThrow(PaymentMalformed);
    const short = { ...signed, signature: '0x1234' as const };
    expect(() => decodePayment('PAYMENT-SIGNATURE', v2PaymentHeader(short, req.v2))).toThrow(PaymentMalformed);
    expect(() => decodePayment('PAYMENT-SIGNATURE', '%%%')).toThrow(PaymentMalformed);
  });

  it('refuses an amount above the exact price as well as below it', async () => {
    const more = await signAuthorization(account, { to: PAY_TO, value: 20_001n });
    await expect(checkPayment(decodePayment('X-PAYMENT', v1PaymentHeader(more)), req, serverTimeAt(now * 1000))).rejects.toThrow(
      PaymentRejected,
    );
  });

  it('checks the window against the clock it is given, with a settlement margin', async () => {
    const soon = await signAuthorization(account, { to: PAY_TO, value: 20_000n, validBefore: BigInt(now + 3) });
    await expect(checkPayment(decodePayment('X-PAYMENT', v1PaymentHeader(soon)), req, serverTimeAt(now * 1000))).rejects.toMatchObject({
      reason: 'invalid_exact_evm_payload_authorization_valid_before',
    });
  });
});

describe('facilitator answers', () => {
  const ep = (respond: () => Response | Promise<Response>): FacilitatorEndpoint => ({
    url: 'http://facilitator.test',
    apiKey: 'k',
    timeoutMs: 200,
    fetch: (async () => respond()) as typeof fetch,
  });
  const body = { x402Version: 2 as const, paymentPayload: {}, paymentRequirements: {} };
  const json = (status: number, value: unknown) =>
    new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
  const tx = `0x${'ab'.repeat(32)}`;

  it('classifies success, success:false at any status, 4xx, 5xx, unreadable and thrown answers', async () => {
    expect(
      await settlePayment(
        ep(() => json(200, { success: true, transaction: tx, network: 'eip155:4663', payer: PAY_TO, extra: { payTo: PAY_TO } })),
        body,
      ),
    ).toMatchObject({
      kind: 'success',
      reportedPayTo: PAY_TO,
    });
    expect(
      await settlePayment(
        ep(() => json(200, { success: false, errorReason: 'insufficient_funds' })),
        body,
      ),
    ).toMatchObject({ kind: 'refused', reason: 'insufficient_funds' });
    expect(
      await settlePayment(
        ep(() => json(400, { success: false, errorReason: 'invalid_payload' })),
        body,
      ),
    ).toMatchObject({ kind: 'refused', httpStatus: 400 });
    expect(
      await settlePayment(
        ep(() => json(401, { error: 'bad key' })),
        body,
      ),
    ).toMatchObject({ kind: 'call_rejected', httpStatus: 401 });
    expect(
      await settlePayment(
        ep(() => json(502, { error: 'x' })),
        body,
      ),
    ).toMatchObject({ kind: 'unknown', cause: 'server_error' });
    expect(
      await settlePayment(
        ep(() => new Response('{"success": tr', { status: 200 })),
        body,
      ),
    ).toMatchObject({ kind: 'unknown', cause: 'unreadable_answer' });
    expect(
      await settlePayment(
        ep(() => json(200, { success: true, transaction: 'pending' })),
        body,
      ),
    ).toMatchObject({ kind: 'unknown', cause: 'unreadable_answer' });
    expect(
      await settlePayment(
        ep(() => Promise.reject(Object.assign(new Error('t'), { name: 'TimeoutError' }))),
        body,
      ),
    ).toMatchObject({ kind: 'unknown', cause: 'timeout' });
    expect(
      await settlePayment(
        ep(() => Promise.reject(new TypeError('fetch failed'))),
        body,
      ),
    ).toMatchObject({ kind: 'unknown', cause: 'network_error' });
  });
});

describe('seller flow', () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const tx = `0x${'cd'.repeat(32)}`;

  async function run(store: MemoryAuthorizationStore, header: string | undefined, answer: () => Response, calls: { n: number }) {
    return payForAnswer(
      {
        facilitator: facilitatorClient({
          url: 'http://f.test',
          apiKey: 'k',
          timeoutMs: 200,
          fetch: (async () => (calls.n++, answer())) as typeof fetch,
        }),
        store,
        chain: null,
        clocks: { answerTime: answerTimeAt('2030-01-01T00:00:00Z'), serverTime: readServerClock() },
        pinned: { payTo: PAY_TO, origin: 'https://svc.example' },
        settlingInFlightMs: 10_000,
        runService: () => ({ score: 1 }),
        finishAnswer: (result) => result,
      },
      {
        service: risk,
        payment: header ? { header: 'PAYMENT-SIGNATURE', value: header } : undefined,
        request: { body: 1 },
        inputErrorCode: 'INPUT_INVALID',
      },
    );
  }

  it('settles once, records a deterministic receipt, then serves the stored answer to the same request without calling again', async () => {
    const store = new MemoryAuthorizationStore();
    const calls = { n: 0 };
    const header = v2PaymentHeader(await signAuthorization(account, { to: PAY_TO, value: 20_000n }), req.v2);
    const ok = () => new Response(JSON.stringify({ success: true, transaction: tx, network: 'eip155:4663', payer: account.address }));
    const first = await run(store, header, ok, calls);
    expect(first.kind).toBe('answered');
    if (first.kind !== 'answered') return;
    expect(first.outcome.receipt.issuedAt).toBe('2030-01-01T00:00:00.000Z');
    expect(verifyPaymentReceipt(first.outcome.receipt)).toBe(true);
    expect(verifyPaymentReceipt({ ...first.outcome.receipt, amountUnits: '1' })).toBe(false);
    const second = await run(store, header, ok, calls);
    expect(second).toMatchObject({ kind: 'answered', storedAnswer: true, answer: { score: 1 } });
    if (second.kind !== 'answered') return;
    expect(second.outcome.receipt).toEqual(first.outcome.receipt);
    expect(calls.n).toBe(1);
  });

  it('keeps an unknown outcome with its answer, and a retry without a chain to read stays unknown', async () => {
    const store = new MemoryAuthorizationStore();
    const calls = { n: 0 };
    const header = v2PaymentHeader(await signAuthorization(account, { to: PAY_TO, value: 20_000n }), req.v2);
    const first = await run(store, header, () => new Response('oops', { status: 500 }), calls);
    expect(first).toMatchObject({ kind: 'refused', outcome: { kind: 'settlement_unknown', cause: 'server_error' } });
    expect([...store.rows.values()][0]).toMatchObject({ status: 'settlement_unknown', answer: { score: 1 } });
    expect(await run(store, header, () => new Response('{}'), calls)).toMatchObject({
      outcome: { kind: 'settlement_unknown', stillPending: { chain: 'rpc_not_configured' } },
    });
    expect(calls.n).toBe(1);
  });

  it('fails closed when the facilitator reports another payTo, payer, amount or network; the same amount written another way is the same', async () => {
    const report = async (extra: Record<string, unknown>) => {
      const store = new MemoryAuthorizationStore();
      const header = v2PaymentHeader(await signAuthorization(account, { to: PAY_TO, value: 20_000n }), req.v2);
      const outcome = await run(
        store,
        header,
        () => new Response(JSON.stringify({ success: true, transaction: tx, network: 'eip155:4663', ...extra })),
        { n: 0 },
      );
      return { outcome, store };
    };
    for (const [field, extra] of [
      ['payTo', { extra: { payTo: '0x000000000000000000000000000000000000beef' } }],
      ['payer', { payer: '0x000000000000000000000000000000000000beef' }],
      ['amount', { amount: '1' }],
      ['amount', { amount: 20_001 }],
      ['amount', { amount: '20000.5' }],
      ['network', { network: 'eip155:8453' }],
    ] as const) {
      const { outcome, store } = await report(extra);
      expect(outcome, JSON.stringify(extra)).toMatchObject({ kind: 'refused', outcome: { kind: 'report_mismatch', field } });
      expect(store.receipts.size).toBe(0);
    }
    for (const amount of [20_000, '20000', '20000.0']) {
      expect((await report({ amount })).outcome.kind, String(amount)).toBe('answered');
    }
  });

  it('receipt ids depend on the payment identity, not on the clock', () => {
    const input = {
      serviceName: 'vault-risk-score',
      resource: 'r',
      x402Version: 2 as const,
      payer: PAY_TO,
      payTo: PAY_TO,
      amountUnits: '20000',
      nonce: `0x${'11'.repeat(32)}`,
      validAfter: '0',
      validBefore: '1',
      transaction: tx,
    };
    const a = buildPaymentReceipt({ ...input, issuedAt: new Date('2030-01-01T00:00:00Z') });
    const b = buildPaymentReceipt({ ...input, issuedAt: new Date('2031-01-01T00:00:00Z') });
    expect(a.receiptId).toBe(b.receiptId);
    expect(a.receiptHash).not.toBe(b.receiptHash);
    expect(buildPaymentReceipt({ ...input, nonce: `0x${'22'.repeat(32)}`, issuedAt: new Date(0) }).receiptId).not.toBe(a.receiptId);
  });
});
