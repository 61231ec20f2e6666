/**
 * The paid call's flow (x402/paid-call.ts) with its dependencies faked: the truth rule
 * "nobody pays for an answer they do not get" as an order of calls, and the facilitator's
 * reachability as the client classified it.
 */
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { findPaidService } from '../../src/lib/server/x402/catalogue';
import { facilitatorReachability } from '../../src/lib/server/x402/directory';
import type { FacilitatorClient, SettleOutcome, SupportedCheck } from '../../src/lib/server/x402/facilitator-client';
import type { FacilitatorSettings } from '../../src/lib/server/x402/lanes';
import { payForAnswer, refusalOf, settlementView, type PaidCallDeps } from '../../src/lib/server/x402/paid-call';
import type { AuthorizationKey, AuthorizationStore, StoredAuthorization } from '../../src/lib/server/x402/settlement';
import { signAuthorization, v2PaymentHeader } from '../support/x402-payer';
import { buildRequirements } from '../../src/lib/server/x402/requirements';
import { vaultServiceLaneOf } from '../../src/lib/server/x402/lanes';
import { answerTimeAt } from '../support/clocks';
import { readServerClock } from '../../src/lib/server/clock';

const PAY_TO = getAddress('0x00000000000000000000000000000000000a11ce');
const pinned = { payTo: PAY_TO, origin: 'https://svc.example' };
const risk = findPaidService('vault-risk-score')!;
const TX = `0x${'ab'.repeat(32)}`;

class MemoryStore implements AuthorizationStore {
  rows = new Map<string, StoredAuthorization>();
  failRecord = false;
  private k = (key: AuthorizationKey) => `${key.network}|${key.asset}|${key.payer}|${key.nonce}`;
  async find(key: AuthorizationKey) {
    return this.rows.get(this.k(key)) ?? null;
  }
  async reserve(row: StoredAuthorization) {
    if (this.rows.has(this.k(row))) return false;
    this.rows.set(this.k(row), { ...row });
    return true;
  }
  async finish(id: string, status: StoredAuthorization['status'], reason: string | null) {
    for (const r of this.rows.values()) if (r.id === id) Object.assign(r, { status, facilitatorReason: reason });
  }
  async recordSettled(id: string, receipt: { receiptId: string }) {
    if (this.failRecord) throw new Error('database unavailable');
    for (const r of this.rows.values()) if (r.id === id) Object.assign(r, { status: 'settled', receiptId: receipt.receiptId });
  }
}

async function paymentHeader() {
  const account = privateKeyToAccount(generatePrivateKey());
  const req = buildRequirements(risk, pinned);
  return {
    header: 'PAYMENT-SIGNATURE',
    value: v2PaymentHeader(await signAuthorization(account, { to: PAY_TO, value: BigInt(req.amountUnits) }), req.v2),
  };
}

/** Records the order in which the flow touches its dependencies. */
function harness(settle: () => SettleOutcome, over: Partial<PaidCallDeps<{ score: number }, { answer: string }>> = {}) {
  const calls: string[] = [];
  const store = new MemoryStore();
  const deps: PaidCallDeps<{ score: number }, { answer: string }> = {
    facilitator: {
      settle: async () => {
        calls.push('settle');
        return settle();
      },
    },
    store,
    clocks: { answerTime: answerTimeAt('2030-01-01T00:00:00Z'), serverTime: readServerClock() },
    pinned,
    runService: () => {
      calls.push('run');
      return { score: 3 };
    },
    finishAnswer: (result) => {
      calls.push('finish');
      return { answer: `score ${result.score}` };
    },
    ...over,
  };
  return { calls, store, deps };
}

const success = (): SettleOutcome => ({
  kind: 'success',
  transaction: TX,
  network: 'eip155:4663',
  payer: null,
  reportedPayTo: null,
  reportedAmount: null,
  raw: {},
});

describe('the paid call: nobody pays for an answer they do not get', () => {
  it('without a payment the service is not run and the facilitator not called', async () => {
    const { calls, deps } = harness(success);
    const result = await payForAnswer(deps, { service: risk, payment: undefined });
    expect(result).toMatchObject({ kind: 'refused', outcome: { kind: 'payment_required' } });
    expect(calls).toEqual([]);
  });

  it('runs the service and finishes the answer before settling, then releases that answer', async () => {
    const { calls, deps, store } = harness(success);
    const result = await payForAnswer(deps, { service: risk, payment: await paymentHeader() });
    expect(calls).toEqual(['run', 'finish', 'settle']);
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    expect(result.answer).toEqual({ answer: 'score 3' });
    expect(settlementView(result.outcome)).toMatchObject({ facilitatorTransaction: TX, receiptStored: true });
    expect([...store.rows.values()][0]).toMatchObject({ status: 'settled' });
  });

  it('a service that refuses its input costs nothing: the facilitator is never called', async () => {
    const { calls, deps, store } = harness(success, {
      runService: () => {
        throw new Error('input refused');
      },
    });
    await expect(payForAnswer(deps, { service: risk, payment: await paymentHeader() })).rejects.toThrow('input refused');
    expect(calls).toEqual([]);
    expect(store.rows.size).toBe(0);
  });

  it('an answer the finisher refuses (output guard, scrub) costs nothing either', async () => {
    const { calls, deps, store } = harness(success, {
      finishAnswer: () => {
        throw new Error('execution claim blocked');
      },
    });
    await expect(payForAnswer(deps, { service: risk, payment: await paymentHeader() })).rejects.toThrow('execution claim blocked');
    expect(calls).not.toContain('settle');
    expect(store.rows.size).toBe(0);
  });

  it('after a settlement the answer is given even when its receipt cannot be stored; the row awaits reconciliation', async () => {
    const storeErrors: unknown[] = [];
    const { deps, store } = harness(success, { onStoreError: (e) => storeErrors.push(e) });
    store.failRecord = true;
    const result = await payForAnswer(deps, { service: risk, payment: await paymentHeader() });
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    expect(result.answer).toEqual({ answer: 'score 3' });
    expect(settlementView(result.outcome).receiptStored).toBe(false);
    expect(storeErrors).toHaveLength(1);
    expect([...store.rows.values()][0]).toMatchObject({ status: 'settling' });
  });

  it('a refusal by the facilitator withholds the answer and is a 402 challenge with its reason', async () => {
    const { calls, deps } = harness(() => ({ kind: 'refused', reason: 'insufficient_funds', message: null, httpStatus: 200, raw: {} }));
    const result = await payForAnswer(deps, { service: risk, payment: await paymentHeader() });
    expect(calls).toEqual(['run', 'finish', 'settle']);
    expect(result.kind).toBe('refused');
    if (result.kind !== 'refused') return;
    const lane = vaultServiceLaneOf({ enabled: true, apiKey: 'k'.repeat(16), url: 'http://f.test', payToAddress: PAY_TO, timeoutMs: 100 });
    const error = refusalOf(result.outcome, lane);
    expect(error.code).toBe('X402_SETTLEMENT_REFUSED');
    expect(error.body).toMatchObject({ x402Version: 1, reason: 'insufficient_funds' });
    expect(Object.keys(error.headers ?? {})).toContain('PAYMENT-REQUIRED');
  });
});

describe('facilitator reachability', () => {
  const settings: FacilitatorSettings = { enabled: true, apiKeyPresent: true, url: 'http://f.test', payToAddress: PAY_TO, timeoutMs: 100 };
  const client = (answer: SupportedCheck) => {
    const asked = { n: 0 };
    const c: Pick<FacilitatorClient, 'supported'> = {
      supported: async () => {
        asked.n++;
        return answer;
      },
    };
    return { c, asked };
  };

  it('is not asked without the key, nor with a URL that is not http(s), and says which', async () => {
    const { c, asked } = client({ state: 'timeout' });
    expect(await facilitatorReachability({ ...settings, apiKeyPresent: false }, c)).toMatchObject({
      checked: false,
      state: 'not_checked',
      note: expect.stringContaining('FACILITATOR_API_KEY'),
    });
    expect(await facilitatorReachability({ ...settings, url: 'ftp://f.test' }, c)).toMatchObject({
      checked: false,
      note: expect.stringContaining('not an http(s) URL'),
    });
    expect(await facilitatorReachability({ ...settings, url: undefined }, c)).toMatchObject({
      checked: false,
      note: expect.stringContaining('not set'),
    });
    expect(asked.n).toBe(0);
  });

  it('is asked on a blocked lane whose URL is usable, and reports the state the client classified', async () => {
    const { c, asked } = client({ state: 'unauthorized', httpStatus: 401 });
    const blocked = { ...settings, payToAddress: undefined };
    expect(await facilitatorReachability(blocked, c)).toMatchObject({
      checked: true,
      state: 'unauthorized',
      httpStatus: 401,
      supportsLane: null,
    });
    expect(asked.n).toBe(1);
    expect(await facilitatorReachability(settings, client({ state: 'timeout' }).c)).toMatchObject({
      checked: true,
      state: 'timeout',
      httpStatus: null,
    });
  });

  it('compares the reported payTo with the pinned one when the lane is listed', async () => {
    const other = getAddress('0x00000000000000000000000000000000000b0b00');
    const { c } = client({
      state: 'reachable',
      kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:4663', payTo: other }],
      signers: [],
    });
    expect(await facilitatorReachability(settings, c)).toMatchObject({
      state: 'reachable',
      supportsLane: true,
      reportedPayTo: other,
      payToMatchesPinned: false,
    });
  });
});
