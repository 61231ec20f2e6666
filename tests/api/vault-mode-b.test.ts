/**
 * Mode B (interface 4.6) through the real server, the fake partner API and the local chain: the
 * refusals in their order, one prompt per plan for the operator's own partner wallet, a pack's
 * lifetime on the server's clock from its first sight here, a status that completes only on
 * the chain's proof bound to the job by the proof rule (mined after the job, the proof of no
 * other subject of any lane, a partner-named deposit preferred to a caller's claim), and jobs
 * that survive a restart.
 */
import { parseUnits, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { V1_VAULT } from '../../src/lib/server/vaults/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV1Vault, usdgUnits, type PlacedV1 } from '../support/chain/vaults';
import { openTestDb, type TestDb } from '../support/db';
import { startFakePartner, type FakePartner } from '../support/fake-partner';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { intent, NVDA } from '../support/stock-intents';

const WALLET_INDEX = 7;
let chain: LocalChain;
let v1: PlacedV1;
let partner: FakePartner;
let apiKey: string;
let wallet: Address;
let off: TestServer;
let noOwner: TestServer;
let noKey: TestServer;
let full: TestServer;
let db: TestDb; // full's database
const extra: TestServer[] = [];

function fullEnv(): Record<string, string> {
  return {
    BROKER_CHAIN_RPC_URL: chain.rpcUrl,
    PARTNERBOT_DEPOSIT_EXECUTION_ENABLED: 'true',
    OWNER_APPROVED_PARTNER_WALLET_DEPOSIT: 'true',
    PARTNER_API_KEY: apiKey,
    PARTNER_API_URL: partner.url,
    PARTNER_WALLET_ADDRESS: wallet,
    PARTNER_TIMEOUT_MS: '3000',
  };
}

beforeAll(async () => {
  apiKey = secretMarker('partner-key');
  [chain, partner] = await Promise.all([startLocalChain(), startFakePartner({ apiKey, script: () => ({ statuses: ['pending'] }) })]);
  v1 = await placeV1Vault(chain);
  wallet = chain.accounts[WALLET_INDEX]!.address;
  await chain.send(USDG.address as Address, v1.usdgAbi, 'mint', [wallet, usdgUnits('1000')]);
  const env = fullEnv();
  [off, noOwner, noKey, full] = await Promise.all([
    // Every other gate would also fail here: the first refusal must still be MODE_B_DISABLED.
    startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } }),
    startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl, PARTNERBOT_DEPOSIT_EXECUTION_ENABLED: 'true' } }),
    startServer({
      env: {
        BROKER_CHAIN_RPC_URL: chain.rpcUrl,
        PARTNERBOT_DEPOSIT_EXECUTION_ENABLED: 'true',
        OWNER_APPROVED_PARTNER_WALLET_DEPOSIT: 'true',
        PARTNER_WALLET_ADDRESS: wallet,
      },
    }),
    startServer({ env }),
  ]);
  db = openTestDb(full.databaseUrl);
});
afterAll(async () => {
  await db?.$disconnect();
  await Promise.all([off, noOwner, noKey, full, ...extra].map((s) => s?.stop()));
  await partner?.stop();
  await chain?.stop();
});

async function prepared(server: TestServer, amountUsdg: string, receiver: string = wallet, extraFields: Record<string, unknown> = {}) {
  const res = await server.post('/api/partnerbot/vault-deposit/prepare-command', { amountUsdg, receiver, ...extraFields });
  expect(res.status).toBe(200);
  return res.json.pack;
}

/** Moves the server's first sight of a pack `ms` into the past (tests control time through stored rows). */
async function ageFirstSight(planHash: string, ms: number) {
  const row = await db.depositPackSighting.findUniqueOrThrow({ where: { planHash } });
  await db.depositPackSighting.update({ where: { planHash }, data: { firstSeenAt: new Date(row.firstSeenAt.getTime() - ms) } });
}

function submitBody(
  pack: { amount: string; receiver: string; planHash: string; generatedAt: string },
  overrides: Record<string, unknown> = {},
) {
  return {
    amountUsdg: pack.amount,
    receiver: pack.receiver,
    confirmPlanHash: pack.planHash,
    packGeneratedAt: pack.generatedAt,
    ...overrides,
  };
}

async function sendFromWallet(to: Address, data: Hex) {
  const w = chain.wallet(WALLET_INDEX);
  const hash = await w.sendTransaction({ to, data, account: w.account, chain: w.chain });
  return chain.publicClient.waitForTransactionReceipt({ hash });
}

describe('Mode B refusals, in order', () => {
  it('1. MODE_B_DISABLED first, even when every other gate would fail too', async () => {
    const res = await off.post('/api/partnerbot/vault-deposit/submit-intent', {
      amountUsdg: '5',
      receiver: chain.accounts[1]!.address,
      confirmPlanHash: 'nope',
      packGeneratedAt: new Date().toISOString(),
    });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe('MODE_B_DISABLED');
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
  });

  it('the lane gates answer before any field is asked for: an empty body is MODE_B_DISABLED / OWNER_APPROVAL_REQUIRED / PARTNER_KEY_MISSING, not a 400', async () => {
    for (const [server, status, code] of [
      [off, 503, 'MODE_B_DISABLED'],
      [noOwner, 403, 'OWNER_APPROVAL_REQUIRED'],
      [noKey, 503, 'PARTNER_KEY_MISSING'],
    ] as const) {
      for (const body of [{}, { amountUsdg: 5, receiver: 7 }]) {
        const res = await server.post('/api/partnerbot/vault-deposit/submit-intent', body);
        expect(res.status, code).toBe(status);
        expect(res.json.error.code).toBe(code);
      }
    }
  });

  it('with the lane on, a missing lane field is a 400 that names it, and nothing reaches the partner', async () => {
    const pack = await prepared(full, '5');
    const { packGeneratedAt: _g, ...withoutTime } = submitBody(pack);
    const res = await full.post('/api/partnerbot/vault-deposit/submit-intent', withoutTime);
    expect(res.status).toBe(400);
    expect(res.json.error.issues.map((i: { path: string }) => i.path)).toContain('packGeneratedAt');
    const { confirmPlanHash: _h, ...withoutHash } = submitBody(pack);
    const noHash = await full.post('/api/partnerbot/vault-deposit/submit-intent', withoutHash);
    expect(noHash.status).toBe(400);
    expect(noHash.json.error.issues.map((i: { path: string }) => i.path)).toContain('confirmPlanHash');
    expect(partner.submissions()).toHaveLength(0);
  });

  it('2. OWNER_APPROVAL_REQUIRED when execution is enabled without the owner approval', async () => {
    const res = await noOwner.post('/api/partnerbot/vault-deposit/submit-intent', {
      amountUsdg: '5',
      receiver: chain.accounts[1]!.address,
      confirmPlanHash: 'nope',
      packGeneratedAt: new Date().toISOString(),
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('OWNER_APPROVAL_REQUIRED');
  });

  it('3. PARTNER_KEY_MISSING when both flags are on but no partner key is configured', async () => {
    const pack = await prepared(noKey, '5');
    const res = await noKey.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack));
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe('PARTNER_KEY_MISSING');
  });

  it('4. RECEIVER_NOT_PARTNER_WALLET for any receiver other than the operator wallet (never a user-deposit path)', async () => {
    const user = chain.accounts[1]!.address;
    const pack = await prepared(full, '5', user);
    const res = await full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack));
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('RECEIVER_NOT_PARTNER_WALLET');
    expect(partner.submissions()).toHaveLength(0);
  });

  it('5. an inexact confirmPlanHash is refused and nothing reaches the partner', async () => {
    const pack = await prepared(full, '5');
    const wrong = await full.post(
      '/api/partnerbot/vault-deposit/submit-intent',
      submitBody(pack, { confirmPlanHash: pack.planHash.replace(/.$/, (c: string) => (c === '0' ? '1' : '0')) }),
    );
    expect(wrong.status).toBe(409);
    expect(wrong.json.error.code).toBe('CONFIRM_PLAN_HASH_MISMATCH');
    const otherAmount = await full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack, { amountUsdg: '5.000001' }));
    expect(otherAmount.json.error.code).toBe('CONFIRM_PLAN_HASH_MISMATCH');
    expect(partner.submissions()).toHaveLength(0);
  });

  it('an expired pack is refused even with its exact planHash', async () => {
    const pack = await prepared(full, '5', wallet, { nowIso: new Date(Date.now() - 3_600_000).toISOString() });
    await ageFirstSight(pack.planHash, 3_600_000);
    const res = await full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack));
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('PACK_EXPIRED');
    expect(partner.submissions()).toHaveLength(0);
  });

  it('an expired pack sent with nowIso pinned to its creation time is still expired: the expiry reads the server clock', async () => {
    const pack = await prepared(full, '5.5');
    await ageFirstSight(pack.planHash, 901_000);
    const res = await full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack, { nowIso: pack.generatedAt }));
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('PACK_EXPIRED');
    expect(partner.submissions()).toHaveLength(0);
  });

  it("a pack's lifetime counts from this server's first sight, not from its generatedAt: nowIso a year ahead with expiresInSeconds 60 is refused after 60 s of server time (issue 21, item 3)", async () => {
    const yearAhead = new Date(Date.now() + 365 * 86_400_000).toISOString();
    const pack = await prepared(full, '5', wallet, { nowIso: yearAhead, expiresInSeconds: 60 });
    expect(pack.expiresAt).toBe(new Date(Date.parse(yearAhead) + 60_000).toISOString());
    await ageFirstSight(pack.planHash, 61_000);
    for (const body of [submitBody(pack, { expiresInSeconds: 60 }), submitBody(pack, { expiresInSeconds: 60, nowIso: yearAhead })]) {
      const res = await full.post('/api/partnerbot/vault-deposit/submit-intent', body);
      expect(res.status, res.text).toBe(409);
      expect(res.json.error.code).toBe('PACK_EXPIRED');
    }
    expect(partner.submissions()).toHaveLength(0);
  });
});

describe("a pack shows the server's Mode B deadline beside its answer-time fields (issue 34)", () => {
  it('answers submittableUntil on the server clock from the first sight, whatever nowIso says, and submits until then', async () => {
    const yearAhead = new Date(Date.now() + 365 * 86_400_000).toISOString();
    const before = Date.now();
    const res = await full.post('/api/partnerbot/vault-deposit/prepare-command', {
      amountUsdg: '6',
      receiver: wallet,
      nowIso: yearAhead,
      expiresInSeconds: 120,
    });
    expect(res.status).toBe(200);
    const { pack, submittableUntil } = res.json;
    expect(pack.expiresAt).toBe(new Date(Date.parse(yearAhead) + 120_000).toISOString());
    const sighting = await db.depositPackSighting.findUniqueOrThrow({ where: { planHash: pack.planHash } });
    expect(submittableUntil).toBe(new Date(sighting.firstSeenAt.getTime() + 120_000).toISOString());
    expect(Date.parse(submittableUntil)).toBeGreaterThanOrEqual(before + 120_000 - 1000);
    expect(Date.parse(submittableUntil)).toBeLessThan(Date.parse(pack.expiresAt));

    // The same pack prepared again keeps its first sight, so its deadline; the vault-pinned twin shows the same one.
    await ageFirstSight(pack.planHash, 100_000);
    const again = await full.post('/api/vaults/svc-vault/deposit-partnerbot-intent', {
      amountUsdg: '6',
      receiver: wallet,
      nowIso: yearAhead,
      expiresInSeconds: 120,
    });
    expect(again.status, again.text).toBe(200);
    expect(again.json.pack.planHash).toBe(pack.planHash);
    expect(again.json.submittableUntil).toBe(new Date(Date.parse(submittableUntil) - 100_000).toISOString());

    // Past that deadline the submission is refused, as the answer said.
    await ageFirstSight(pack.planHash, 21_000);
    const late = await full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack, { expiresInSeconds: 120 }));
    expect(late.json.error.code).toBe('PACK_EXPIRED');
    expect(late.json.error.message).toContain(new Date(Date.parse(submittableUntil) - 121_000).toISOString());
  });

  it('labels pack.generatedAt and pack.expiresAt as answer time in the OpenAPI document', async () => {
    const doc = (await full.get('/api/openapi.json')).json;
    const pack = doc.components.schemas.VaultDepositPack.properties;
    expect(pack.generatedAt.description).toMatch(/^Answer time/);
    expect(pack.expiresAt.description).toMatch(/^Answer time.*submittableUntil/);
  });
});

describe('Mode B with every gate open', () => {
  let jobId: string;
  let pack: any;

  it('sends exactly one prompt for the operator wallet and returns a bvd_ job with complete: false', async () => {
    pack = await prepared(full, '12.5');
    const res = await full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack));
    expect(res.status).toBe(200);
    expect(res.json.complete).toBe(false);
    expect(res.json.job).toMatchObject({
      submitState: 'submitted',
      receiver: wallet,
      amount: '12.5',
      amountUnits: '12500000',
      planHash: pack.planHash,
      userDepositPath: false,
    });
    expect(res.json.job.id).toMatch(/^bvd_[0-9a-f]{24}$/);
    expect(res.json.verification).toMatchObject({ found: false, confirmedVaultDeposit: false, txHash: null });
    jobId = res.json.job.id;

    const sent = partner.submissions();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-api-key']).toBe(apiKey);
    const prompt = JSON.parse(sent[0]!.body).prompt as string;
    expect(prompt).toContain('depositWithAcks(12500000, ' + wallet);
    expect(prompt).toContain(V1_VAULT.address);
    expect(prompt).toContain('Do not call deposit()');
    expect(res.json.job.partnerJobId).toBe(partner.jobs.keys().next().value);
  });

  it('never submits the same plan twice, whether its hash is given with 0x or as the bare hex of older packs', async () => {
    expect(pack.planHash).toMatch(/^0x[0-9a-f]{64}$/);
    const again = await full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack));
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('PLAN_ALREADY_SUBMITTED');
    const bare = await full.post(
      '/api/partnerbot/vault-deposit/submit-intent',
      submitBody(pack, { confirmPlanHash: pack.planHash.slice(2) }),
    );
    expect(bare.status).toBe(409);
    expect(bare.json.error.code).toBe('PLAN_ALREADY_SUBMITTED');
    expect(partner.submissions()).toHaveLength(1);
  });

  it('the job is not complete while the partner reports pending, nor when it reports completed without proof', async () => {
    const pending = await full.get(`/api/partnerbot/vault-deposit/status/${jobId}`);
    expect(pending.status).toBe(200);
    expect(pending.json).toMatchObject({
      kind: 'partner-job',
      jobId,
      complete: false,
      partnerJob: { state: 'read', status: 'pending', statusIsProof: false },
    });

    const partnerJobId = pending.json.job.partnerJobId as string;
    partner.setJob(partnerJobId, { statuses: ['completed'], response: 'I deposited 12.5 USDG into the vault for you.' });
    const claimed = await full.get(`/api/partnerbot/vault-deposit/status/${jobId}`);
    expect(claimed.status).toBe(200);
    expect(claimed.json.partnerJob.status).toBe('completed');
    expect(claimed.json.partnerJob.note).toMatch(/unconfirmed/);
    expect(claimed.json.complete).toBe(false);
    expect(claimed.json.txHashCandidates).toEqual([]);
    // The partner's own words are never echoed.
    expect(claimed.text).not.toContain('I deposited');
  });

  it("completes once the operator wallet's deposit is on chain and the partner names its hash", async () => {
    const approval = await sendFromWallet(pack.assetAddress, pack.approveCalldata);
    const deposit = await sendFromWallet(pack.vaultAddress, pack.depositCalldata);
    expect(deposit.status).toBe('success');
    const partnerJobId = (await full.get(`/api/partnerbot/vault-deposit/status/${jobId}`)).json.job.partnerJobId as string;

    // A hash that is not the deposit (the approval) does not complete the job.
    partner.setJob(partnerJobId, { statuses: ['completed'], response: `Approved in ${approval.transactionHash}.` });
    const approvalOnly = await full.get(`/api/partnerbot/vault-deposit/status/${jobId}`);
    expect(approvalOnly.json.complete).toBe(false);
    expect(approvalOnly.json.verification).toMatchObject({ txStatus: 'success', toIsVault: false });

    partner.setJob(partnerJobId, { statuses: ['completed'], response: `Deposit sent: ${deposit.transactionHash}` });
    const done = await full.get(`/api/partnerbot/vault-deposit/status/${jobId}`);
    expect(done.json.complete).toBe(true);
    expect(done.json.verification).toMatchObject({
      txHash: deposit.transactionHash,
      confirmedVaultDeposit: true,
      receiverMatches: true,
      amountMatches: true,
      depositEvent: { receiver: wallet, assets: '12500000' },
    });
  });

  it('a job whose only candidate hash reverted is not complete', async () => {
    const other = await prepared(full, '3');
    const res = await full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(other));
    expect(res.status).toBe(200);
    // A deposit without an approval: transferFrom fails and the transaction reverts on chain.
    const w = chain.wallet(WALLET_INDEX);
    const hash = await w.sendTransaction({
      to: other.vaultAddress,
      data: other.depositCalldata,
      gas: 300_000n,
      account: w.account,
      chain: w.chain,
    });
    const reverted = await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(reverted.status).toBe('reverted');
    const status = await full.get(`/api/partnerbot/vault-deposit/status/${res.json.job.id}?txHash=${hash}`);
    expect(status.json.complete).toBe(false);
    expect(status.json.verification).toMatchObject({ txStatus: 'reverted', confirmedVaultDeposit: false });
  });
});

describe('@persistence Mode B jobs', () => {
  it('@persistence two concurrent submissions of one plan: the database lets exactly one through', async () => {
    const pack = await prepared(full, '4.5');
    const before = partner.submissions().length;
    const results = await Promise.all([0, 1, 2].map(() => full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.json.error.code).toBe('PLAN_ALREADY_SUBMITTED');
    expect(partner.submissions().length).toBe(before + 1);
  });

  it('@persistence a job and its one-submission rule survive a restart on the same database', async () => {
    // The planHash covers the whole pack, the deposit link (built from ORIGIN) included, so
    // both instances serve one public origin, as instances of one deployment do.
    const env = { ...fullEnv(), ORIGIN: 'https://svc.example' };
    const first = await startServer({ env });
    const pack = await prepared(first, '7.25');
    const submitted = await first.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack));
    expect(submitted.status).toBe(200);
    const jobId = submitted.json.job.id as string;
    const submissionsBefore = partner.submissions().length;
    await first.stop({ keepData: true });

    const second = await startServer({ env, databaseUrl: first.databaseUrl });
    second.adoptDataOf(first);
    extra.push(second);
    const status = await second.get(`/api/partnerbot/vault-deposit/status/${jobId}`);
    expect(status.status).toBe(200);
    expect(status.json.job).toMatchObject({
      id: jobId,
      planHash: pack.planHash,
      amount: '7.25',
      receiver: wallet,
      submitState: 'submitted',
    });
    expect(status.json.job.createdAt).toBe(submitted.json.job.createdAt);
    expect(status.json.complete).toBe(false);

    const again = await second.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack));
    expect(again.json.error.code).toBe('PLAN_ALREADY_SUBMITTED');
    expect(partner.submissions().length).toBe(submissionsBefore);
  });
});

describe('a Mode B job is completed only by a deposit the proof rule binds to it (issue 21, items 1 and 2)', () => {
  const TRADER = 4;
  let route: Address;
  let sequence = 0;

  beforeAll(async () => {
    route = await chain.deploy('TestSwapRoute');
    await chain.send(NVDA as Address, chain.artifact('TestToken').abi, 'mint', [route, parseUnits('1000', 18)]);
    await chain.send(USDG.address as Address, v1.usdgAbi, 'mint', [chain.accounts[TRADER]!.address, usdgUnits('1000')]);
    await chain.send(USDG.address as Address, v1.usdgAbi, 'approve', [route, 2n ** 255n], TRADER);
  });

  /** A submitted job of `amount` USDG (a pack of its own: every pack has its own generatedAt). */
  async function job(amount: string) {
    const pack = await prepared(full, amount, wallet, { nowIso: new Date(Date.UTC(2027, 0, 1) + ++sequence * 1000).toISOString() });
    const res = await full.post('/api/partnerbot/vault-deposit/submit-intent', submitBody(pack));
    expect(res.status, res.text).toBe(200);
    return { id: res.json.job.id as string, partnerJobId: res.json.job.partnerJobId as string, pack };
  }

  /** The operator wallet signs the pack: the approval, then the deposit. */
  async function depositFor(pack: { assetAddress: Address; approveCalldata: Hex; vaultAddress: Address; depositCalldata: Hex }) {
    await sendFromWallet(pack.assetAddress, pack.approveCalldata);
    const deposit = await sendFromWallet(pack.vaultAddress, pack.depositCalldata);
    expect(deposit.status).toBe('success');
    return deposit.transactionHash;
  }

  const status = (jobId: string, txHash?: string) =>
    full.get(`/api/partnerbot/vault-deposit/status/${jobId}${txHash ? `?txHash=${txHash}` : ''}`);

  async function completedByPartner(j: { id: string; partnerJobId: string }, txHash: string) {
    partner.setJob(j.partnerJobId, { statuses: ['completed'], reads: 0, response: `Deposit sent: ${txHash}` });
    const res = await status(j.id);
    expect(res.json).toMatchObject({ complete: true, verification: { txHash, proofBinding: 'partner_job' } });
  }

  it("job 1's deposit, passed as ?txHash= to the status of a later job 2 of the same amount, does not complete job 2", async () => {
    const one = await job('2.5');
    const deposit = await depositFor(one.pack);
    await completedByPartner(one, deposit);

    const two = await job('2.5');
    // Job 2 was created after the deposit was mined. The chain's clock may run ahead of the
    // server's, so its creation (a server-clock fact stored with the job) is placed a minute
    // after the deposit's block.
    const block = await chain.publicClient.getBlock({
      blockHash: (await chain.publicClient.getTransactionReceipt({ hash: deposit })).blockHash,
    });
    await db.vaultDepositJob.update({ where: { id: two.id }, data: { createdAt: new Date(Number(block.timestamp) * 1000 + 60_000) } });

    const res = await status(two.id, deposit);
    expect(res.status, res.text).toBe(200);
    expect(res.json.complete).toBe(false);
    expect(res.json.verification).toMatchObject({ txHash: deposit, confirmedVaultDeposit: false, proofBinding: null });
    expect(res.json.verification.proofChecks).toEqual([{ check: 'mined_after_first_sight', passed: false }]);
    expect((await status(one.id)).json.complete).toBe(true);
  });

  it('@persistence a deposit that completes one job does not complete another job of the same amount created before it', async () => {
    const first = await job('3.5');
    const second = await job('3.5');
    const deposit = await depositFor(first.pack);
    await completedByPartner(first, deposit);

    const res = await status(second.id, deposit);
    expect(res.json.complete).toBe(false);
    expect(res.json.verification.proofChecks).toEqual([
      { check: 'mined_after_first_sight', passed: true },
      { check: 'not_proof_of_other_subject', passed: false },
    ]);
    expect(await db.proofBinding.findUnique({ where: { txHash: deposit } })).toMatchObject({
      vaultDepositJobId: first.id,
      binding: 'partner_job',
    });
  });

  it('@persistence a race of status reads claiming one deposit for several jobs leaves exactly one of them complete', async () => {
    const jobs = [];
    for (let i = 0; i < 3; i++) jobs.push(await job('1.75'));
    const deposit = await depositFor(jobs[0]!.pack);
    const answers = await Promise.all(jobs.map((j) => status(j.id, deposit)));
    for (const res of answers) expect(res.status, res.text).toBe(200);
    expect(answers.filter((r) => r.json.complete === true)).toHaveLength(1);
    for (const res of answers.filter((r) => r.json.complete === false))
      expect(res.json.verification.proofChecks.at(-1)).toEqual({ check: 'not_proof_of_other_subject', passed: false });
    expect(await db.proofBinding.count({ where: { txHash: deposit } })).toBe(1);
  });

  it("@persistence a caller's claim of another job's deposit gives way once that job's own partner job names it", async () => {
    const claimant = await job('4.25');
    const owner = await job('4.25');
    const deposit = await depositFor(owner.pack);

    const claimed = await status(claimant.id, deposit);
    expect(claimed.json).toMatchObject({ complete: true, verification: { proofBinding: 'caller_claim' } });

    await completedByPartner(owner, deposit);
    const lost = await status(claimant.id, deposit);
    expect(lost.json.complete).toBe(false);
    expect(lost.json.verification.proofChecks.at(-1)).toEqual({ check: 'not_proof_of_other_subject', passed: false });
    expect((await status(claimant.id)).json.complete).toBe(false);
  });

  it('a transaction that proves a stock plan cannot complete a Mode B job, and a deposit that completes a job cannot prove a stock plan', async () => {
    const RECONCILE = '/api/stocks/reconcile-receipt';
    const stockPlan = async (inputAmount: string) => {
      const res = await full.post('/api/stocks/prepare-partner-command', {
        intent: intent({ inputAmount }),
        nowIso: new Date(Date.UTC(2027, 6, 1) + ++sequence * 1000).toISOString(),
      });
      expect(res.status, res.text).toBe(200);
      return res.json.planHash as string;
    };

    const pendingJob = await job('6');
    const plan = await stockPlan('6');
    const swap = await chain.send(
      route,
      chain.artifact('TestSwapRoute').abi,
      'swap',
      [USDG.address, NVDA, usdgUnits('6'), parseUnits('0.03', 18)],
      TRADER,
    );
    expect((await full.post(RECONCILE, { planHash: plan, txHash: swap.transactionHash })).json.receipt.status).toBe('onchain_confirmed');
    const notADeposit = await status(pendingJob.id, swap.transactionHash);
    expect(notADeposit.json.complete).toBe(false);
    expect(notADeposit.json.verification.proofChecks).toEqual([
      { check: 'mined_after_first_sight', passed: true },
      { check: 'not_proof_of_other_subject', passed: false },
    ]);

    const otherPlan = await stockPlan('7');
    const depositJob = await job('7');
    const deposit = await depositFor(depositJob.pack);
    await completedByPartner(depositJob, deposit);
    const res = await full.post(RECONCILE, { planHash: otherPlan, txHash: deposit });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receipt).toMatchObject({ status: 'prepared', txHash: null });
    expect(res.json.reconciliation.reason).toBe('TX_PROVES_OTHER_PLAN');
    expect(res.json.reconciliation.proofChecks).toEqual([
      { check: 'mined_after_first_sight', passed: true },
      { check: 'not_proof_of_other_subject', passed: false },
    ]);
  });
});
