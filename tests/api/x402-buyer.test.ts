/**
 * x402 from a buyer's side (issue 24, point 4), against the real server, the fake facilitator
 * and the local chain 4663:
 *
 * - the `@x402/fetch` example of docs/x402-buyers.md, extracted from the page and run as written
 *   with a viem account, pays: the balances move by the price, the receipt and the settlement
 *   header come back;
 * - the paid route's real 402 challenge and 200 answer match the OpenAPI document, with their
 *   PAYMENT-REQUIRED and PAYMENT-RESPONSE headers;
 * - the payment routes' CORS: a preflight is answered and every answer exposes the payment
 *   headers (the browser's side of it is tests/e2e/x402-cors.test.ts); other routes stay closed;
 * - the v1 network name cannot be paid by the current line's v1 scheme (its network list is
 *   closed), as the page says.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getEvmChainIdV1 } from '@x402/evm/v1';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDG } from '../../src/lib/server/registry';
import { OpenApiContract, operationsOf, undeclaredFields } from '../support/openapi-contract';
import { ROOT } from '../support/server';
import { startChainPaymentLane, type ChainPaymentLane } from '../support/x402-chain-lane';
import { signAuthorization, v2PaymentHeader } from '../support/x402-payer';
import { decodePaymentRequiredHeader } from '@x402/core/http';

const run = promisify(execFile);
const PRICE = 20_000n;
const ROUTE = '/api/vaults/x402/vault-risk-score';
let lane: ChainPaymentLane;

beforeAll(async () => {
  lane = await startChainPaymentLane({ facilitatorTimeoutMs: 5000 });
});
afterAll(async () => {
  await lane?.stop();
});

async function fundedBuyer() {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await lane.chain.send(USDG.address as Address, lane.chain.artifact('TestUSDG').abi, 'mint', [account.address, 1_000_000n]);
  return { key, account };
}

/** The code block of docs/x402-buyers.md between its example markers. */
function buyerExample(): string {
  const page = readFileSync(join(ROOT, 'docs', 'x402-buyers.md'), 'utf8');
  const block = /<!-- buyer-example:start -->\s*```js\n([\s\S]*?)```\s*<!-- buyer-example:end -->/.exec(page);
  if (!block) throw new Error('docs/x402-buyers.md: no buyer example between its markers');
  return block[1]!;
}

describe('the documented @x402/fetch buyer', () => {
  it('runs as written: pays USDG on chain 4663 with its spend controls, and gets the answer, the receipt and the settlement', async () => {
    const { key, account } = await fundedBuyer();
    const before = { buyer: await lane.usdgBalance(account.address), payee: await lane.usdgBalance(lane.payTo) };
    // Inside the project (tmp/ is ignored by git), so the example's imports resolve as in a buyer's project.
    const dir = join(ROOT, 'tmp', `x402-buyer-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'buyer.mjs');
    writeFileSync(file, buyerExample());
    try {
      const { stdout } = await run(process.execPath, [file], { env: { ...process.env, SVC_URL: lane.server.url, BUYER_PRIVATE_KEY: key } });
      const printed = JSON.parse(stdout.trim().split('\n').at(-1)!);
      expect(printed.receiptId).toMatch(/^x402rcpt_[0-9a-f]{32}$/);
      expect(printed.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      expect(printed.score).toBeTruthy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await lane.usdgBalance(account.address)).toBe(before.buyer - PRICE);
    expect(await lane.usdgBalance(lane.payTo)).toBe(before.payee + PRICE);
  });

  it('without USDG in its spend controls the client refuses before signing, and nothing is charged', async () => {
    const { key, account } = await fundedBuyer();
    const before = await lane.usdgBalance(account.address);
    const dir = join(ROOT, 'tmp', `x402-buyer-nocontrols-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'buyer.mjs');
    writeFileSync(file, buyerExample().replace(/\s*spendControls: \{[^\n]*\n/, '\n'));
    try {
      const failed = await run(process.execPath, [file], {
        env: { ...process.env, SVC_URL: lane.server.url, BUYER_PRIVATE_KEY: key },
      }).then(
        () => undefined,
        (error: { stderr: string }) => error,
      );
      expect(failed, 'the client paid an asset it was never allowed').toBeDefined();
      expect(failed!.stderr).toMatch(/rejected by spendControls/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await lane.usdgBalance(account.address)).toBe(before);
  });
});

describe('the paid route against the OpenAPI document', () => {
  it('the 402 challenge and the paid 200 match their declared bodies and headers', async () => {
    const doc = (await lane.server.get('/api/openapi.json')).json;
    const contract = new OpenApiContract(doc);
    const operation = operationsOf(doc).find((o) => o.operationId === 'x402-paidCall')!;
    const body = { allocations: [{ tokenAddress: USDG.address, weightBps: 10000 }] };

    const challenge = await lane.server.post(ROUTE, body);
    expect(challenge.status).toBe(402);
    expect(contract.problems(operation, challenge)).toEqual([]);
    // Every field the challenge sends is declared, so a client generated from the document keeps it.
    expect(undeclaredFields(doc, operation.op.responses['402'].content['application/json'].schema, challenge.json)).toEqual([]);
    expect(challenge.json).toMatchObject({ vaultChain: expect.any(Object), x402PaymentChain: expect.any(Object) });

    const { account } = await fundedBuyer();
    const required = decodePaymentRequiredHeader(challenge.headers.get('payment-required')!);
    const signed = await signAuthorization(account, { to: lane.payTo, value: PRICE });
    const paid = await lane.server.request('POST', ROUTE, {
      body,
      headers: { 'PAYMENT-SIGNATURE': v2PaymentHeader(signed, required.accepts[0]!, required.resource as never) },
    });
    expect(paid.status, paid.text).toBe(200);
    expect(contract.problems(operation, paid)).toEqual([]);
    expect(paid.headers.get('payment-response')).toBeTruthy();
  });
});

describe('CORS of the payment routes', () => {
  it('a preflight from another origin is allowed with the payment headers; answers expose PAYMENT-REQUIRED and PAYMENT-RESPONSE', async () => {
    const preflight = await fetch(`${lane.server.url}${ROUTE}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://buyer.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, payment-signature',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('payment-signature');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();

    const challenge = await lane.server.request('POST', ROUTE, { body: {}, headers: { origin: 'https://buyer.example' } });
    expect(challenge.status).toBe(402);
    expect(challenge.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = challenge.headers
      .get('access-control-expose-headers')!
      .split(',')
      .map((h) => h.trim().toUpperCase());
    expect(exposed).toEqual(expect.arrayContaining(['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE']));
  });

  it('other routes keep the same-origin rule: no CORS headers, OPTIONS is a 405', async () => {
    const res = await lane.server.request('POST', '/api/tools/oracle-policy', { body: {}, headers: { origin: 'https://buyer.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${lane.server.url}/api/tools/oracle-policy`, {
      method: 'OPTIONS',
      headers: { origin: 'https://buyer.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
  });
});

describe('x402 v1 buyers', () => {
  it("the current line's v1 scheme cannot name the spec's v1 network (its list is closed), as docs/x402-buyers.md says", () => {
    expect(() => getEvmChainIdV1('broker')).toThrow(/Unsupported v1 network/);
  });
});
