/**
 * Who traded is part of a stock proof (issue 34, item 1; docs/proof-rule.md "Bindings"), through
 * the real server on the local chain 4663 with the fake partner. A plan records its executor
 * when one is known (the wallet of the signed-in session that prepared or submitted it, or the
 * wallet its partner job reports); then only that wallet's trade, or one the partner job names,
 * proves it. Without an executor a matching trade moves the plan as interface 3.1 says, and the
 * receipt says the proof is a match by token, amount and time (`caller_claim`). First-come
 * decides nothing: a bound claim takes the transaction from an unbound one, an unbound claim
 * never takes it from a bound one, and a partner job's binding is never replaced by a caller's
 * claim, a revert included.
 */
import { parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { startFakePartner, stockLaneEnv, type FakePartner } from '../support/fake-partner';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { signIn } from '../support/siwe';
import { freshNowIso, intent, NVDA } from '../support/stock-intents';

const PREPARE = '/api/stocks/prepare-partner-command';
const SUBMIT = '/api/stocks/submit-partner-intent';
const RECONCILE = '/api/stocks/reconcile-receipt';
const apiKey = secretMarker('partner');
const PERSON = 6; // signs in and trades from their own wallet
const STRANGER = 4; // trades the same terms from another wallet
const PARTNER_WALLET = 7; // the wallet a partner job reports

let chain: LocalChain;
let partner: FakePartner;
let server: TestServer;
let route: Address;
let personCookie: Record<string, string>;
let strangerCookie: Record<string, string>;

beforeAll(async () => {
  [chain, partner] = await Promise.all([startLocalChain(), startFakePartner({ apiKey })]);
  server = await startServer({
    env: stockLaneEnv(partner, apiKey, chain.rpcUrl),
  });
  route = await chain.deploy('TestSwapRoute');
  await chain.send(NVDA as Address, chain.artifact('TestToken').abi, 'mint', [route, parseUnits('1000', 18)]);
  for (const who of [PERSON, STRANGER, PARTNER_WALLET]) {
    await chain.send(USDG.address as Address, chain.artifact('TestUSDG').abi, 'mint', [
      chain.accounts[who]!.address,
      parseUnits('10000', 6),
    ]);
    await chain.send(USDG.address as Address, chain.artifact('TestUSDG').abi, 'approve', [route, 2n ** 255n], who);
  }
  const origin = server.env.ORIGIN!;
  personCookie = { cookie: (await signIn(server, chain.accounts[PERSON]!)).cookie, origin };
  strangerCookie = { cookie: (await signIn(server, chain.accounts[STRANGER]!)).cookie, origin };
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([chain?.stop(), partner?.stop()]);
});

/** `who` pays `usdg` USDG through the route and receives NVDA in one transaction. */
async function trade(who: number, usdg: string) {
  const receipt = await chain.send(
    route,
    chain.artifact('TestSwapRoute').abi,
    'swap',
    [USDG.address, NVDA, parseUnits(usdg, 6), parseUnits('0.1', 18)],
    who,
  );
  expect(receipt.status).toBe('success');
  return receipt.transactionHash;
}

async function prepare(amount: string, headers?: Record<string, string>) {
  const body = intent({ inputAmount: amount, maxNotionalUsd: 500 });
  const res = await server.post(PREPARE, { intent: body, nowIso: freshNowIso() }, headers);
  expect(res.status, res.text).toBe(200);
  return { planHash: res.json.planHash as string, intent: body, generatedAt: res.json.generatedAt as string };
}

const reconcile = (planHash: string, txHash: string) => server.post(RECONCILE, { planHash, txHash });
const receiptOf = async (planHash: string) => (await server.get(`/api/stocks/receipts/${planHash}`)).json.receipt;

describe("a signed-in person's plan (issue 34, item 1)", () => {
  it("@persistence is confirmed by their own trade and not by a stranger's matching trade", async () => {
    const plan = await prepare('31', personCookie);
    const stored = await receiptOf(plan.planHash);
    expect(stored).toMatchObject({
      executorKnown: true,
      executors: [{ address: chain.accounts[PERSON]!.address, source: 'siwe_session' }],
    });

    const strangers = await reconcile(plan.planHash, await trade(STRANGER, '31'));
    expect(strangers.status, strangers.text).toBe(200);
    expect(strangers.json.receipt).toMatchObject({ status: 'prepared', txHash: null, proofBinding: null });
    expect(strangers.json.reconciliation.reason).toBe('TX_NOT_SENT_BY_EXECUTOR');
    expect(strangers.json.reconciliation.proofChecks.at(-1)).toEqual({ check: 'sent_by_executor', passed: false });

    const own = await trade(PERSON, '31');
    const res = await reconcile(plan.planHash, own);
    expect(res.json.receipt).toMatchObject({ status: 'onchain_confirmed', txHash: own, proofBinding: 'executor_wallet' });
    expect(res.json.receipt.proofBindingMeaning).toMatch(/sender is the wallet known to trade/);
    expect(res.json.reconciliation.proofChecks).toContainEqual({ check: 'sent_by_executor', passed: true });
  });

  it("@persistence a squatter's unbound claim on the same trade does not lock the person out, and loses the trade to them", async () => {
    const mine = await prepare('32', personCookie);
    const squatters = await prepare('32'); // anonymous: no executor known
    const tx = await trade(PERSON, '32');

    const squat = await reconcile(squatters.planHash, tx);
    expect(squat.json.receipt).toMatchObject({ status: 'onchain_confirmed', proofBinding: 'caller_claim', executorKnown: false });

    const res = await reconcile(mine.planHash, tx);
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'onchain_confirmed', txHash: tx, proofBinding: 'executor_wallet' });
    const lost = await receiptOf(squatters.planHash);
    expect(lost).toMatchObject({ status: 'prepared', statusReason: 'TX_CLAIMED_BY_EXECUTOR', txHash: null, proofBinding: null });
    expect(lost.history.at(-1)).toMatchObject({ fromStatus: 'onchain_confirmed', toStatus: 'prepared', txHash: tx });

    // The unbound claim never takes it back.
    const again = await reconcile(squatters.planHash, tx);
    expect(again.json.receipt).toMatchObject({ status: 'prepared', txHash: null });
    expect(again.json.reconciliation.reason).toBe('TX_PROVES_OTHER_PLAN');
    expect(await receiptOf(mine.planHash)).toMatchObject({ status: 'onchain_confirmed', txHash: tx, proofBinding: 'executor_wallet' });
  });

  it("another wallet's session cannot take over the plan: prepare and submit of it are 409 PLAN_EXECUTOR_MISMATCH, and nothing is sent", async () => {
    const plan = await prepare('33', personCookie);
    const before = partner.submissions().length;
    const prep = await server.post(PREPARE, { intent: plan.intent, nowIso: plan.generatedAt }, strangerCookie);
    expect(prep.status, prep.text).toBe(409);
    expect(prep.json.error.code).toBe('PLAN_EXECUTOR_MISMATCH');
    const sub = await server.post(
      SUBMIT,
      { intent: plan.intent, userConfirmedPlanHash: plan.planHash, nowIso: plan.generatedAt },
      strangerCookie,
    );
    expect(sub.status, sub.text).toBe(409);
    expect(partner.submissions().length).toBe(before);
    expect((await receiptOf(plan.planHash)).executors).toEqual([{ address: chain.accounts[PERSON]!.address, source: 'siwe_session' }]);
  });
});

describe("a plan's partner job (issue 34, item 1)", () => {
  it("a wallet the partner job reports is the executor: a stranger's trade proves nothing, that wallet's does", async () => {
    const plan = await prepare('34');
    const sub = await server.post(SUBMIT, { intent: plan.intent, userConfirmedPlanHash: plan.planHash, nowIso: plan.generatedAt });
    expect(sub.status, sub.text).toBe(200);
    partner.setJob(sub.json.jobId, {
      statuses: ['processing'],
      reads: 0,
      walletAddress: chain.accounts[PARTNER_WALLET]!.address.toLowerCase(),
    });
    const poll = await server.get(`/api/stocks/partner-job/${sub.json.jobId}`);
    expect(poll.json.receipt.executors).toEqual([{ address: chain.accounts[PARTNER_WALLET]!.address, source: 'partner_job' }]);

    const strangers = await reconcile(plan.planHash, await trade(STRANGER, '34'));
    expect(strangers.json.receipt).toMatchObject({ status: 'prepared', txHash: null });
    expect(strangers.json.reconciliation.reason).toBe('TX_NOT_SENT_BY_EXECUTOR');
    const res = await reconcile(plan.planHash, await trade(PARTNER_WALLET, '34'));
    expect(res.json.receipt).toMatchObject({ status: 'onchain_confirmed', proofBinding: 'executor_wallet' });
  });

  it("@persistence a revert the partner job bound is never replaced by a caller's claim of a matching trade", async () => {
    const plan = await prepare('35');
    const sub = await server.post(SUBMIT, { intent: plan.intent, userConfirmedPlanHash: plan.planHash, nowIso: plan.generatedAt });
    expect(sub.status, sub.text).toBe(200);
    const reverted = await chain.sendUnchecked(
      route,
      chain.artifact('TestSwapRoute').abi,
      'swap',
      [USDG.address, NVDA, parseUnits('35', 6), parseUnits('1000000', 18)],
      STRANGER,
    );
    expect(reverted.status).toBe('reverted');
    partner.setJob(sub.json.jobId, { statuses: ['failed'], reads: 0, error: `reverted in ${reverted.transactionHash}` });
    const first = await reconcile(plan.planHash, reverted.transactionHash);
    expect(first.json.receipt).toMatchObject({ status: 'onchain_reverted', proofBinding: 'partner_job' });

    const claim = await reconcile(plan.planHash, await trade(STRANGER, '35'));
    expect(claim.status, claim.text).toBe(200);
    expect(claim.json.receipt).toMatchObject({ status: 'onchain_reverted', txHash: reverted.transactionHash, proofBinding: 'partner_job' });
    expect(claim.json.reconciliation.reason).toBe('PROOF_HELD_BY_STRONGER_BINDING');
  });
});

describe('an anonymous plan (interface 3.1)', () => {
  it('moves on a matching trade as the state table says, and the receipt says the proof is a match by token, amount and time, not tied to who traded', async () => {
    const plan = await prepare('36');
    expect(await receiptOf(plan.planHash)).toMatchObject({ executorKnown: false, executors: [] });
    const res = await reconcile(plan.planHash, await trade(STRANGER, '36'));
    expect(res.json.receipt).toMatchObject({ status: 'onchain_confirmed', proofBinding: 'caller_claim', executorKnown: false });
    expect(res.json.receipt.proofBindingMeaning).toMatch(/match by token, amount and time, not tied to who traded/);
    expect(res.json.reconciliation.proofChecks.map((c: { check: string }) => c.check)).not.toContain('sent_by_executor');
  });
});
