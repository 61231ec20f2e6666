/**
 * The V1 deposit rail through the real server and the local chain with the project's own
 * reference contracts: a pack built by the service is signed and sent from a test account,
 * and completion is decided by the chain alone.
 */
import { decodeFunctionData, keccak256, parseAbi, stringToBytes, toHex, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { V1_VAULT, V2_SUITE } from '../../src/lib/server/vaults/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV1Vault, usdgUnits, type PlacedV1 } from '../support/chain/vaults';
import { startServer, type TestServer } from '../support/server';

let chain: LocalChain;
let server: TestServer;
let v1: PlacedV1;

const NOW = '2026-11-22T10:00:00.000Z';
const RISK = keccak256(stringToBytes('svc-vault-depositor-risk-ack-v1'));
const JURISDICTION = keccak256(stringToBytes('svc-vault-source-disclosure-ack-v1'));
const PACK_ABI = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function depositWithAcks(uint256 assets, address receiver, bytes32 riskAckHash, bytes32 jurisdictionAckHash) returns (uint256 shares)',
]);

beforeAll(async () => {
  chain = await startLocalChain();
  v1 = await placeV1Vault(chain);
  server = await startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } });
});
afterAll(async () => {
  await server?.stop();
  await chain?.stop();
});

async function fund(account: number, amount: string) {
  await chain.send(USDG.address as Address, v1.usdgAbi, 'mint', [chain.accounts[account]!.address, usdgUnits(amount)]);
}

async function prepare(body: Record<string, unknown>) {
  return server.post('/api/partnerbot/vault-deposit/prepare-command', { nowIso: NOW, ...body });
}

/** Signs and sends the pack's calldata from a test account, as a wallet would. */
async function sendPackCall(account: number, to: Address, data: Hex, gas?: bigint) {
  const wallet = chain.wallet(account);
  const hash = await wallet.sendTransaction({ to, data, account: wallet.account, chain: wallet.chain, ...(gas ? { gas } : {}) });
  return chain.publicClient.waitForTransactionReceipt({ hash });
}

describe('deposit pack (Mode A)', () => {
  it('builds the pack of spec 2.10 field by field, with acks verified on chain', async () => {
    const receiver = chain.accounts[1]!.address;
    const res = await prepare({ amountUsdg: '125.5', receiver });
    expect(res.status).toBe(200);
    const { pack } = res.json;
    expect(pack).toMatchObject({
      packVersion: 'partnerbot-vault-deposit-1.0.0',
      mode: 'A',
      vaultSlug: V1_VAULT.slug,
      vaultAddress: V1_VAULT.address,
      chain: 'broker_chain',
      chainId: 4663,
      asset: 'USDG',
      assetDecimals: 6,
      amount: '125.5',
      amountUnits: '125500000',
      maxAmount: '10000',
      spender: V1_VAULT.address,
      approvalRequired: true,
      receiver,
      receiverMustBeDepositor: true,
      ackHashes: { risk: RISK, jurisdiction: JURISDICTION },
      generatedAt: NOW,
      expiresAt: '2026-11-22T10:15:00.000Z',
      svcExecutesDeposit: false,
    });
    expect(pack.planHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(res.json.svcExecutesDeposit).toBe(false);
    expect(res.json.notInvestmentAdvice).toBe(true);
    expect(res.json.liveOrderSent).toBe(false);

    const approve = decodeFunctionData({ abi: PACK_ABI, data: pack.approveCalldata });
    expect(approve.functionName).toBe('approve');
    expect(approve.args).toEqual([V1_VAULT.address, 125_500_000n]);
    const deposit = decodeFunctionData({ abi: PACK_ABI, data: pack.depositCalldata });
    expect(deposit.functionName).toBe('depositWithAcks');
    expect(deposit.args).toEqual([125_500_000n, receiver, RISK, JURISDICTION]);
    expect(pack.depositCalldata.slice(0, 10)).not.toBe(toHex(keccak256(stringToBytes('deposit(uint256,address)'))).slice(0, 10));

    expect(res.json.ackVerification).toMatchObject({
      source: 'onchain_eth_call',
      readFrom: 'vault_ack_views',
      chainRead: true,
      matches: true,
      readAddress: V1_VAULT.address,
    });
    expect(res.json.partnerbotSocialCommand).toMatch(/^@partnerbot .*depositWithAcks.*on broker$/);
    expect(res.json.partnerbotSocialCommand).toContain(V1_VAULT.address);
    expect(res.json.modes.A.executionVerifiable).toBe(false);
    expect(res.json.modes.C).toMatchObject({ available: true, recommended: true });
    expect(res.json.modes.B).toMatchObject({ available: false, userDepositPath: false });
    const link = new URL(res.json.depositLinkUrl);
    expect(link.pathname).toBe(`/vaults/${V1_VAULT.slug}/deposit`);
    expect(link.searchParams.get('amount')).toBe('125.5');
    expect(res.json.vaultChain).toMatchObject({ chainId: 4663, baseAsset: 'USDG', baseAssetDecimals: 6 });
    expect(res.json.x402PaymentChain).toMatchObject({
      lane: 'partnerCloud',
      paymentChain: 'base',
      facilitatorState: 'disabled',
      settlesHere: false,
    });
    expect(res.json.sourceVerification.some((s: { method: string }) => s.method === 'live_chain_read')).toBe(true);
    for (const s of res.json.sourceVerification) expect(s.lastVerified).toMatch(/^\d{4}-\d{2}-\d{2}/);
  });

  it('is reproducible: the same request with nowIso gives a byte-identical body and planHash', async () => {
    const body = { amountUsdg: '10', receiver: chain.accounts[1]!.address, expiresInSeconds: 600 };
    const [a, b] = [await prepare(body), await prepare(body)];
    expect(a.text).toBe(b.text);
    expect(a.json.pack.expiresAt).toBe('2026-11-22T10:10:00.000Z');
    const c = await prepare({ ...body, amountUsdg: '10.000001' });
    expect(c.json.pack.planHash).not.toBe(a.json.pack.planHash);
  });

  it("a pack sent from the depositor's own wallet completes only with the vault's Deposit event", async () => {
    const depositor = 2;
    const receiver = chain.accounts[depositor]!.address;
    await fund(depositor, '500');
    const { json } = await prepare({ amountUsdg: '250.75', receiver });
    const { pack } = json;
    const approval = await sendPackCall(depositor, pack.assetAddress, pack.approveCalldata);
    expect(approval.status).toBe('success');
    const deposit = await sendPackCall(depositor, pack.vaultAddress, pack.depositCalldata);
    expect(deposit.status).toBe('success');

    const status = await server.get(`/api/partnerbot/vault-deposit/status/${deposit.transactionHash}`);
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ kind: 'tx-reconcile', complete: true, notInvestmentAdvice: true, liveOrderSent: false });
    expect(status.json.verification).toMatchObject({
      found: true,
      txStatus: 'success',
      chainIdVerified: true,
      toIsVault: true,
      confirmedVaultDeposit: true,
      receiverMatches: true,
      depositEvent: { sender: receiver, receiver, assets: '250750000', shares: '250750000' },
    });
    expect(status.json.verification.reason).toMatch(/^onchain_confirmed/);

    // With the pack's receiver and amount given, both must match.
    const exact = await server.get(`/api/partnerbot/vault-deposit/status/${deposit.transactionHash}?receiver=${receiver}&amount=250.75`);
    expect(exact.json.complete).toBe(true);
    expect(exact.json.verification.amountMatches).toBe(true);
    const otherAmount = await server.get(`/api/partnerbot/vault-deposit/status/${deposit.transactionHash}?amount=250.74`);
    expect(otherAmount.json.complete).toBe(false);
    expect(otherAmount.json.verification.amountMatches).toBe(false);
    // The proof rule's checks, by name: a raw status has no stored subject, so it runs the facts only.
    expect(exact.json.verification.proofChecks.map((c: { check: string }) => c.check)).toEqual([
      'tx_succeeded',
      'sent_to_vault',
      'vault_deposit_event',
      'credits_receiver',
      'amount_within_band',
    ]);
    expect(otherAmount.json.verification.proofChecks.at(-1)).toEqual({ check: 'amount_within_band', passed: false });
    const otherReceiver = await server.get(
      `/api/partnerbot/vault-deposit/status/${deposit.transactionHash}?receiver=${chain.accounts[3]!.address}`,
    );
    expect(otherReceiver.json.complete).toBe(false);
    expect(otherReceiver.json.verification.receiverMatches).toBe(false);

    // The approval alone is a confirmed transaction, but not to the vault and not a deposit.
    const approvalStatus = await server.get(`/api/partnerbot/vault-deposit/status/${approval.transactionHash}`);
    expect(approvalStatus.json.complete).toBe(false);
    expect(approvalStatus.json.verification).toMatchObject({ txStatus: 'success', toIsVault: false, confirmedVaultDeposit: false });

    const receipt = await server.post('/api/vaults/receipt', {
      txHash: deposit.transactionHash,
      receiver,
      amountUsdg: '250.75',
      nowIso: NOW,
    });
    expect(receipt.json.receipt).toMatchObject({
      stage: 'SETTLEMENT',
      status: 'onchain_confirmed',
      kind: 'deposit_settlement',
      anchoring: 'paper',
    });
    expect(receipt.json.receipt.receiptId).toMatch(/^vrcpt_[0-9a-f]{24}$/);
  });

  it('a reverted deposit (no approval, so transferFrom fails) is not complete', async () => {
    const depositor = 4;
    await fund(depositor, '50');
    const { json } = await prepare({ amountUsdg: '20', receiver: chain.accounts[depositor]!.address });
    const reverted = await sendPackCall(depositor, json.pack.vaultAddress, json.pack.depositCalldata, 300_000n);
    expect(reverted.status).toBe('reverted');
    const status = await server.get(`/api/partnerbot/vault-deposit/status/${reverted.transactionHash}`);
    expect(status.json.complete).toBe(false);
    expect(status.json.verification).toMatchObject({ found: true, txStatus: 'reverted', confirmedVaultDeposit: false });
    const receipt = await server.post('/api/vaults/receipt', { txHash: reverted.transactionHash, nowIso: NOW });
    expect(receipt.json.receipt).toMatchObject({ stage: 'PREPARATION', status: 'onchain_reverted', blockNumber: null });
  });

  it('a confirmed transaction to another contract that emits a look-alike Deposit event is not complete', async () => {
    const lookalike = await chain.deploy('TestDepositLookalike');
    const depositor = 5;
    const { json } = await prepare({ amountUsdg: '30', receiver: chain.accounts[depositor]!.address });
    const tx = await sendPackCall(depositor, lookalike, json.pack.depositCalldata);
    expect(tx.status).toBe('success');
    expect(tx.logs.length).toBe(1);
    const status = await server.get(`/api/partnerbot/vault-deposit/status/${tx.transactionHash}`);
    expect(status.json.complete).toBe(false);
    expect(status.json.verification).toMatchObject({
      txStatus: 'success',
      toIsVault: false,
      depositEvent: null,
      confirmedVaultDeposit: false,
    });
  });

  it('a confirmed transaction to the vault without a Deposit event is not complete', async () => {
    const tx = await chain.send(V1_VAULT.address, v1.vaultAbi, 'ping', [], 6);
    expect(tx.status).toBe('success');
    const status = await server.get(`/api/partnerbot/vault-deposit/status/${tx.transactionHash}`);
    expect(status.json.complete).toBe(false);
    expect(status.json.verification).toMatchObject({
      txStatus: 'success',
      toIsVault: true,
      depositEvent: null,
      confirmedVaultDeposit: false,
    });
    expect(status.json.verification.reason).toMatch(/no Deposit event/);
  });

  it('the reference vault refuses a plain ERC-4626 deposit()', async () => {
    const tx = await chain.sendUnchecked(
      V1_VAULT.address,
      parseAbi(['function deposit(uint256 assets, address receiver) returns (uint256)']),
      'deposit',
      [1n, chain.accounts[0]!.address],
    );
    expect(tx.status).toBe('reverted');
  });

  it('an unknown transaction hash is found: false and not complete; a malformed id is 400', async () => {
    const res = await server.get(`/api/partnerbot/vault-deposit/status/0x${'ab'.repeat(32)}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      kind: 'tx-reconcile',
      complete: false,
      verification: { found: false, txStatus: 'not_found', chainIdVerified: true },
    });
    const bad = await server.get('/api/partnerbot/vault-deposit/status/not-a-hash');
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('DEPOSIT_STATUS_ID_INVALID');
    const unknownJob = await server.get('/api/partnerbot/vault-deposit/status/bvd_000000000000000000000000');
    expect(unknownJob.status).toBe(404);
    expect(unknownJob.json.error.code).toBe('DEPOSIT_JOB_NOT_FOUND');
  });

  it('refuses a pack whose acks differ from the on-chain pins (409 ACK_HASH_MISMATCH), and builds again once they match', async () => {
    await v1.setPinnedAcks(keccak256(stringToBytes('some-other-risk-ack-v2')), JURISDICTION);
    try {
      const res = await prepare({ amountUsdg: '10', receiver: chain.accounts[1]!.address });
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe('ACK_HASH_MISMATCH');
      expect(res.json.error.issues).toHaveLength(1);
      expect(res.json.error.issues[0].path).toBe('ackHashes.risk');
      expect(res.json.notInvestmentAdvice).toBe(true);
      const viaSlug = await server.post(`/api/vaults/${V1_VAULT.slug}/deposit-partnerbot-intent`, {
        amountUsdg: '10',
        receiver: chain.accounts[1]!.address,
      });
      expect(viaSlug.json.error.code).toBe('ACK_HASH_MISMATCH');
    } finally {
      await v1.restorePinnedAcks();
    }
    expect((await prepare({ amountUsdg: '10', receiver: chain.accounts[1]!.address })).status).toBe(200);
  });

  it('reads the pins from the access policy when the vault has no ack views of its own', async () => {
    await chain.send(V1_VAULT.address, v1.vaultAbi, 'setAckViewsEnabled', [false]);
    try {
      const res = await prepare({ amountUsdg: '10', receiver: chain.accounts[1]!.address });
      expect(res.status, res.text).toBe(200);
      expect(res.json.ackVerification).toMatchObject({
        source: 'onchain_eth_call',
        readFrom: 'access_policy_get_vault_policy',
        readAddress: V1_VAULT.accessPolicyAddress,
      });
    } finally {
      await chain.send(V1_VAULT.address, v1.vaultAbi, 'setAckViewsEnabled', [true]);
    }
  });
});

describe('rejections: never clamped, each with its own code', () => {
  const receiver = () => chain.accounts[1]!.address;
  const cases: Array<[string, () => Record<string, unknown>, string]> = [
    ['more than 6 decimal places', () => ({ amountUsdg: '1.0000001', receiver: receiver() }), 'AMOUNT_TOO_MANY_DECIMALS'],
    ['zero', () => ({ amountUsdg: '0.000000', receiver: receiver() }), 'AMOUNT_NOT_POSITIVE'],
    ['negative', () => ({ amountUsdg: '-5', receiver: receiver() }), 'AMOUNT_NOT_POSITIVE'],
    ['more than 10,000 USDG', () => ({ amountUsdg: '10000.000001', receiver: receiver() }), 'AMOUNT_ABOVE_PACK_MAX'],
    ['a malformed amount', () => ({ amountUsdg: '1e3', receiver: receiver() }), 'AMOUNT_MALFORMED'],
    ['an amount given as a JSON number', () => ({ amountUsdg: 12.5, receiver: receiver() }), 'AMOUNT_MALFORMED'],
    ['the vault as receiver', () => ({ amountUsdg: '1', receiver: V1_VAULT.address }), 'RECEIVER_IS_VAULT'],
    ['the USDG token as receiver', () => ({ amountUsdg: '1', receiver: USDG.address.toLowerCase() }), 'RECEIVER_IS_USDG_TOKEN'],
    ['the zero address as receiver', () => ({ amountUsdg: '1', receiver: `0x${'0'.repeat(40)}` }), 'RECEIVER_ZERO_ADDRESS'],
    ['a malformed receiver', () => ({ amountUsdg: '1', receiver: '0x1234' }), 'RECEIVER_MALFORMED'],
    [
      'a receiver with a wrong checksum',
      () => ({ amountUsdg: '1', receiver: receiver().replace(/[a-f]/, (c) => c.toUpperCase()) }),
      'RECEIVER_MALFORMED',
    ],
    ['an unknown vault', () => ({ vaultId: 'another-vault', amountUsdg: '1', receiver: receiver() }), 'VAULT_UNKNOWN'],
    [
      'the V2 vault (not a Rail A vault)',
      () => ({ vaultId: V2_SUITE[0]!.address, amountUsdg: '1', receiver: receiver() }),
      'VAULT_UNKNOWN',
    ],
    ['a lifetime below the bounds', () => ({ amountUsdg: '1', receiver: receiver(), expiresInSeconds: 59 }), 'EXPIRY_OUT_OF_BOUNDS'],
    ['a lifetime above the bounds', () => ({ amountUsdg: '1', receiver: receiver(), expiresInSeconds: 86_401 }), 'EXPIRY_OUT_OF_BOUNDS'],
  ];
  for (const [name, body, code] of cases) {
    it(`refuses ${name} with ${code}`, async () => {
      const res = await prepare(body());
      expect(res.json.error?.code).toBe(code);
      expect(res.status).toBe(code === 'VAULT_UNKNOWN' ? 404 : 400);
      expect(res.json.pack).toBeUndefined();
      expect(res.json.liveOrderSent).toBe(false);
    });
  }

  it('accepts exactly 10,000 USDG and exactly 6 decimal places', async () => {
    expect((await prepare({ amountUsdg: '10000', receiver: receiver() })).json.pack.amountUnits).toBe('10000000000');
    expect((await prepare({ amountUsdg: '0.000001', receiver: receiver() })).json.pack.amountUnits).toBe('1');
  });
});

describe('vault-scoped deposit routes', () => {
  it('deposit-partnerbot-intent is Mode A pinned to the slug; an unknown slug fails closed', async () => {
    const res = await server.post(`/api/vaults/${V1_VAULT.slug}/deposit-partnerbot-intent`, {
      amountUsdg: '42',
      receiver: chain.accounts[1]!.address,
      nowIso: NOW,
    });
    expect(res.status).toBe(200);
    expect(res.json.pack).toMatchObject({ vaultSlug: V1_VAULT.slug, amountUnits: '42000000' });
    const direct = await prepare({ amountUsdg: '42', receiver: chain.accounts[1]!.address });
    expect(res.json.pack.planHash).toBe(direct.json.pack.planHash);
    const unknown = await server.post('/api/vaults/no-such-vault/deposit-partnerbot-intent', {
      amountUsdg: '42',
      receiver: chain.accounts[1]!.address,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('VAULT_UNKNOWN');
  });

  it('deposit-link gives identity, ack texts with keccak256 hashes and the widget link; a full pack with amount and receiver', async () => {
    const bare = await server.get(`/api/vaults/${V1_VAULT.slug}/deposit-link?nowIso=${NOW}`);
    expect(bare.status).toBe(200);
    expect(bare.json).toMatchObject({ full: false, prepared: null, vault: { slug: V1_VAULT.slug, address: V1_VAULT.address } });
    expect(bare.json.ackTexts).toEqual([
      { slot: 'risk', text: 'svc-vault-depositor-risk-ack-v1', keccak256: RISK },
      { slot: 'jurisdiction', text: 'svc-vault-source-disclosure-ack-v1', keccak256: JURISDICTION },
    ]);
    expect(new URL(bare.json.depositLinkUrl).pathname).toBe(`/vaults/${V1_VAULT.slug}/deposit`);

    const amountOnly = await server.get(`/api/vaults/${V1_VAULT.slug}/deposit-link?amount=15.25`);
    expect(amountOnly.json.full).toBe(false);
    expect(new URL(amountOnly.json.depositLinkUrl).searchParams.get('amount')).toBe('15.25');

    const receiver = chain.accounts[1]!.address;
    const full = await server.get(`/api/vaults/${V1_VAULT.slug}/deposit-link?amount=15.25&receiver=${receiver}&nowIso=${NOW}`);
    expect(full.json.full).toBe(true);
    expect(full.json.prepared.pack).toMatchObject({ amount: '15.25', amountUnits: '15250000', receiver });
    const badAmount = await server.get(`/api/vaults/${V1_VAULT.slug}/deposit-link?amount=15.2500001`);
    expect(badAmount.json.error.code).toBe('AMOUNT_TOO_MANY_DECIMALS');
  });
});
