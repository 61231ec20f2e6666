/**
 * The two reads the deposit page moves on, through the real server and the local chain:
 * GET /api/vaults/{slug}/deposit-account (the wallet's USDG balance and its allowance for the
 * vault, live or unknown, never 0 for a read that failed) and
 * GET /api/vaults/{slug}/approval-status/{txHash} (an approval is proven only by a confirmed
 * transaction to the USDG token whose Approval event lets the vault spend at least the amount;
 * a deposit, a pending, a too-small or another owner's approval is not).
 */
import { encodeFunctionData, parseAbi, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { V1_VAULT } from '../../src/lib/server/vaults/registry';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain';
import { placeV1Vault, usdgUnits, type PlacedV1 } from '../support/chain/vaults';
import { freePort, startServer, type TestServer } from '../support/server';

let chain: LocalChain;
let server: TestServer;
let down: TestServer;
let v1: PlacedV1;
const OWNER = 2;
const ERC20 = parseAbi(['function approve(address spender, uint256 amount) returns (bool)']);

beforeAll(async () => {
  chain = await startLocalChain();
  v1 = await placeV1Vault(chain);
  await chain.send(USDG.address as Address, v1.usdgAbi, 'mint', [chain.accounts[OWNER]!.address, usdgUnits('40.25')]);
  server = await startServer({ env: { BROKER_CHAIN_RPC_URL: chain.rpcUrl } });
  down = await startServer({ env: { BROKER_CHAIN_RPC_URL: `http://127.0.0.1:${await freePort()}/closed` } });
});
afterAll(async () => {
  await server?.stop();
  await down?.stop();
  await chain?.stop();
});

async function approve(from: number, spender: Address, amount: string, mine = true): Promise<Hex> {
  const wallet = chain.wallet(from);
  const hash = await wallet.sendTransaction({
    to: USDG.address as Address,
    data: encodeFunctionData({ abi: ERC20, functionName: 'approve', args: [spender, usdgUnits(amount)] }),
    account: wallet.account,
    chain: wallet.chain,
  });
  if (mine) await chain.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

const owner = () => chain.accounts[OWNER]!.address;
const account = (s: TestServer, who: string) => s.get(`/api/vaults/${V1_VAULT.slug}/deposit-account?owner=${who}`);
const approvalStatus = (hash: string, amount: string, who = owner()) =>
  server.get(`/api/vaults/${V1_VAULT.slug}/approval-status/${hash}?owner=${who}&amount=${amount}`);

describe('deposit account', () => {
  it('reads the balance and the allowance for the vault live, on the server clock', async () => {
    const res = await account(server, owner());
    expect(res.status).toBe(200);
    expect(res.json.account).toMatchObject({
      owner: owner(),
      vaultAddress: V1_VAULT.address,
      usdgAddress: USDG.address,
      chainIdVerified: true,
      balance: { state: 'live', units: '40250000', usdg: '40.25' },
      allowance: { state: 'live', units: '0', usdg: '0' },
    });
    expect(Number.isNaN(Date.parse(res.json.account.checkedAt))).toBe(false);
    expect(res.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
  });

  it('is unknown with the reason when the chain cannot be read: never 0', async () => {
    const res = await account(down, owner());
    expect(res.status).toBe(200);
    expect(res.json.account.chainIdVerified).toBe(false);
    for (const reading of [res.json.account.balance, res.json.account.allowance]) {
      expect(reading).toMatchObject({ state: 'unknown', reasonCode: 'rpc_unreachable' });
      expect(reading).not.toHaveProperty('units');
    }
    expect(res.text).not.toContain('/closed');
  });

  it('refuses a malformed owner or the vault itself with 400, naming the field', async () => {
    const bad = await account(server, '0x1234');
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('RECEIVER_MALFORMED');
    expect(bad.json.error.issues[0].path).toBe('owner');
    expect((await account(server, V1_VAULT.address)).json.error.code).toBe('RECEIVER_IS_VAULT');
  });
});

describe('approval status', () => {
  it('proves an approval of at least the amount for the vault, and shows the allowance it left', async () => {
    const hash = await approve(OWNER, V1_VAULT.address, '12.5');
    const res = await approvalStatus(hash, '12.5');
    expect(res.status).toBe(200);
    expect(res.json.verification).toMatchObject({
      txHash: hash,
      chainIdVerified: true,
      found: true,
      txStatus: 'success',
      spender: V1_VAULT.address,
      token: USDG.address,
      expectedAmountUnits: '12500000',
      approvedUnits: '12500000',
      confirmedApproval: true,
    });
    expect((await approvalStatus(hash, '10')).json.verification.confirmedApproval).toBe(true);
    expect((await account(server, owner())).json.account.allowance).toMatchObject({ state: 'live', units: '12500000' });
  });

  it('does not prove an amount larger than the approval, another owner, another spender, or a pending approval', async () => {
    const hash = await approve(OWNER, V1_VAULT.address, '5');
    const more = (await approvalStatus(hash, '5.000001')).json.verification;
    expect(more).toMatchObject({ confirmedApproval: false, approvedUnits: '5000000' });
    expect(more.reason).toContain('less than');

    const other = (await approvalStatus(hash, '5', chain.accounts[4]!.address)).json.verification;
    expect(other).toMatchObject({ confirmedApproval: false, approvedUnits: null });

    const elsewhere = await approve(OWNER, chain.accounts[6]!.address as Address, '50');
    expect((await approvalStatus(elsewhere, '1')).json.verification).toMatchObject({ txStatus: 'success', confirmedApproval: false });

    await chain.testClient.setAutomine(false);
    try {
      const pending = await approve(OWNER, V1_VAULT.address, '7', false);
      expect((await approvalStatus(pending, '7')).json.verification).toMatchObject({
        found: true,
        txStatus: 'pending',
        confirmedApproval: false,
      });
    } finally {
      await chain.testClient.mine({ blocks: 1 });
      await chain.testClient.setAutomine(true);
    }
  });

  it('a transaction that is not to the USDG token is not an approval; an unknown hash is not found', async () => {
    const wallet = chain.wallet(OWNER);
    const hash = await wallet.sendTransaction({ to: chain.accounts[5]!.address, value: 1n, account: wallet.account, chain: wallet.chain });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    const v = (await approvalStatus(hash, '1')).json.verification;
    expect(v).toMatchObject({ txStatus: 'success', confirmedApproval: false });
    expect(v.reason).toContain('not sent to the USDG token');
    expect((await approvalStatus(`0x${'ab'.repeat(32)}`, '1')).json.verification).toMatchObject({
      txStatus: 'not_found',
      confirmedApproval: false,
    });
  });

  it('refuses a malformed hash or amount with 400', async () => {
    expect((await approvalStatus('0x1234', '1')).status).toBe(400);
    const amount = await approvalStatus(`0x${'ab'.repeat(32)}`, '1.1234567');
    expect(amount.status).toBe(400);
    expect(amount.json.error.code).toBe('AMOUNT_TOO_MANY_DECIMALS');
  });
});
