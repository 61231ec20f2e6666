/**
 * Stock receipt reconciliation against the real local chain 4663 (interface 3.1, 4.5; the proof
 * rule, docs/proof-rule.md). A transaction proves a plan only when it is that plan's trade:
 * mined after the plan was first prepared here, its sender spent the plan's USDG within its
 * slippage (a dust swap proves nothing) and received the target token (a test swap route,
 * tests/support/chain/contracts/TestSwapRoute.sol, makes such trades), and no other subject
 * holds it (a unique key in the database; also on PostgreSQL), unless the plan's own partner
 * job names it and another plan holds it on a caller's claim. A stranger's transfer proves
 * nothing; a revert marks a plan only when it is tied to it. An unknown hash proves nothing, an
 * RPC of another chain is not trusted, an unreachable RPC changes nothing, and on-chain proof
 * is never undone by a later job poll. Every stored time is the server's clock. Persistence of
 * receipts, their history and the one-job rule across a restart.
 */
import { parseUnits, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { openTestDb, type TestDb } from '../support/db';
import { startFakePartner, type FakePartner } from '../support/fake-partner';
import { startFakeRpc, type FakeRpc } from '../support/fake-rpc';
import { freePort, secretMarker, startServer, type TestServer } from '../support/server';
import { AAPL, freshNowIso, intent, NVDA } from '../support/stock-intents';

const PREPARE = '/api/stocks/prepare-partner-command';
const RECONCILE = '/api/stocks/reconcile-receipt';
const apiKey = secretMarker('partner');
const TRADER = 4; // the account that trades through the route (stands for the partner's wallet)
const STRANGER = 5;

let chain: LocalChain;
let partner: FakePartner;
let otherChainRpc: FakeRpc;
let main: TestServer; // RPC = the local chain 4663
let wrongChain: TestServer; // RPC answers eth_chainId 0x1
let unreachable: TestServer; // RPC address where nothing listens
let noRpc: TestServer; // BROKER_CHAIN_RPC_URL unset
let db: TestDb; // main's database
let route: Address;
const extra: TestServer[] = [];
let mainEnv: Record<string, string>;

beforeAll(async () => {
  [chain, partner, otherChainRpc] = await Promise.all([startLocalChain(), startFakePartner({ apiKey }), startFakeRpc('0x1')]);
  const lane = { PARTNER_API_URL: partner.url, PARTNER_API_KEY: apiKey, PARTNER_AGENT_API_ENABLED: 'true', PARTNER_TIMEOUT_MS: '3000' };
  const closedPort = await freePort();
  mainEnv = { ...lane, BROKER_CHAIN_RPC_URL: chain.rpcUrl };
  [main, wrongChain, unreachable, noRpc] = await Promise.all([
    startServer({ env: mainEnv }),
    startServer({ env: { ...lane, BROKER_CHAIN_RPC_URL: otherChainRpc.url } }),
    startServer({ env: { ...lane, BROKER_CHAIN_RPC_URL: `http://127.0.0.1:${closedPort}/${secretMarker('rpc')}` } }),
    startServer({ env: lane }),
  ]);
  db = openTestDb(main.databaseUrl);

  // The route holds stock tokens to pay out; the trader holds USDG and lets the route take it.
  route = await chain.deploy('TestSwapRoute');
  for (const token of [NVDA, AAPL]) await chain.send(token as Address, tokenAbi(), 'mint', [route, parseUnits('1000', 18)]);
  await chain.send(USDG.address as Address, usdgAbi(), 'mint', [chain.accounts[TRADER]!.address, parseUnits('100000', 6)]);
  await chain.send(USDG.address as Address, usdgAbi(), 'approve', [route, 2n ** 255n], TRADER);
});
afterAll(async () => {
  await db?.$disconnect();
  await Promise.all([main?.stop(), wrongChain?.stop(), unreachable?.stop(), noRpc?.stop(), ...extra.map((s) => s.stop())]);
  await Promise.all([chain?.stop(), partner?.stop(), otherChainRpc?.stop()]);
});

const tokenAbi = () => chain.artifact('TestToken').abi;
const usdgAbi = () => chain.artifact('TestUSDG').abi;
const routeAbi = () => chain.artifact('TestSwapRoute').abi;

/** The trader pays `usdg` USDG through the route and receives `out` of the target token in one transaction. */
async function trade(opts: { usdg?: string; out?: string; target?: string } = {}) {
  const receipt = await chain.send(
    route,
    routeAbi(),
    'swap',
    [USDG.address, opts.target ?? NVDA, parseUnits(opts.usdg ?? '25', 6), parseUnits(opts.out ?? '0.15', 18)],
    TRADER,
  );
  expect(receipt.status).toBe('success');
  return receipt;
}

/** The plan's own route call with the plan's parameters, mined with status 0x0 (the route cannot pay out). */
async function revertedTrade(usdg = '25') {
  const receipt = await chain.sendUnchecked(
    route,
    routeAbi(),
    'swap',
    [USDG.address, NVDA, parseUnits(usdg, 6), parseUnits('1000000', 18)],
    TRADER,
  );
  expect(receipt.status).toBe('reverted');
  return receipt;
}

/** A stranger sends some of a stock token to another stranger: it spends no USDG. */
async function strangerTransfer(token: string, amount = '0.001') {
  await chain.send(token as Address, tokenAbi(), 'mint', [chain.accounts[STRANGER]!.address, parseUnits('10', 18)]);
  const receipt = await chain.send(
    token as Address,
    tokenAbi(),
    'transfer',
    [chain.accounts[1]!.address, parseUnits(amount, 18)],
    STRANGER,
  );
  expect(receipt.status).toBe('success');
  return receipt;
}

/** A stranger's transfer from an empty account, mined with status 0x0. */
async function revertedTransfer(token: string) {
  const receipt = await chain.sendUnchecked(
    token as Address,
    tokenAbi(),
    'transfer',
    [chain.accounts[1]!.address, parseUnits('1000000', 18)],
    7,
  );
  expect(receipt.status).toBe('reverted');
  return receipt;
}

async function prepared(server: TestServer, overrides: Record<string, unknown> = {}) {
  const body = intent(overrides);
  const prep = await server.post(PREPARE, { intent: body, nowIso: freshNowIso() });
  expect(prep.status, prep.text).toBe(200);
  return { planHash: prep.json.planHash as string, intent: body, generatedAt: prep.json.generatedAt as string };
}

/** Prepares a plan and hands it to the (fake) partner: the receipt is `job_pending`. */
async function submitted(server: TestServer, overrides: Record<string, unknown> = {}) {
  const plan = await prepared(server, overrides);
  const sub = await server.post('/api/stocks/submit-partner-intent', {
    intent: plan.intent,
    userConfirmedPlanHash: plan.planHash,
    nowIso: plan.generatedAt,
  });
  expect(sub.status, sub.text).toBe(200);
  return { ...plan, jobId: sub.json.jobId as string };
}

function randomHash(): Hex {
  return `0x${Array.from({ length: 64 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}` as Hex;
}

const passedChecks = (res: { json: { reconciliation: { proofChecks: Array<{ check: string; passed: boolean }> } } }) =>
  res.json.reconciliation.proofChecks.filter((c) => c.passed).map((c) => c.check);
const failedCheck = (res: { json: { reconciliation: { proofChecks: Array<{ check: string; passed: boolean }> } } }) =>
  res.json.reconciliation.proofChecks.find((c) => !c.passed)?.check;

describe("a transaction proves a plan only when it is that plan's trade", () => {
  it("a matching trade (the sender spent the plan's USDG within its slippage and received the target) moves the receipt to onchain_confirmed with its block", async () => {
    const plan = await submitted(main);
    const tx = await trade({ usdg: '24.8' });
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({
      status: 'onchain_confirmed',
      txHash: tx.transactionHash,
      blockNumber: tx.blockNumber.toString(),
      jobId: plan.jobId,
      chainId: 4663,
      statusReason: null,
    });
    expect(res.json.reconciliation).toMatchObject({
      source: 'chain',
      previousStatus: 'job_pending',
      moved: true,
      chainIdVerified: true,
      reason: null,
      senderFlows: {
        sender: chain.accounts[TRADER]!.address,
        targetDelta: parseUnits('0.15', 18).toString(),
        usdgDelta: (-parseUnits('24.8', 6)).toString(),
      },
    });
    expect(passedChecks(res)).toEqual([
      'mined_after_first_sight',
      'not_proof_of_other_subject',
      'moves_target_token',
      'target_leg_by_sender',
      'usdg_leg_by_sender',
      'amount_within_band',
    ]);
    const last = res.json.receipt.history.at(-1);
    expect(last).toMatchObject({
      trigger: 'reconcile',
      fromStatus: 'job_pending',
      toStatus: 'onchain_confirmed',
      txHash: tx.transactionHash,
      blockNumber: tx.blockNumber.toString(),
      chainId: 4663,
    });
    expect(res.text).not.toContain(new URL(chain.rpcUrl).pathname);
  });

  it("a stranger's 0.001 NVDA transfer proves nothing for two unrelated plans, submitted or not", async () => {
    const never = await prepared(main, { inputAmount: '10' });
    const other = await submitted(main, { inputAmount: '12' });
    const tx = await strangerTransfer(NVDA);
    for (const plan of [never, other]) {
      const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash });
      expect(res.status, res.text).toBe(200);
      expect(res.json.receipt).toMatchObject({ status: 'prepared', txHash: null, blockNumber: null });
      expect(res.json.reconciliation).toMatchObject({ reason: 'SENDER_DID_NOT_RECEIVE_TARGET', chainIdVerified: true });
      expect(failedCheck(res)).toBe('target_leg_by_sender');
    }
    expect((await main.get(`/api/stocks/receipts/${other.planHash}`)).json.receipt.jobId).toBe(other.jobId);
  });

  it('a successful transaction that moved another token is no proof of this plan', async () => {
    const plan = await submitted(main);
    const otherToken = await trade({ target: AAPL });
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: otherToken.transactionHash });
    expect(res.status).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'prepared', statusReason: 'TX_NOT_FOR_TARGET_TOKEN', txHash: null });
    expect(failedCheck(res)).toBe('moves_target_token');
  });

  it("an over-spend proves nothing: more USDG than the plan's inputAmount", async () => {
    const plan = await submitted(main);
    const larger = await prepared(main, { inputAmount: '25.2' });
    const tx = await trade({ usdg: '25.000001' });
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash });
    expect(res.status).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'prepared', statusReason: 'USDG_SPENT_ABOVE_PLAN', txHash: null });
    expect(failedCheck(res)).toBe('amount_within_band');
    // The same trade is within the band of a larger plan, which it then proves.
    expect((await main.post(RECONCILE, { planHash: larger.planHash, txHash: tx.transactionHash })).json.receipt.status).toBe(
      'onchain_confirmed',
    );
  });

  it('a trade mined before the plan was first prepared here proves nothing, whatever nowIso says', async () => {
    const tx = await trade();
    const block = await chain.publicClient.getBlock({ blockNumber: tx.blockNumber });
    const plan = await prepared(main);
    // The chain's clock may run ahead of the server's; place the plan's first prepare (a
    // server-clock fact stored with the plan) a minute after the trade's block.
    await db.stockReceipt.update({
      where: { planHash: plan.planHash },
      data: { firstPreparedAt: new Date(Number(block.timestamp) * 1000 + 60_000) },
    });
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash, nowIso: '2020-01-01T00:00:00Z' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'prepared', txHash: null });
    expect(res.json.reconciliation).toMatchObject({ reason: 'TX_MINED_BEFORE_PLAN', moved: false });
    expect(res.json.reconciliation.proofChecks).toEqual([{ check: 'mined_after_first_sight', passed: false }]);
  });

  it('@persistence one transaction proves one plan: the same trade presented for a second plan is refused, and the database itself refuses a second holder', async () => {
    const first = await submitted(main, { inputAmount: '30' });
    const second = await submitted(main, { inputAmount: '30' });
    const tx = await trade({ usdg: '29.9' });
    expect((await main.post(RECONCILE, { planHash: first.planHash, txHash: tx.transactionHash })).json.receipt.status).toBe(
      'onchain_confirmed',
    );
    const again = await main.post(RECONCILE, { planHash: second.planHash, txHash: tx.transactionHash });
    expect(again.status).toBe(200);
    expect(again.json.receipt).toMatchObject({ status: 'prepared', statusReason: 'TX_PROVES_OTHER_PLAN', txHash: null });
    expect(failedCheck(again)).toBe('not_proof_of_other_subject');
    // The plan that holds it is unchanged, and reconciling by the hash alone finds that plan.
    expect((await main.post(RECONCILE, { txHash: tx.transactionHash })).json.receipt).toMatchObject({
      planHash: first.planHash,
      status: 'onchain_confirmed',
    });
    await expect(db.stockReceipt.update({ where: { planHash: second.planHash }, data: { txHash: tx.transactionHash } })).rejects.toThrow();
    // The proof binding is keyed by the transaction: no second subject, of any lane, can hold it.
    const secondId = (await db.stockReceipt.findUniqueOrThrow({ where: { planHash: second.planHash } })).id;
    await expect(
      db.proofBinding.create({
        data: { txHash: tx.transactionHash, binding: 'partner_job', stockReceiptId: secondId, boundAt: new Date() },
      }),
    ).rejects.toThrow();
  });

  it('@persistence a race of reconciliations of one trade for several plans leaves exactly one winner', async () => {
    const plans = await Promise.all(Array.from({ length: 4 }, () => submitted(main, { inputAmount: '31' })));
    const tx = await trade({ usdg: '31' });
    const answers = await Promise.all(plans.map((p) => main.post(RECONCILE, { planHash: p.planHash, txHash: tx.transactionHash })));
    for (const res of answers) expect(res.status, res.text).toBe(200);
    const statuses = answers.map((r) => r.json.receipt.status);
    expect(statuses.filter((s) => s === 'onchain_confirmed')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'prepared')).toHaveLength(3);
    for (const res of answers.filter((r) => r.json.receipt.status === 'prepared'))
      expect(res.json.reconciliation.reason).toBe('TX_PROVES_OTHER_PLAN');
    expect(await db.stockReceipt.count({ where: { txHash: tx.transactionHash } })).toBe(1);
  });
});

describe("the proof rule's amount band and binding strength (issue 21, item 1)", () => {
  it('a dust swap of the right token (1 micro-USDG for 1 base unit of NVDA) does not confirm a 25 USDG plan that was never submitted', async () => {
    const plan = await prepared(main);
    const dust = await chain.send(route, routeAbi(), 'swap', [USDG.address, NVDA, 1n, 1n], TRADER);
    expect(dust.status).toBe('success');
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: dust.transactionHash });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'prepared', txHash: null, proofBinding: null });
    expect(res.json.reconciliation).toMatchObject({
      reason: 'USDG_SPENT_BELOW_PLAN',
      moved: false,
      senderFlows: { targetDelta: '1', usdgDelta: '-1' },
    });
    expect(failedCheck(res)).toBe('amount_within_band');
    // Nothing holds the dust swap: it stays free for a plan whose band it fits.
    expect(await db.proofBinding.count({ where: { txHash: dust.transactionHash } })).toBe(0);
  });

  it("@persistence a victim's trade attached first to an attacker's plan is taken back once the victim's own partner job names it", async () => {
    const attacker = await prepared(main, { inputAmount: '27' });
    const victim = await submitted(main, { inputAmount: '27' });
    const tx = await trade({ usdg: '27' });

    const claimed = await main.post(RECONCILE, { planHash: attacker.planHash, txHash: tx.transactionHash });
    expect(claimed.json.receipt).toMatchObject({ status: 'onchain_confirmed', txHash: tx.transactionHash, proofBinding: 'caller_claim' });

    // Before the partner names it, the victim's claim is only a caller's claim too: the first holder keeps it.
    const early = await main.post(RECONCILE, { planHash: victim.planHash, txHash: tx.transactionHash });
    expect(early.json.receipt).toMatchObject({ status: 'prepared', statusReason: 'TX_PROVES_OTHER_PLAN', txHash: null });

    partner.setJob(victim.jobId, { statuses: ['completed'], reads: 0, response: `Bought NVDA on broker: ${tx.transactionHash}` });
    const res = await main.post(RECONCILE, { planHash: victim.planHash, txHash: tx.transactionHash });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'onchain_confirmed', txHash: tx.transactionHash, proofBinding: 'partner_job' });
    expect(passedChecks(res)).toContain('not_proof_of_other_subject');

    const lost = (await main.get(`/api/stocks/receipts/${attacker.planHash}`)).json.receipt;
    expect(lost).toMatchObject({ status: 'prepared', statusReason: 'TX_CLAIMED_BY_PARTNER_JOB', txHash: null, proofBinding: null });
    expect(lost.history.at(-1)).toMatchObject({ fromStatus: 'onchain_confirmed', toStatus: 'prepared', txHash: tx.transactionHash });

    // The attacker cannot take it back: a caller's claim never outranks a partner job.
    const again = await main.post(RECONCILE, { planHash: attacker.planHash, txHash: tx.transactionHash });
    expect(again.json.receipt).toMatchObject({ status: 'prepared', txHash: null });
    expect(again.json.reconciliation.reason).toBe('TX_PROVES_OTHER_PLAN');
    expect(failedCheck(again)).toBe('not_proof_of_other_subject');
    expect(await db.proofBinding.findUnique({ where: { txHash: tx.transactionHash } })).toMatchObject({ binding: 'partner_job' });
  });

  it("a stranger's matching trade attached to the victim's own plan gives way to the trade its partner job names", async () => {
    const victim = await submitted(main, { inputAmount: '28' });
    const decoy = await trade({ usdg: '28' });
    expect((await main.post(RECONCILE, { planHash: victim.planHash, txHash: decoy.transactionHash })).json.receipt).toMatchObject({
      status: 'onchain_confirmed',
      txHash: decoy.transactionHash,
      proofBinding: 'caller_claim',
    });
    const own = await trade({ usdg: '28' });
    partner.setJob(victim.jobId, { statuses: ['completed'], reads: 0, response: `Done: ${own.transactionHash}` });
    const res = await main.post(RECONCILE, { planHash: victim.planHash, txHash: own.transactionHash });
    expect(res.json.receipt).toMatchObject({ status: 'onchain_confirmed', txHash: own.transactionHash, proofBinding: 'partner_job' });
    // The decoy is free again.
    expect(await db.proofBinding.count({ where: { txHash: decoy.transactionHash } })).toBe(0);
  });
});

describe('the stock lane stores the server clock, never nowIso (issue 21, item 4)', () => {
  it("createdAt, updatedAt and every history event's at, the onchain_confirmed move included, are the server's time; the answers keep nowIso", async () => {
    const nowIso = new Date(Date.UTC(2020, 0, 1) + Math.floor(Math.random() * 1e9)).toISOString();
    const notBefore = Date.now() - 1000;
    const body = intent({ inputAmount: '26.5' });
    const prep = await main.post(PREPARE, { intent: body, nowIso });
    expect(prep.status, prep.text).toBe(200);
    expect(prep.json.generatedAt).toBe(nowIso);
    const planHash = prep.json.planHash as string;
    const sub = await main.post('/api/stocks/submit-partner-intent', { intent: body, userConfirmedPlanHash: planHash, nowIso });
    expect(sub.status, sub.text).toBe(200);
    const poll = await main.get(`/api/stocks/partner-job/${sub.json.jobId}?nowIso=${encodeURIComponent(nowIso)}`);
    expect(poll.status, poll.text).toBe(200);
    expect(poll.json.polledAt).toBe(nowIso);
    const tx = await trade({ usdg: '26.5' });
    const res = await main.post(RECONCILE, { planHash, txHash: tx.transactionHash, nowIso });
    expect(res.json.receipt.status).toBe('onchain_confirmed');
    expect(res.json.reconciliation.checkedAt).toBe(nowIso);

    const stored = await db.stockReceipt.findUniqueOrThrow({ where: { planHash }, include: { events: true } });
    const rowTimes = [stored.createdAt, stored.updatedAt, stored.firstPreparedAt, ...stored.events.map((e) => e.at)];
    expect(stored.events.map((e) => e.toStatus)).toContain('onchain_confirmed');
    for (const at of rowTimes) expect(at.getTime()).toBeGreaterThanOrEqual(notBefore);
    const shown = res.json.receipt;
    for (const at of [shown.updatedAt, ...shown.history.map((h: { at: string }) => h.at)])
      expect(Date.parse(at)).toBeGreaterThanOrEqual(notBefore);
  });
});

describe('a reverted transaction marks a plan onchain_reverted only when it is tied to it', () => {
  it("a reverted AAPL transfer does not revert an NVDA plan, nor does a stranger's reverted NVDA transfer", async () => {
    const plan = await submitted(main);
    for (const tx of [await revertedTransfer(AAPL), await revertedTransfer(NVDA)]) {
      const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash });
      expect(res.status, res.text).toBe(200);
      expect(res.json.receipt).toMatchObject({ status: 'prepared', statusReason: 'REVERTED_TX_NOT_TIED_TO_PLAN', txHash: null });
      expect(failedCheck(res)).toBe('tied_to_subject');
    }
  });

  it("the plan's own route call with the plan's parameters, reverted, moves it to onchain_reverted; another amount does not", async () => {
    const plan = await submitted(main);
    const otherAmount = await revertedTrade('24');
    expect((await main.post(RECONCILE, { planHash: plan.planHash, txHash: otherAmount.transactionHash })).json.receipt.statusReason).toBe(
      'REVERTED_TX_NOT_TIED_TO_PLAN',
    );
    const tx = await revertedTrade('25');
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({
      status: 'onchain_reverted',
      txHash: tx.transactionHash,
      blockNumber: tx.blockNumber.toString(),
    });
    expect(res.json.receipt.statusMeaning).toMatch(/0x0/);
  });

  it("a revert the partner's answer for the plan's own job names is tied to that plan, and to no other", async () => {
    const plan = await submitted(main);
    const other = await submitted(main);
    const tx = await revertedTransfer(NVDA);
    partner.setJob(plan.jobId, {
      statuses: ['failed'],
      reads: 0,
      error: `The swap on broker reverted in transaction ${tx.transactionHash}.`,
    });
    const notTheirs = await main.post(RECONCILE, { planHash: other.planHash, txHash: tx.transactionHash });
    expect(notTheirs.json.receipt).toMatchObject({ status: 'prepared', statusReason: 'REVERTED_TX_NOT_TIED_TO_PLAN' });
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'onchain_reverted', txHash: tx.transactionHash });
    expect(res.json.reconciliation.proofChecks.at(-1)).toEqual({ check: 'tied_to_subject', passed: true });
    expect(res.json.receipt.proofBinding).toBe('partner_job');
    expect(res.text).not.toContain('The swap on broker reverted');
  });
});

describe('POST /api/stocks/reconcile-receipt on chain 4663', () => {
  it('finds the receipt by jobId alone, and a hash in upper case is the same transaction', async () => {
    const plan = await submitted(main);
    const tx = await trade();
    const res = await main.post(RECONCILE, { jobId: plan.jobId, txHash: `0x${tx.transactionHash.slice(2).toUpperCase()}` });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ planHash: plan.planHash, status: 'onchain_confirmed', txHash: tx.transactionHash });
  });

  it('an unknown hash proves nothing: the receipt returns to prepared with the reason', async () => {
    const plan = await submitted(main);
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: randomHash() });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({
      status: 'prepared',
      statusReason: 'TX_RECEIPT_NOT_FOUND',
      txHash: null,
      blockNumber: null,
      jobId: plan.jobId,
    });
    expect(res.json.reconciliation).toMatchObject({
      moved: true,
      previousStatus: 'job_pending',
      reason: 'TX_RECEIPT_NOT_FOUND',
      chainIdVerified: true,
      proofChecks: [],
    });
  });

  it('onchain_confirmed never moves backwards on later job polls or reconciliations without new proof', async () => {
    const plan = await submitted(main);
    const tx = await trade();
    expect((await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash })).json.receipt.status).toBe(
      'onchain_confirmed',
    );

    for (const partnerStatus of ['failed', 'pending', 'cancelled', 'completed'] as const) {
      partner.setJob(plan.jobId, { statuses: [partnerStatus], reads: 0 });
      const poll = await main.get(`/api/stocks/partner-job/${plan.jobId}`);
      expect(poll.status, poll.text).toBe(200);
      expect(poll.json).toMatchObject({
        partnerJobStatus: partnerStatus,
        receiptStatus: 'onchain_confirmed',
        statusKeptReason: 'ONCHAIN_PROOF_KEPT',
      });
      expect(poll.json.receipt).toMatchObject({ status: 'onchain_confirmed', txHash: tx.transactionHash, partnerJobStatus: partnerStatus });
    }

    const unknown = await main.post(RECONCILE, { planHash: plan.planHash, txHash: randomHash() });
    expect(unknown.json.receipt.status).toBe('onchain_confirmed');
    expect(unknown.json.reconciliation).toMatchObject({ moved: false, reason: 'ALREADY_CONFIRMED_BY_OTHER_TX' });

    const viaJob = await main.post(RECONCILE, { planHash: plan.planHash });
    expect(viaJob.json.receipt.status).toBe('onchain_confirmed');
    expect(viaJob.json.reconciliation).toMatchObject({ source: 'partner_job', moved: false, reason: 'ONCHAIN_PROOF_KEPT' });

    const reverted = await revertedTrade();
    const otherRevert = await main.post(RECONCILE, { planHash: plan.planHash, txHash: reverted.transactionHash });
    expect(otherRevert.json.receipt.status).toBe('onchain_confirmed');

    const sameAgain = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash });
    expect(sameAgain.json.reconciliation).toMatchObject({ moved: false, reason: null });
    const history = sameAgain.json.receipt.history as Array<{ toStatus: string; trigger: string }>;
    expect(history.filter((h) => h.toStatus === 'onchain_confirmed' && h.trigger === 'reconcile')).toHaveLength(1);
    expect(
      history.slice(history.findIndex((h) => h.toStatus === 'onchain_confirmed')).every((h) => h.toStatus === 'onchain_confirmed'),
    ).toBe(true);
  });

  it('new on-chain proof does move a receipt: a later matching trade supersedes a tied revert', async () => {
    const plan = await submitted(main);
    const first = await revertedTrade();
    expect((await main.post(RECONCILE, { planHash: plan.planHash, txHash: first.transactionHash })).json.receipt.status).toBe(
      'onchain_reverted',
    );
    partner.setJob(plan.jobId, { statuses: ['completed'], reads: 0 });
    expect((await main.get(`/api/stocks/partner-job/${plan.jobId}`)).json.receiptStatus).toBe('onchain_reverted');
    const stranger = await strangerTransfer(NVDA);
    const kept = await main.post(RECONCILE, { planHash: plan.planHash, txHash: stranger.transactionHash });
    expect(kept.json.receipt).toMatchObject({ status: 'onchain_reverted', txHash: first.transactionHash });
    expect(kept.json.reconciliation.reason).toBe('SENDER_DID_NOT_RECEIVE_TARGET');
    const retry = await trade();
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: retry.transactionHash });
    expect(res.json.receipt).toMatchObject({ status: 'onchain_confirmed', txHash: retry.transactionHash });
  });

  it('a plan already proven on chain without a job is not submitted to the partner (409 RECEIPT_NOT_SUBMITTABLE)', async () => {
    const plan = await prepared(main, { inputAmount: '41' });
    const tx = await trade({ usdg: '41' });
    expect((await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash })).json.receipt.status).toBe(
      'onchain_confirmed',
    );
    const before = partner.submissions().length;
    const res = await main.post('/api/stocks/submit-partner-intent', {
      intent: plan.intent,
      userConfirmedPlanHash: plan.planHash,
      nowIso: plan.generatedAt,
    });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('RECEIPT_NOT_SUBMITTABLE');
    expect(partner.submissions().length).toBe(before);
  });

  it('without a txHash it reads the recorded partner job; a completed job stays unconfirmed', async () => {
    const plan = await submitted(main);
    partner.setJob(plan.jobId, { statuses: ['completed'], reads: 0 });
    const res = await main.post(RECONCILE, { jobId: plan.jobId });
    expect(res.status).toBe(200);
    expect(res.json.receipt.status).toBe('job_completed_unconfirmed');
    expect(res.json.reconciliation).toMatchObject({ source: 'partner_job', moved: true, chainIdVerified: null });
    partner.failNextJobRead({ kind: 'status', status: 502 });
    const failed = await main.post(RECONCILE, { jobId: plan.jobId });
    expect(failed.status).toBe(200);
    expect(failed.json.reconciliation).toMatchObject({
      moved: false,
      reason: 'PARTNER_JOB_READ_FAILED',
      partnerErrorCode: 'PARTNER_HTTP_ERROR',
    });
    expect(failed.json.receipt.status).toBe('job_completed_unconfirmed');
  });

  it('with neither a txHash nor a job, no proof is obtained and the receipt stays prepared', async () => {
    const plan = await prepared(main);
    const res = await main.post(RECONCILE, { planHash: plan.planHash });
    expect(res.status).toBe(200);
    expect(res.json.receipt.status).toBe('prepared');
    expect(res.json.reconciliation).toMatchObject({ source: 'none', moved: false, reason: 'NO_PROOF_SUPPLIED' });
  });

  it('refuses to guess the receipt: 400 without a reference, 404 for an unknown one, 409 when planHash and jobId disagree', async () => {
    const none = await main.post(RECONCILE, {});
    expect(none.status).toBe(400);
    expect(none.json.error.code).toBe('RECONCILE_REFERENCE_REQUIRED');
    const unknown = await main.post(RECONCILE, { planHash: 'ab'.repeat(32), txHash: randomHash() });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('STOCK_RECEIPT_UNKNOWN');
    const unrecordedTx = await main.post(RECONCILE, { txHash: randomHash() });
    expect(unrecordedTx.status).toBe(404);
    const a = await submitted(main);
    const b = await submitted(main);
    const mismatch = await main.post(RECONCILE, { planHash: a.planHash, jobId: b.jobId });
    expect(mismatch.status).toBe(409);
    expect(mismatch.json.error.code).toBe('RECEIPT_REFERENCE_MISMATCH');
    const malformed = await main.post(RECONCILE, { planHash: a.planHash, txHash: '0x1234' });
    expect(malformed.status).toBe(400);
  });
});

describe('reconciliation does not trust what it cannot verify', () => {
  it('an RPC serving another chain id is not trusted: eth_getTransactionReceipt is never asked and nothing moves', async () => {
    const plan = await submitted(wrongChain);
    const before = otherChainRpc.methods.length;
    const res = await wrongChain.post(RECONCILE, { planHash: plan.planHash, txHash: randomHash() });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'job_pending', txHash: null });
    expect(res.json.reconciliation).toMatchObject({
      moved: false,
      reason: 'CHAIN_ID_MISMATCH',
      chainIdVerified: false,
      expectedChainId: 4663,
    });
    const asked = otherChainRpc.methods.slice(before);
    expect(asked).toContain('eth_chainId');
    expect(asked).not.toContain('eth_getTransactionReceipt');
    expect(res.text).not.toContain(otherChainRpc.url);
    expect((await wrongChain.get(`/api/stocks/receipts/${plan.planHash}`)).json.receipt.history).toHaveLength(2);
  });

  it('an unreachable RPC leaves the receipt unchanged and says why', async () => {
    const plan = await submitted(unreachable);
    const res = await unreachable.post(RECONCILE, { planHash: plan.planHash, txHash: randomHash() });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt.status).toBe('job_pending');
    expect(res.json.reconciliation).toMatchObject({ moved: false, reason: 'CHAIN_RPC_UNREACHABLE', chainIdVerified: false });
    expect(res.json.reconciliation.reasonMeaning).toMatch(/unchanged/);
  });

  it('no configured RPC leaves the receipt unchanged and says so', async () => {
    const plan = await submitted(noRpc);
    const res = await noRpc.post(RECONCILE, { planHash: plan.planHash, txHash: randomHash() });
    expect(res.status).toBe(200);
    expect(res.json.receipt.status).toBe('job_pending');
    expect(res.json.reconciliation).toMatchObject({ moved: false, reason: 'CHAIN_RPC_NOT_CONFIGURED' });
    expect((await noRpc.get('/api/stocks/partner-status')).json.chainReconcileConfigured).toBe(false);
  });
});

describe('@persistence', () => {
  it('@persistence stock receipts, their proofs and the one-job rule survive a restart', async () => {
    const first = await startServer({ env: mainEnv });
    const plan = await submitted(first, { inputAmount: '42' });
    const tx = await trade({ usdg: '42' });
    expect((await first.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash })).json.receipt.status).toBe(
      'onchain_confirmed',
    );
    const before = (await first.get(`/api/stocks/receipts/${plan.planHash}`)).json.receipt;
    await first.stop({ keepData: true });

    const again = await startServer({ databaseUrl: first.databaseUrl, env: mainEnv });
    again.adoptDataOf(first);
    extra.push(again);
    const after = (await again.get(`/api/stocks/receipts/${plan.planHash}`)).json.receipt;
    expect(after).toEqual(before);
    expect(after).toMatchObject({
      status: 'onchain_confirmed',
      jobId: plan.jobId,
      txHash: tx.transactionHash,
      blockNumber: tx.blockNumber.toString(),
    });
    expect(after.history.map((h: { toStatus: string }) => h.toStatus)).toEqual(['prepared', 'job_pending', 'onchain_confirmed']);

    const submissionsBefore = partner.submissions().length;
    const resubmit = await again.post('/api/stocks/submit-partner-intent', {
      intent: plan.intent,
      userConfirmedPlanHash: plan.planHash,
      nowIso: plan.generatedAt,
    });
    expect(resubmit.status).toBe(200);
    expect(resubmit.json).toMatchObject({ jobId: plan.jobId, replayed: true, receiptStatus: 'onchain_confirmed' });
    expect(partner.submissions().length).toBe(submissionsBefore);

    partner.setJob(plan.jobId, { statuses: ['failed'], reads: 0 });
    const poll = await again.get(`/api/stocks/partner-job/${plan.jobId}`);
    expect(poll.json.receiptStatus).toBe('onchain_confirmed');
  });
});
