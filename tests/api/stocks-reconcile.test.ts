/**
 * Stock receipt reconciliation against the real local chain 4663 (spec 3.1, 4.5): a real
 * stock-token transfer proves `onchain_confirmed`, a mined revert proves `onchain_reverted`,
 * an unknown hash proves nothing, an RPC of another chain is not trusted, an unreachable RPC
 * changes nothing, and on-chain proof is never undone by a later job poll. Persistence of
 * receipts, their history and the one-job rule across a restart.
 */
import { parseUnits, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { startFakePartner, type FakePartner } from '../support/fake-partner';
import { startFakeRpc, type FakeRpc } from '../support/fake-rpc';
import { freePort, secretMarker, startServer, type TestServer } from '../support/server';
import { AAPL, freshNowIso, intent, NVDA } from '../support/stock-intents';

const RECONCILE = '/api/stocks/reconcile-receipt';
const apiKey = secretMarker('partner');

let chain: LocalChain;
let partner: FakePartner;
let otherChainRpc: FakeRpc;
let main: TestServer; // RPC = the local chain 4663
let wrongChain: TestServer; // RPC answers eth_chainId 0x1
let unreachable: TestServer; // RPC address where nothing listens
let noRpc: TestServer; // BROKER_CHAIN_RPC_URL unset
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
});
afterAll(async () => {
  await Promise.all([main?.stop(), wrongChain?.stop(), unreachable?.stop(), noRpc?.stop(), ...extra.map((s) => s.stop())]);
  await Promise.all([chain?.stop(), partner?.stop(), otherChainRpc?.stop()]);
});

const tokenAbi = () => chain.artifact('TestToken').abi;

/** A real transfer of a stock token on the local chain; returns its mined receipt. */
async function transferStockToken(token: string, amount = '2') {
  const [a, b] = chain.accounts;
  await chain.send(token as Address, tokenAbi(), 'mint', [a!.address, parseUnits('10', 18)]);
  const receipt = await chain.send(token as Address, tokenAbi(), 'transfer', [b!.address, parseUnits(amount, 18)]);
  expect(receipt.status).toBe('success');
  return receipt;
}

/** A transfer from an empty account, mined with status 0x0. */
async function revertedTransfer(token: string) {
  const receipt = await chain.sendUnchecked(token as Address, tokenAbi(), 'transfer', [chain.accounts[1]!.address, parseUnits('1000000', 18)], 7);
  expect(receipt.status).toBe('reverted');
  return receipt;
}

/** Prepares a plan and hands it to the (fake) partner: the receipt is `job_pending`. */
async function submitted(server: TestServer, overrides: Record<string, unknown> = {}) {
  const body = intent(overrides);
  const prep = await server.post('/api/stocks/prepare-partner-command', { intent: body, nowIso: freshNowIso() });
  expect(prep.status, prep.text).toBe(200);
  const sub = await server.post('/api/stocks/submit-partner-intent', { intent: body, userConfirmedPlanHash: prep.json.planHash, nowIso: prep.json.generatedAt });
  expect(sub.status, sub.text).toBe(200);
  return { planHash: prep.json.planHash as string, jobId: sub.json.jobId as string, intent: body, generatedAt: prep.json.generatedAt as string };
}

function randomHash(): Hex {
  return `0x${Array.from({ length: 64 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}` as Hex;
}

describe('POST /api/stocks/reconcile-receipt on chain 4663', () => {
  it('a real stock-token transfer hash moves the receipt to onchain_confirmed with its block', async () => {
    const plan = await submitted(main);
    const tx = await transferStockToken(NVDA);
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
    expect(res.json.reconciliation).toMatchObject({ source: 'chain', previousStatus: 'job_pending', moved: true, chainIdVerified: true, reason: null });
    const last = res.json.receipt.history.at(-1);
    expect(last).toMatchObject({ trigger: 'reconcile', fromStatus: 'job_pending', toStatus: 'onchain_confirmed', txHash: tx.transactionHash, blockNumber: tx.blockNumber.toString(), chainId: 4663 });
    expect(res.text).not.toContain(new URL(chain.rpcUrl).pathname);
  });

  it('finds the receipt by jobId alone, and a hash in upper case is the same transaction', async () => {
    const plan = await submitted(main);
    const tx = await transferStockToken(NVDA, '1');
    const res = await main.post(RECONCILE, { jobId: plan.jobId, txHash: `0x${tx.transactionHash.slice(2).toUpperCase()}` });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ planHash: plan.planHash, status: 'onchain_confirmed', txHash: tx.transactionHash });
  });

  it('a reverted transaction moves the receipt to onchain_reverted', async () => {
    const plan = await submitted(main);
    const tx = await revertedTransfer(NVDA);
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'onchain_reverted', txHash: tx.transactionHash, blockNumber: tx.blockNumber.toString() });
    expect(res.json.receipt.statusMeaning).toMatch(/0x0/);
  });

  it('an unknown hash proves nothing: the receipt returns to prepared with the reason', async () => {
    const plan = await submitted(main);
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: randomHash() });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'prepared', statusReason: 'TX_RECEIPT_NOT_FOUND', txHash: null, blockNumber: null, jobId: plan.jobId });
    expect(res.json.reconciliation).toMatchObject({ moved: true, previousStatus: 'job_pending', reason: 'TX_RECEIPT_NOT_FOUND', chainIdVerified: true });
  });

  it('a successful transaction that moved another token is no proof of this plan', async () => {
    const plan = await submitted(main);
    const otherToken = await transferStockToken(AAPL);
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: otherToken.transactionHash });
    expect(res.status).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'prepared', statusReason: 'TX_NOT_FOR_TARGET_TOKEN', txHash: null });
  });

  it('onchain_confirmed never moves backwards on later job polls or reconciliations without new proof', async () => {
    const plan = await submitted(main);
    const tx = await transferStockToken(NVDA);
    expect((await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash })).json.receipt.status).toBe('onchain_confirmed');

    for (const partnerStatus of ['failed', 'pending', 'cancelled', 'completed'] as const) {
      partner.setJob(plan.jobId, { statuses: [partnerStatus], reads: 0 });
      const poll = await main.get(`/api/stocks/partner-job/${plan.jobId}`);
      expect(poll.status, poll.text).toBe(200);
      expect(poll.json).toMatchObject({ partnerJobStatus: partnerStatus, receiptStatus: 'onchain_confirmed', statusKeptReason: 'ONCHAIN_PROOF_KEPT' });
      expect(poll.json.receipt).toMatchObject({ status: 'onchain_confirmed', txHash: tx.transactionHash, partnerJobStatus: partnerStatus });
    }

    const unknown = await main.post(RECONCILE, { planHash: plan.planHash, txHash: randomHash() });
    expect(unknown.json.receipt.status).toBe('onchain_confirmed');
    expect(unknown.json.reconciliation).toMatchObject({ moved: false, reason: 'ALREADY_CONFIRMED_BY_OTHER_TX' });

    const viaJob = await main.post(RECONCILE, { planHash: plan.planHash });
    expect(viaJob.json.receipt.status).toBe('onchain_confirmed');
    expect(viaJob.json.reconciliation).toMatchObject({ source: 'partner_job', moved: false, reason: 'ONCHAIN_PROOF_KEPT' });

    const reverted = await revertedTransfer(NVDA);
    const otherRevert = await main.post(RECONCILE, { planHash: plan.planHash, txHash: reverted.transactionHash });
    expect(otherRevert.json.receipt.status).toBe('onchain_confirmed');

    const sameAgain = await main.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash });
    expect(sameAgain.json.reconciliation).toMatchObject({ moved: false, reason: null });
    const history = sameAgain.json.receipt.history as Array<{ toStatus: string; trigger: string }>;
    expect(history.filter((h) => h.toStatus === 'onchain_confirmed' && h.trigger === 'reconcile')).toHaveLength(1);
    expect(history.slice(history.findIndex((h) => h.toStatus === 'onchain_confirmed')).every((h) => h.toStatus === 'onchain_confirmed')).toBe(true);
  });

  it('new on-chain proof does move a receipt: a later successful transaction supersedes a revert', async () => {
    const plan = await submitted(main);
    const first = await revertedTransfer(NVDA);
    expect((await main.post(RECONCILE, { planHash: plan.planHash, txHash: first.transactionHash })).json.receipt.status).toBe('onchain_reverted');
    partner.setJob(plan.jobId, { statuses: ['completed'], reads: 0 });
    expect((await main.get(`/api/stocks/partner-job/${plan.jobId}`)).json.receiptStatus).toBe('onchain_reverted');
    const retry = await transferStockToken(NVDA);
    const res = await main.post(RECONCILE, { planHash: plan.planHash, txHash: retry.transactionHash });
    expect(res.json.receipt).toMatchObject({ status: 'onchain_confirmed', txHash: retry.transactionHash });
  });

  it('a plan already proven on chain without a job is not submitted to the partner (409 RECEIPT_NOT_SUBMITTABLE)', async () => {
    const body = intent({ inputAmount: '41' });
    const prep = await main.post('/api/stocks/prepare-partner-command', { intent: body, nowIso: freshNowIso() });
    const tx = await transferStockToken(NVDA);
    expect((await main.post(RECONCILE, { planHash: prep.json.planHash, txHash: tx.transactionHash })).json.receipt.status).toBe('onchain_confirmed');
    const before = partner.submissions().length;
    const res = await main.post('/api/stocks/submit-partner-intent', { intent: body, userConfirmedPlanHash: prep.json.planHash, nowIso: prep.json.generatedAt });
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
    expect(failed.json.reconciliation).toMatchObject({ moved: false, reason: 'PARTNER_JOB_READ_FAILED', partnerErrorCode: 'PARTNER_HTTP_ERROR' });
    expect(failed.json.receipt.status).toBe('job_completed_unconfirmed');
  });

  it('with neither a txHash nor a job, no proof is obtained and the receipt stays prepared', async () => {
    const prep = await main.post('/api/stocks/prepare-partner-command', { intent: intent(), nowIso: freshNowIso() });
    const res = await main.post(RECONCILE, { planHash: prep.json.planHash });
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
    expect(res.json.reconciliation).toMatchObject({ moved: false, reason: 'CHAIN_ID_MISMATCH', chainIdVerified: false, expectedChainId: 4663 });
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
    const plan = await submitted(first);
    const tx = await transferStockToken(NVDA);
    expect((await first.post(RECONCILE, { planHash: plan.planHash, txHash: tx.transactionHash })).json.receipt.status).toBe('onchain_confirmed');
    const before = (await first.get(`/api/stocks/receipts/${plan.planHash}`)).json.receipt;
    await first.stop({ keepData: true });

    const again = await startServer({ databaseUrl: first.databaseUrl, env: mainEnv });
    again.adoptDataOf(first);
    extra.push(again);
    const after = (await again.get(`/api/stocks/receipts/${plan.planHash}`)).json.receipt;
    expect(after).toEqual(before);
    expect(after).toMatchObject({ status: 'onchain_confirmed', jobId: plan.jobId, txHash: tx.transactionHash, blockNumber: tx.blockNumber.toString() });
    expect(after.history.map((h: { toStatus: string }) => h.toStatus)).toEqual(['prepared', 'job_pending', 'onchain_confirmed']);

    const submissionsBefore = partner.submissions().length;
    const resubmit = await again.post('/api/stocks/submit-partner-intent', { intent: plan.intent, userConfirmedPlanHash: plan.planHash, nowIso: plan.generatedAt });
    expect(resubmit.status).toBe(200);
    expect(resubmit.json).toMatchObject({ jobId: plan.jobId, replayed: true, receiptStatus: 'onchain_confirmed' });
    expect(partner.submissions().length).toBe(submissionsBefore);

    partner.setJob(plan.jobId, { statuses: ['failed'], reads: 0 });
    const poll = await again.get(`/api/stocks/partner-job/${plan.jobId}`);
    expect(poll.json.receiptStatus).toBe('onchain_confirmed');
  });
});
