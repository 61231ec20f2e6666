/**
 * The paid call's flow (x402/paid-call.ts) with its dependencies faked: the truth rule
 * "nobody pays for an answer they do not get" as an order of calls, and the facilitator's
 * reachability as the client classified it.
 */
import { encodeAbiParameters, encodeEventTopics, getAddress, type Hex, type Log } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ChainReadError } from '../../src/lib/server/vaults/chain';
import { findPaidService } from '../../src/lib/server/x402/catalogue';
import { EIP3009_ABI, type AuthorizationChainReader } from '../../src/lib/server/x402/chain-proof';
import { unitsOf } from '../../src/lib/server/x402/settlement';
import { facilitatorReachability } from '../../src/lib/server/x402/directory';
import type { FacilitatorClient, SettleOutcome, SupportedCheck } from '../../src/lib/server/x402/facilitator-client';
import type { FacilitatorSettings } from '../../src/lib/server/x402/lanes';
import { payForAnswer, refusalOf, settlementView, type PaidCallDeps } from '../../src/lib/server/x402/paid-call';
import { MemoryAuthorizationStore } from '../support/x402-memory-store';
import { signAuthorization, v2PaymentHeader } from '../support/x402-payer';
import { buildRequirements } from '../../src/lib/server/x402/requirements';
import { vaultServiceLaneOf } from '../../src/lib/server/x402/lanes';
import { answerTimeAt } from '../support/clocks';
import { readServerClock } from '../../src/lib/server/clock';

const PAY_TO = getAddress('0x00000000000000000000000000000000000a11ce');
const pinned = { payTo: PAY_TO, origin: 'https://svc.example' };
const risk = findPaidService('vault-risk-score')!;
const TX = `0x${'ab'.repeat(32)}`;

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
  const store = new MemoryAuthorizationStore();
  const deps: PaidCallDeps<{ score: number }, { answer: string }> = {
    facilitator: {
      settle: async () => {
        calls.push('settle');
        return settle();
      },
    },
    store,
    chain: null,
    clocks: { answerTime: answerTimeAt('2030-01-01T00:00:00Z'), serverTime: readServerClock() },
    pinned,
    settlingInFlightMs: 10_000,
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
    const result = await payForAnswer(deps, { service: risk, payment: undefined, request: {}, inputErrorCode: 'INPUT_INVALID' });
    expect(result).toMatchObject({ kind: 'refused', outcome: { kind: 'payment_required' } });
    expect(calls).toEqual([]);
  });

  it('runs the service and finishes the answer before settling, then releases that answer', async () => {
    const { calls, deps, store } = harness(success);
    const result = await payForAnswer(deps, {
      service: risk,
      payment: await paymentHeader(),
      request: {},
      inputErrorCode: 'INPUT_INVALID',
    });
    expect(calls).toEqual(['run', 'finish', 'settle']);
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    expect(result.answer).toEqual({ answer: 'score 3' });
    expect(settlementView(result.outcome, result.storedAnswer)).toMatchObject({ facilitatorTransaction: TX, receiptStored: true });
    expect([...store.rows.values()][0]).toMatchObject({ status: 'settled' });
  });

  it('a service that refuses its input costs nothing: the facilitator is never called', async () => {
    const { calls, deps, store } = harness(success, {
      runService: () => {
        throw new Error('input refused');
      },
    });
    await expect(
      payForAnswer(deps, { service: risk, payment: await paymentHeader(), request: {}, inputErrorCode: 'INPUT_INVALID' }),
    ).rejects.toThrow('input refused');
    expect(calls).toEqual([]);
    expect(store.rows.size).toBe(0);
  });

  it('an answer the finisher refuses (output guard, scrub) costs nothing either', async () => {
    const { calls, deps, store } = harness(success, {
      finishAnswer: () => {
        throw new Error('execution claim blocked');
      },
    });
    await expect(
      payForAnswer(deps, { service: risk, payment: await paymentHeader(), request: {}, inputErrorCode: 'INPUT_INVALID' }),
    ).rejects.toThrow('execution claim blocked');
    expect(calls).not.toContain('settle');
    expect(store.rows.size).toBe(0);
  });

  it('after a settlement the answer is given even when its receipt cannot be stored; the row awaits reconciliation', async () => {
    const storeErrors: unknown[] = [];
    const { deps, store } = harness(success, { onStoreError: (e) => storeErrors.push(e) });
    store.failRecord = true;
    const result = await payForAnswer(deps, {
      service: risk,
      payment: await paymentHeader(),
      request: {},
      inputErrorCode: 'INPUT_INVALID',
    });
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    expect(result.answer).toEqual({ answer: 'score 3' });
    expect(settlementView(result.outcome, result.storedAnswer).receiptStored).toBe(false);
    expect(storeErrors).toHaveLength(1);
    expect([...store.rows.values()][0]).toMatchObject({ status: 'settling' });
  });

  it('a refusal by the facilitator withholds the answer and is a 402 challenge with its reason', async () => {
    const { calls, deps } = harness(() => ({ kind: 'refused', reason: 'insufficient_funds', message: null, httpStatus: 200, raw: {} }));
    const result = await payForAnswer(deps, {
      service: risk,
      payment: await paymentHeader(),
      request: {},
      inputErrorCode: 'INPUT_INVALID',
    });
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

describe('a second presentation: the stored answer once the transfer is known, never a second charge', () => {
  const USDG_ADDRESS = getAddress(buildRequirements(risk, pinned).v2.asset);
  const request = { allocations: [{ weightBps: 10000 }] };

  /** A chain 4663 whose authorizationState, latest block and (for `paidBy`) transfer logs the test sets. */
  function chain(state: {
    used: boolean;
    expired?: boolean;
    unreadable?: boolean;
    paidBy?: { authorizer: string; nonce: string; to?: string };
  }): AuthorizationChainReader {
    const log = (topics: readonly unknown[], data: Hex) => ({ address: USDG_ADDRESS, topics, data }) as unknown as Log;
    const paid = state.paidBy;
    const logs = paid
      ? [
          log(
            encodeEventTopics({
              abi: EIP3009_ABI,
              eventName: 'AuthorizationUsed',
              args: { authorizer: paid.authorizer as Hex, nonce: paid.nonce as Hex },
            }),
            '0x',
          ),
          log(
            encodeEventTopics({
              abi: EIP3009_ABI,
              eventName: 'Transfer',
              args: { from: paid.authorizer as Hex, to: (paid.to ?? PAY_TO) as Hex },
            }),
            encodeAbiParameters([{ type: 'uint256' }], [20_000n]),
          ),
        ]
      : [];
    return {
      chainId: async () => {
        if (state.unreadable) throw new ChainReadError('rpc_unreachable');
        return 4663;
      },
      latestBlock: async () => ({ number: 10n, timestamp: state.expired ? 2n ** 62n : 0n }),
      authorizationUsed: async () => state.used,
      authorizationUseTransactions: async () => [TX as Hex],
      successfulTransactionLogs: async () => logs,
    };
  }

  async function firstPresentation(settle: () => SettleOutcome) {
    const { calls, deps, store } = harness(settle);
    const account = privateKeyToAccount(generatePrivateKey());
    const req = buildRequirements(risk, pinned);
    const signed = await signAuthorization(account, { to: PAY_TO, value: BigInt(req.amountUnits) });
    const payment = { header: 'PAYMENT-SIGNATURE', value: v2PaymentHeader(signed, req.v2) };
    const paid = (over: Partial<typeof deps> = {}, body: unknown = request) =>
      payForAnswer({ ...deps, ...over }, { service: risk, payment, request: body, inputErrorCode: 'INPUT_INVALID' });
    const first = await paid();
    return { calls, deps, store, signed, paid, first };
  }
  const unknown = (): SettleOutcome => ({ kind: 'unknown', cause: 'timeout', httpStatus: null });

  it('a settled answer is served again to the same request, without settling again; another request is refused', async () => {
    const { calls, paid, first } = await firstPresentation(success);
    expect(first.kind).toBe('answered');
    const again = await paid();
    expect(again).toMatchObject({ kind: 'answered', answer: { answer: 'score 3' }, storedAnswer: true });
    expect(calls).toEqual(['run', 'finish', 'settle']);
    const other = await paid({}, { allocations: [{ weightBps: 5000 }] });
    expect(other).toMatchObject({ kind: 'refused', outcome: { kind: 'nonce_used', otherRequest: true } });
  });

  it('an unknown settlement stays unknown while the chain cannot be read, and is never settled blind', async () => {
    const { calls, paid, first } = await firstPresentation(unknown);
    expect(first).toMatchObject({ kind: 'refused', outcome: { kind: 'settlement_unknown', stillPending: null } });
    expect(await paid({ chain: null })).toMatchObject({
      outcome: { kind: 'settlement_unknown', stillPending: { chain: 'rpc_not_configured' } },
    });
    expect(await paid({ chain: chain({ used: false, unreadable: true }) })).toMatchObject({
      outcome: { kind: 'settlement_unknown', stillPending: { chain: 'rpc_unreachable' } },
    });
    expect(calls.filter((c) => c === 'settle')).toHaveLength(1);
  });

  it('proven on chain (the nonce used by a transfer of the price to the recipient): the stored answer, with an on-chain receipt', async () => {
    const { calls, paid, signed, store } = await firstPresentation(unknown);
    const proven = chain({ used: true, paidBy: { authorizer: signed.authorization.from, nonce: signed.authorization.nonce } });
    const again = await paid({ chain: proven });
    expect(again).toMatchObject({ kind: 'answered', answer: { answer: 'score 3' }, storedAnswer: true });
    if (again.kind !== 'answered') return;
    expect(again.outcome.receipt).toMatchObject({ settlementEvidence: 'onchain_verified', facilitatorTransaction: TX });
    expect(settlementView(again.outcome, true).outcome).toBe('onchain_verified');
    expect([...store.rows.values()][0]).toMatchObject({ status: 'settled' });
    expect(calls).toEqual(['run', 'finish', 'settle']);
  });

  it('a nonce spent without paying the recipient (cancelled, another transfer) is refused: nothing was charged', async () => {
    const { paid, signed, store } = await firstPresentation(unknown);
    const to = '0x000000000000000000000000000000000000beef';
    const elsewhere = chain({ used: true, paidBy: { authorizer: signed.authorization.from, nonce: signed.authorization.nonce, to } });
    expect(await paid({ chain: elsewhere })).toMatchObject({ kind: 'refused', outcome: { kind: 'used_without_payment' } });
    expect([...store.rows.values()][0]).toMatchObject({ status: 'used_without_payment', answer: null });
  });

  it('unused and still valid: settled now with the stored authorization, then the stored answer', async () => {
    let answers = [unknown, success];
    const { calls, paid } = await firstPresentation(() => answers.shift()!());
    const again = await paid({ chain: chain({ used: false }) });
    expect(again).toMatchObject({ kind: 'answered', storedAnswer: true, answer: { answer: 'score 3' } });
    expect(calls).toEqual(['run', 'finish', 'settle', 'settle']);
    answers = [];
    expect(await paid()).toMatchObject({ kind: 'answered', storedAnswer: true });
  });

  it('unused and past validBefore on chain: refused, nothing charged, the answer dropped', async () => {
    const { paid, store, calls } = await firstPresentation(unknown);
    expect(await paid({ chain: chain({ used: false, expired: true }) })).toMatchObject({
      kind: 'refused',
      outcome: { kind: 'expired_unused' },
    });
    expect([...store.rows.values()][0]).toMatchObject({ status: 'expired_unused', answer: null });
    expect(calls.filter((c) => c === 'settle')).toHaveLength(1);
  });

  it('reads a reported amount as a number: a JSON number or a decimal string of the same integer', () => {
    for (const same of [20000, '20000', '20000.0', '20000.000000', ' 20000 ']) expect(unitsOf(same), String(same)).toBe(20000n);
    for (const other of [20000.5, '20000.5', '2e4', '0x4e20', '', -1, 2 ** 60, null, {}]) expect(unitsOf(other), String(other)).toBeNull();
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
