/**
 * Stock-token lane through the real server and a fake partner API (interface 4.5, 2.8, 2.9, 3.1):
 * prepare and every intent rejection, the submit gates one by one and in order, the
 * one-job-per-plan rule (repeated and concurrent), the key only in X-API-Key, partner
 * failures, the console-verification passthrough, and the job-poll mapping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../support/db';
import { startFakePartner, type FakePartner, type PartnerJobStatus } from '../support/fake-partner';
import { secretMarker, startServer, type TestServer } from '../support/server';
import { AAPL, freshNowIso, intent, NVDA, planHashOf } from '../support/stock-intents';
import { USDG, WETH } from '../../src/lib/server/registry';

const PREPARE = '/api/stocks/prepare-partner-command';
const SUBMIT = '/api/stocks/submit-partner-intent';

const apiKey = secretMarker('partner');
let partner: FakePartner;
let main: TestServer; // lane enabled, default cap 500, short partner timeout
let laneOff: TestServer; // key and URL set, PARTNER_AGENT_API_ENABLED unset
let noKey: TestServer; // enabled, no key
let cap100: TestServer; // lane enabled, notional cap 100
let noUrl: TestServer; // nothing of the partner configured
let db: TestDb; // main's database

beforeAll(async () => {
  partner = await startFakePartner({ apiKey });
  const enabled = { PARTNER_API_URL: partner.url, PARTNER_API_KEY: apiKey, PARTNER_AGENT_API_ENABLED: 'true', PARTNER_TIMEOUT_MS: '1500' };
  [main, laneOff, noKey, cap100, noUrl] = await Promise.all([
    startServer({ env: enabled }),
    startServer({ env: { PARTNER_API_URL: partner.url, PARTNER_API_KEY: apiKey } }),
    startServer({ env: { PARTNER_API_URL: partner.url, PARTNER_AGENT_API_ENABLED: 'true' } }),
    startServer({ env: { ...enabled, PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD: '100' } }),
    startServer(),
  ]);
  db = openTestDb(main.databaseUrl);
});
afterAll(async () => {
  await db?.$disconnect();
  await Promise.all([main?.stop(), laneOff?.stop(), noKey?.stop(), cap100?.stop(), noUrl?.stop()]);
  await partner?.stop();
});

/** Partner requests made while `fn` ran. */
async function partnerRequestsDuring(fn: () => Promise<unknown>) {
  const before = partner.requests.length;
  await fn();
  return partner.requests.slice(before);
}

async function prepared(server: TestServer, overrides: Record<string, unknown> = {}) {
  const body = intent(overrides);
  const res = await server.post(PREPARE, { intent: body, nowIso: freshNowIso() });
  expect(res.status, res.text).toBe(200);
  return { intent: body, planHash: res.json.planHash as string, generatedAt: res.json.generatedAt as string, res };
}

function submit(server: TestServer, p: { intent: Record<string, unknown>; planHash: string; generatedAt: string }) {
  return server.post(SUBMIT, { intent: p.intent, userConfirmedPlanHash: p.planHash, nowIso: p.generatedAt });
}

describe('GET /api/stocks/partner-status', () => {
  it('reports lane status and submit availability as booleans, never a configured value', async () => {
    const on = await main.get('/api/stocks/partner-status');
    expect(on.status).toBe(200);
    expect(on.json).toMatchObject({
      laneStatus: 'enabled',
      submitAvailable: true,
      partnerAgentApiEnabled: true,
      partnerApiKeyConfigured: true,
      partnerApiUrlConfigured: true,
      prepareAvailable: true,
      notionalCapUsd: 500,
      slippageCapBps: 500,
      svcExecutesTrade: false,
    });
    expect(on.text).not.toContain(partner.url);
    const off = await laneOff.get('/api/stocks/partner-status');
    expect(off.json).toMatchObject({
      laneStatus: 'not_enabled',
      submitAvailable: false,
      partnerAgentApiEnabled: false,
      partnerApiKeyConfigured: true,
    });
    const missingKey = await noKey.get('/api/stocks/partner-status');
    expect(missingKey.json).toMatchObject({ submitAvailable: false, partnerAgentApiEnabled: true, partnerApiKeyConfigured: false });
    expect((await cap100.get('/api/stocks/partner-status')).json.notionalCapUsd).toBe(100);
  });
});

describe('POST /api/stocks/prepare-partner-command', () => {
  it('returns the plan, its documented hash, generatedAt, the hard flags and the command pack, and records the receipt as prepared', async () => {
    const nowIso = '2026-03-02T10:00:00Z';
    const res = await main.post(PREPARE, { intent: intent(), nowIso });
    expect(res.status, res.text).toBe(200);
    const body = res.json;
    expect(body.generatedAt).toBe('2026-03-02T10:00:00.000Z');
    expect(body.planHash).toBe(planHashOf(intent(), nowIso));
    expect(body.plan.intent).toEqual(intent());
    expect(body).toMatchObject({
      svcExecutesTrade: false,
      svcCollectsLocation: false,
      requiresPartnerLocationVerification: true,
      partnerContacted: false,
    });
    expect(body.plan).toMatchObject({
      svcExecutesTrade: false,
      svcCollectsLocation: false,
      requiresPartnerLocationVerification: true,
      chainId: 4663,
    });
    expect(body.commandPack).toEqual({
      social: '@partnerbot buy $25 of NVDA on broker',
      cli: 'partner --ni "buy $25 of NVDA on broker"',
      agentApi: {
        method: 'POST',
        url: `${partner.url}/agent/prompt`,
        authHeaderName: 'X-API-Key',
        apiKeyEnvVar: 'PARTNER_API_KEY',
        body: { prompt: 'buy $25 of NVDA on broker' },
        pollUrlTemplate: `${partner.url}/agent/job/{jobId}`,
        partnerApiUrlConfigured: true,
        urlNote: expect.stringContaining('PARTNER_API_URL'),
      },
      // Who runs the trade, and how to hand it over on this deployment (the lane is on here).
      handOver: {
        runsTheTrade: 'partner',
        whoRunsTheTrade: expect.stringContaining('The partner (the external trading agent, @partnerbot) places and settles the trade'),
        throughThisService: true,
        steps: [
          expect.stringContaining('Hand the plan over from this service'),
          expect.stringContaining('Post the social command to @partnerbot'),
          `Or send the agent API request to ${partner.url}/agent/prompt with your own partner API key in the X-API-Key header.`,
        ],
      },
      chainId: 4663,
      canonical: { targetSymbol: 'NVDA', targetTokenAddress: NVDA, usdgAddress: USDG.address },
    });
    expect(body.receipt.status).toBe('prepared');
    const stored = await main.get(`/api/stocks/receipts/${body.planHash}`);
    expect(stored.status).toBe(200);
    expect(stored.json.receipt).toMatchObject({ status: 'prepared', jobId: null, txHash: null, planHash: body.planHash });
    expect(stored.json.receipt.history).toEqual([
      expect.objectContaining({ seq: 1, trigger: 'prepare', fromStatus: null, toStatus: 'prepared' }),
    ]);
    // The plan's life runs from this server's first prepare (its clock), not from nowIso.
    expect(body.plan.lifetimeSeconds).toBe(900);
    expect(body.plan.expiresAt).toBe(stored.json.receipt.expiresAt);
    expect(Date.parse(body.plan.expiresAt) - Date.parse(stored.json.receipt.firstPreparedAt)).toBe(900_000);
    expect(body.plan.expiresAt).not.toBe('2026-03-02T10:15:00.000Z');
  });

  it('names the configured partner address in the command pack, and keeps the placeholder (saying so) only when none is configured', async () => {
    const res = await noUrl.post(PREPARE, { intent: intent(), nowIso: freshNowIso() });
    expect(res.status, res.text).toBe(200);
    expect(res.json.commandPack.agentApi).toMatchObject({
      url: '{partner_api_url}/agent/prompt',
      pollUrlTemplate: '{partner_api_url}/agent/job/{jobId}',
      partnerApiUrlConfigured: false,
      urlNote: expect.stringMatching(/PARTNER_API_URL is not configured/),
    });
    const configured = (await laneOff.post(PREPARE, { intent: intent(), nowIso: freshNowIso() })).json.commandPack.agentApi;
    expect(configured).toMatchObject({
      url: `${partner.url}/agent/prompt`,
      pollUrlTemplate: `${partner.url}/agent/job/{jobId}`,
      partnerApiUrlConfigured: true,
    });
  });

  it('is deterministic: the same intent at the same nowIso gives a byte-identical answer and one receipt', async () => {
    const nowIso = freshNowIso();
    const a = await main.post(PREPARE, { intent: intent(), nowIso });
    const b = await main.post(PREPARE, { intent: intent(), nowIso });
    expect(a.text).toBe(b.text);
    const c = await main.post(PREPARE, { intent: intent(), nowIso: new Date(Date.parse(nowIso) + 1000).toISOString() });
    expect(c.json.planHash).not.toBe(a.json.planHash);
  });

  it('normalises only losslessly: a lower-case address and ticker name the same plan', async () => {
    const nowIso = freshNowIso();
    const res = await main.post(PREPARE, { intent: intent({ targetSymbol: 'nvda', targetTokenAddress: NVDA.toLowerCase() }), nowIso });
    expect(res.status).toBe(200);
    expect(res.json.plan.intent.targetTokenAddress).toBe(NVDA);
    expect(res.json.planHash).toBe(planHashOf(intent(), nowIso));
  });

  it('derives every command from the intent and ends each with "on broker"', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ side: 'buy', inputAmount: '12.50' }, 'buy $12.50 of NVDA on broker'],
      [{ side: 'swap', inputAmount: '40' }, 'swap $40 of USDG to NVDA on broker'],
      [{ side: 'sell', inputAmount: '7', targetSymbol: 'AAPL', targetTokenAddress: AAPL }, 'sell $7 of AAPL on broker'],
    ];
    for (const [overrides, command] of cases) {
      const res = await main.post(PREPARE, { intent: intent(overrides), nowIso: freshNowIso() });
      expect(res.status, res.text).toBe(200);
      const pack = res.json.commandPack;
      expect(pack.social).toBe(`@partnerbot ${command}`);
      expect(pack.cli).toBe(`partner --ni "${command}"`);
      expect(pack.agentApi.body.prompt).toBe(command);
      for (const text of [pack.social, pack.agentApi.body.prompt, pack.cli.replace(/"$/, '')])
        expect(text.endsWith(' on broker')).toBe(true);
    }
  });

  it('never contacts the partner', async () => {
    const seen = await partnerRequestsDuring(async () => {
      for (let i = 0; i < 3; i++) expect((await main.post(PREPARE, { intent: intent(), nowIso: freshNowIso() })).status).toBe(200);
      await main.post(PREPARE, { intent: intent({ maxSlippageBps: 900 }) });
    });
    expect(seen).toEqual([]);
  });
});

describe('intent rejections (422 STOCK_INTENT_INVALID, one code per rule, never clamped)', () => {
  const rejections: Array<[string, Record<string, unknown>, string]> = [
    [
      'a non-canonical target address',
      { targetSymbol: 'XNVDA', targetTokenAddress: '0x1111111111111111111111111111111111111111' },
      'NON_CANONICAL_ADDRESS',
    ],
    [
      'a canonical ticker at another address',
      { targetSymbol: 'NVDA', targetTokenAddress: '0x2222222222222222222222222222222222222222' },
      'TICKER_ADDRESS_MISMATCH',
    ],
    [
      "a canonical ticker at another canonical token's address",
      { targetSymbol: 'NVDA', targetTokenAddress: AAPL },
      'TICKER_ADDRESS_MISMATCH',
    ],
    ['a ticker-only intent', { targetTokenAddress: undefined }, 'TARGET_ADDRESS_REQUIRED'],
    ['a malformed address', { targetTokenAddress: '0x1234' }, 'TARGET_ADDRESS_MALFORMED'],
    ['a non-stock canonical token (USDG)', { targetSymbol: 'USDG', targetTokenAddress: USDG.address }, 'TARGET_NOT_STOCK_TOKEN'],
    ['a non-stock canonical token (WETH)', { targetSymbol: 'WETH', targetTokenAddress: WETH.address }, 'TARGET_NOT_STOCK_TOKEN'],
    ['an unknown ticker at a canonical address', { targetSymbol: 'NVDAX', targetTokenAddress: NVDA }, 'TARGET_SYMBOL_MISMATCH'],
    ['slippage above 500 bps', { maxSlippageBps: 501 }, 'SLIPPAGE_ABOVE_CAP'],
    ['a fractional slippage', { maxSlippageBps: 10.5 }, 'SLIPPAGE_INVALID'],
    ['a negative slippage', { maxSlippageBps: -1 }, 'SLIPPAGE_INVALID'],
    ['a notional above the cap', { maxNotionalUsd: 500.01 }, 'NOTIONAL_ABOVE_CAP'],
    ['a zero notional', { maxNotionalUsd: 0 }, 'NOTIONAL_INVALID'],
    ["an amount above the intent's own notional", { inputAmount: '150', maxNotionalUsd: 100 }, 'INPUT_AMOUNT_ABOVE_MAX_NOTIONAL'],
    ['a malformed amount', { inputAmount: '25USD' }, 'INPUT_AMOUNT_INVALID'],
    ['an amount with 7 decimals', { inputAmount: '1.0000001' }, 'INPUT_AMOUNT_INVALID'],
    ['a zero amount', { inputAmount: '0' }, 'INPUT_AMOUNT_INVALID'],
    ['a wrong chain', { chainId: 1 }, 'WRONG_CHAIN'],
    [
      'a missing exposure acknowledgment',
      { userAcknowledgedTokenizedExposureNotDirectStockOwnership: undefined },
      'ACK_TOKENIZED_EXPOSURE_REQUIRED',
    ],
    [
      'a false exposure acknowledgment',
      { userAcknowledgedTokenizedExposureNotDirectStockOwnership: false },
      'ACK_TOKENIZED_EXPOSURE_REQUIRED',
    ],
    ['a missing partner acknowledgment', { userAcknowledgedPartnerExecutesTrade: undefined }, 'ACK_PARTNER_EXECUTES_REQUIRED'],
    ['a false partner acknowledgment', { userAcknowledgedPartnerExecutesTrade: false }, 'ACK_PARTNER_EXECUTES_REQUIRED'],
    [
      'a vault_operator_rebalance intent without an explicit venue',
      { mode: 'vault_operator_rebalance' },
      'VENUE_REQUIRED_FOR_VAULT_REBALANCE',
    ],
    ['another venue', { venue: 'elsewhere' }, 'VENUE_UNSUPPORTED'],
    ['an unknown mode', { mode: 'autopilot' }, 'MODE_UNSUPPORTED'],
    ['an unknown side', { side: 'short' }, 'SIDE_UNSUPPORTED'],
    ['an input asset other than USDG', { inputAsset: 'USDC' }, 'INPUT_ASSET_UNSUPPORTED'],
  ];

  for (const [what, overrides, code] of rejections) {
    it(`rejects ${what} with ${code} and records nothing`, async () => {
      const nowIso = freshNowIso();
      const body = intent(overrides);
      const res = await main.post(PREPARE, { intent: body, nowIso });
      expect(res.status, res.text).toBe(422);
      expect(res.json.error.code).toBe('STOCK_INTENT_INVALID');
      expect(res.json.error.issues.map((i: { code: string }) => i.code)).toEqual([code]);
      expect(res.json.error.issues[0].path).toMatch(/^intent\./);
      expect(res.json.planHash).toBeUndefined();
      expect(res.json.commandPack).toBeUndefined();
      expect((await main.get(`/api/stocks/receipts/${planHashOf(body, nowIso)}`)).status).toBe(404);
    });
  }

  it('accepts the limits themselves: 500 bps and a notional equal to the cap', async () => {
    const res = await main.post(PREPARE, {
      intent: intent({ maxSlippageBps: 500, maxNotionalUsd: 500, inputAmount: '500' }),
      nowIso: freshNowIso(),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.plan.intent).toMatchObject({ maxSlippageBps: 500, maxNotionalUsd: 500 });
  });

  it('reports every broken rule at once, each with its own code', async () => {
    const res = await main.post(PREPARE, {
      intent: intent({ maxSlippageBps: 900, maxNotionalUsd: 9000, chainId: 8453, userAcknowledgedPartnerExecutesTrade: false }),
    });
    expect(res.status).toBe(422);
    expect(res.json.error.issues.map((i: { code: string }) => i.code).sort()).toEqual([
      'ACK_PARTNER_EXECUTES_REQUIRED',
      'NOTIONAL_ABOVE_CAP',
      'SLIPPAGE_ABOVE_CAP',
      'WRONG_CHAIN',
    ]);
  });

  it('answers wrong types and unknown fields with 400 STOCK_INTENT_SHAPE (no coercion)', async () => {
    for (const body of [
      intent({ maxSlippageBps: '100' }),
      intent({ userAcknowledgedPartnerExecutesTrade: 'true' }),
      intent({ maxNotionalUsd: '100' }),
      intent({ maxSlipageBps: 10 }),
      intent({ inputAmount: 25 }),
    ]) {
      const res = await main.post(PREPARE, { intent: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('STOCK_INTENT_SHAPE');
    }
    const missing = await main.post(PREPARE, {});
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('STOCK_INTENT_SHAPE');
  });
});

describe('POST /api/stocks/submit-partner-intent: gates in order', () => {
  it('gate 1: 503 LANE_NOT_ENABLED when PARTNER_AGENT_API_ENABLED is not true, before the hash is even checked', async () => {
    const p = await prepared(laneOff);
    const seen = await partnerRequestsDuring(async () => {
      const right = await submit(laneOff, p);
      expect(right.status).toBe(503);
      expect(right.json.error.code).toBe('LANE_NOT_ENABLED');
      expect(right.json.error.issues.map((i: { code: string }) => i.code)).toEqual(['PARTNER_AGENT_API_DISABLED']);
      const wrongHash = await submit(laneOff, { ...p, planHash: '0'.repeat(64) });
      expect(wrongHash.status).toBe(503);
    });
    expect(seen).toEqual([]);
    expect((await laneOff.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt.status).toBe('prepared');
  });

  it('gate 1: 503 LANE_NOT_ENABLED when PARTNER_API_KEY is missing', async () => {
    const p = await prepared(noKey);
    const seen = await partnerRequestsDuring(async () => {
      const res = await submit(noKey, p);
      expect(res.status).toBe(503);
      expect(res.json.error.code).toBe('LANE_NOT_ENABLED');
      expect(res.json.error.issues.map((i: { code: string }) => i.code)).toEqual(['PARTNER_API_KEY_MISSING']);
    });
    expect(seen).toEqual([]);
  });

  it('gate 2: 409 PLAN_HASH_MISMATCH for another hash, another nowIso or a changed intent', async () => {
    const p = await prepared(main);
    const seen = await partnerRequestsDuring(async () => {
      const attempts = [
        submit(main, { ...p, planHash: 'f'.repeat(64) }),
        submit(main, { ...p, generatedAt: new Date(Date.parse(p.generatedAt) + 1).toISOString() }),
        submit(main, { ...p, intent: { ...p.intent, inputAmount: '26' } }),
        submit(main, { ...p, intent: { ...p.intent, maxSlippageBps: 101 } }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status, res.text).toBe(409);
        expect(res.json.error.code).toBe('PLAN_HASH_MISMATCH');
      }
    });
    expect(seen).toEqual([]);
    expect((await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt.status).toBe('prepared');
  });

  it("gate 3: the notional is revalidated against this server's cap (a plan confirmed under a higher cap is refused)", async () => {
    const p = await prepared(main, { maxNotionalUsd: 400, inputAmount: '300' });
    const seen = await partnerRequestsDuring(async () => {
      const res = await submit(cap100, p);
      expect(res.status, res.text).toBe(422);
      expect(res.json.error.code).toBe('STOCK_INTENT_INVALID');
      expect(res.json.error.issues.map((i: { code: string }) => i.code)).toEqual(['NOTIONAL_ABOVE_CAP']);
    });
    expect(seen).toEqual([]);
  });

  it('gate 2 comes before gate 3, and gate 3 before gate 4', async () => {
    const overCap = await prepared(main, { maxNotionalUsd: 400, inputAmount: '300' });
    const wrongHash = await submit(cap100, { ...overCap, planHash: 'a'.repeat(64) });
    expect(wrongHash.status).toBe(409);
    const rebalanceOverCap = await prepared(main, {
      mode: 'vault_operator_rebalance',
      venue: 'broker',
      maxNotionalUsd: 400,
      inputAmount: '300',
    });
    const res = await submit(cap100, rebalanceOverCap);
    expect(res.status).toBe(422);
    expect(res.json.error.issues.map((i: { code: string }) => i.code)).toEqual(['NOTIONAL_ABOVE_CAP']);
  });

  it('gate 4: 403 VAULT_REBALANCE_NOT_ALLOWED_HERE for a vault_operator_rebalance intent, even fully confirmed', async () => {
    const p = await prepared(main, { mode: 'vault_operator_rebalance', venue: 'broker' });
    expect(p.res.json.commandPack.social).toBe('@partnerbot buy $25 of NVDA on broker');
    const seen = await partnerRequestsDuring(async () => {
      const res = await submit(main, p);
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('VAULT_REBALANCE_NOT_ALLOWED_HERE');
    });
    expect(seen).toEqual([]);
    expect((await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt.status).toBe('prepared');
  });

  it('revalidates the whole intent: a confirmed hash of an invalid intent is still refused', async () => {
    const nowIso = freshNowIso();
    const bad = intent({ targetSymbol: 'XNVDA', targetTokenAddress: '0x3333333333333333333333333333333333333333' });
    const res = await main.post(SUBMIT, { intent: bad, userConfirmedPlanHash: planHashOf(bad, nowIso), nowIso });
    expect(res.status).toBe(422);
    expect(res.json.error.issues.map((i: { code: string }) => i.code)).toEqual(['NON_CANONICAL_ADDRESS']);
  });
});

describe("POST /api/stocks/submit-partner-intent: a plan has a bounded life on the server's clock", () => {
  it('refuses (409 PLAN_EXPIRED) a plan first prepared more than 15 minutes ago, although nowIso names its generatedAt; preparing it again does not revive it', async () => {
    const p = await prepared(main, { inputAmount: '17' });
    // The plan's first prepare (a server-clock fact stored with it) moved 16 minutes back.
    const firstPreparedAt = new Date(Date.now() - 16 * 60_000);
    await db.stockReceipt.update({ where: { planHash: p.planHash }, data: { firstPreparedAt } });
    const seen = await partnerRequestsDuring(async () => {
      const res = await submit(main, p);
      expect(res.status, res.text).toBe(409);
      expect(res.json.error.code).toBe('PLAN_EXPIRED');
      expect(res.json.error.issues[0]).toMatchObject({ code: 'PLAN_EXPIRED', path: 'userConfirmedPlanHash' });
      const again = await main.post(PREPARE, { intent: p.intent, nowIso: p.generatedAt });
      expect(again.json.planHash).toBe(p.planHash);
      expect(Date.parse(again.json.plan.expiresAt)).toBe(firstPreparedAt.getTime() + 900_000);
      expect(again.json.nextStep).toMatch(/can no longer be submitted/);
      expect((await submit(main, p)).json.error.code).toBe('PLAN_EXPIRED');
    });
    expect(seen).toEqual([]);
    expect((await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt).toMatchObject({ status: 'prepared', jobId: null });
  });

  it('accepts a plan within its life even when its nowIso lies far in the past (nowIso names the plan, it is not the clock)', async () => {
    const body = intent({ inputAmount: '18' });
    const nowIso = '2020-01-01T00:00:00.000Z';
    const prep = await main.post(PREPARE, { intent: body, nowIso });
    expect(prep.status).toBe(200);
    const res = await submit(main, { intent: body, planHash: prep.json.planHash, generatedAt: nowIso });
    expect(res.status, res.text).toBe(200);
    expect(res.json.receiptStatus).toBe('job_pending');
  });
});

describe('POST /api/stocks/submit-partner-intent: one partner job per confirmed plan', () => {
  it('sends exactly one job with the key only in X-API-Key, and a second submit sends nothing', async () => {
    const p = await prepared(main);
    let jobId = '';
    const first = await partnerRequestsDuring(async () => {
      const res = await submit(main, p);
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ receiptStatus: 'job_pending', replayed: false, planHash: p.planHash, svcExecutesTrade: false });
      jobId = res.json.jobId;
    });
    expect(partner.jobs.has(jobId)).toBe(true);
    expect(first).toHaveLength(1);
    const call = first[0]!;
    expect(call.method).toBe('POST');
    expect(call.path).toBe('/agent/prompt');
    expect(JSON.parse(call.body)).toEqual({ prompt: 'buy $25 of NVDA on broker' });
    expect(call.headers['x-api-key']).toBe(apiKey);
    const elsewhere = Object.entries(call.headers).filter(([name, value]) => name !== 'x-api-key' && String(value).includes(apiKey));
    expect(elsewhere).toEqual([]);
    expect(call.body).not.toContain(apiKey);
    expect(call.path).not.toContain(apiKey);

    const again = await partnerRequestsDuring(async () => {
      const res = await submit(main, p);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ replayed: true, jobId });
    });
    expect(again).toEqual([]);
    const receipt = (await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt;
    expect(receipt).toMatchObject({ status: 'job_pending', partnerJobStatus: 'pending' });
    expect(receipt.history.map((h: { trigger: string; toStatus: string }) => `${h.trigger}:${h.toStatus}`)).toEqual([
      'prepare:prepared',
      'submit:job_pending',
    ]);
  });

  it('@persistence sends one job when the same plan is submitted concurrently (and without a prior prepare)', async () => {
    const nowIso = freshNowIso();
    const body = intent({ inputAmount: '33' });
    const planHash = planHashOf(body, nowIso);
    partner.failNextSubmit({ kind: 'delay', ms: 400 });
    const seen = await partnerRequestsDuring(async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => main.post(SUBMIT, { intent: body, userConfirmedPlanHash: planHash, nowIso })),
      );
      for (const res of answers) expect(res.status, res.text).toBe(200);
      expect(new Set(answers.map((r) => r.json.jobId)).size).toBe(1);
      expect(answers.filter((r) => r.json.replayed === false)).toHaveLength(1);
    });
    expect(seen.filter((r) => r.path === '/agent/prompt')).toHaveLength(1);
    const receipt = (await main.get(`/api/stocks/receipts/${planHash}`)).json.receipt;
    expect(receipt.history.filter((h: { trigger: string }) => h.trigger === 'submit')).toHaveLength(1);
  });

  it('a partner timeout is 502 PARTNER_TIMEOUT and leaves the receipt where it was; a later submit sends one job', async () => {
    const p = await prepared(main);
    partner.failNextSubmit({ kind: 'hang' });
    const res = await submit(main, p);
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe('PARTNER_TIMEOUT');
    const receipt = (await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt;
    expect(receipt).toMatchObject({ status: 'prepared', jobId: null });
    expect(receipt.history).toHaveLength(1);
    const retry = await partnerRequestsDuring(async () => expect((await submit(main, p)).status).toBe(200));
    expect(retry).toHaveLength(1);
  });

  it('a partner 5xx is 502 PARTNER_HTTP_ERROR and leaves the receipt where it was', async () => {
    const p = await prepared(main);
    partner.failNextSubmit({ kind: 'status', status: 503 });
    const res = await submit(main, p);
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe('PARTNER_HTTP_ERROR');
    expect((await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt).toMatchObject({ status: 'prepared', jobId: null });
  });

  it('malformed JSON and a dropped connection from the partner are 502s that leave the receipt where it was', async () => {
    const p = await prepared(main);
    partner.failNextSubmit({ kind: 'bad_json' });
    const bad = await submit(main, p);
    expect(bad.status).toBe(502);
    expect(bad.json.error.code).toBe('PARTNER_INVALID_OUTPUT');
    partner.failNextSubmit({ kind: 'reset' });
    const reset = await submit(main, p);
    expect(reset.status).toBe(502);
    expect(reset.json.error.code).toBe('PARTNER_HTTP_ERROR');
    expect((await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt).toMatchObject({ status: 'prepared', jobId: null });
  });

  it('passes a console-verification refusal through as PARTNER_EXTERNAL_VERIFICATION_REQUIRED, asking for no location itself', async () => {
    const p = await prepared(main);
    partner.failNextSubmit({
      kind: 'status',
      status: 403,
      body: JSON.stringify({ success: false, error: 'Please complete identity verification in the partner console before trading.' }),
    });
    const seen = await partnerRequestsDuring(async () => {
      const res = await submit(main, p);
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('PARTNER_EXTERNAL_VERIFICATION_REQUIRED');
      expect(res.json.error.message).toMatch(/collects no location/);
    });
    expect(seen).toHaveLength(1);
    expect(Object.keys(JSON.parse(seen[0]!.body))).toEqual(['prompt']);
    expect((await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt).toMatchObject({ status: 'prepared', jobId: null });
    // A refusal that is not about verification stays an upstream error.
    partner.failNextSubmit({ kind: 'status', status: 401, body: JSON.stringify({ success: false, error: 'Invalid API key' }) });
    const other = await submit(main, p);
    expect(other.status).toBe(502);
    expect(other.json.error.code).toBe('PARTNER_HTTP_ERROR');
  });
});

describe('GET /api/stocks/partner-job/{jobId}', () => {
  it('maps each of the five partner statuses to its receipt state', async () => {
    const p = await prepared(main);
    const jobId = (await submit(main, p)).json.jobId as string;
    const mapping: Array<[PartnerJobStatus, string]> = [
      ['pending', 'job_pending'],
      ['processing', 'job_processing'],
      ['completed', 'job_completed_unconfirmed'],
      ['failed', 'job_failed'],
      ['cancelled', 'job_cancelled'],
    ];
    for (const [partnerStatus, receiptStatus] of mapping) {
      partner.setJob(jobId, { statuses: [partnerStatus], reads: 0 });
      const res = await main.get(`/api/stocks/partner-job/${jobId}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ jobId, partnerJobStatus: partnerStatus, receiptStatus, svcExecutesTrade: false });
      expect(res.json.receipt.status).toBe(receiptStatus);
      expect(res.text).not.toMatch(/"status":"(filled|executed|settled)"/);
    }
    const history = (await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt.history;
    expect(history.map((h: { toStatus: string }) => h.toStatus)).toEqual([
      'prepared',
      'job_pending',
      'job_processing',
      'job_completed_unconfirmed',
      'job_failed',
      'job_cancelled',
    ]);
  });

  it("says a completed job is the partner's word, unconfirmed, and never relays the partner's own text", async () => {
    const p = await prepared(main);
    const jobId = (await submit(main, p)).json.jobId as string;
    partner.setJob(jobId, { statuses: ['completed'], response: 'I bought 0.18 NVDA for you. Trade executed.' });
    const res = await main.get(`/api/stocks/partner-job/${jobId}`);
    expect(res.status).toBe(200);
    expect(res.json.receiptStatus).toBe('job_completed_unconfirmed');
    expect(res.json.statusMeaning).toMatch(/unconfirmed until reconciled on chain/);
    expect(res.text).not.toContain('I bought');
  });

  it('answers 404 STOCK_JOB_UNKNOWN for a job no receipt records, without asking the partner', async () => {
    const seen = await partnerRequestsDuring(async () => {
      const res = await main.get('/api/stocks/partner-job/job_9999');
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe('STOCK_JOB_UNKNOWN');
    });
    expect(seen).toEqual([]);
  });

  it('a partner failure while polling is a 502 that leaves the receipt where it was', async () => {
    const p = await prepared(main);
    const jobId = (await submit(main, p)).json.jobId as string;
    partner.failNextJobRead({ kind: 'status', status: 500 });
    const res = await main.get(`/api/stocks/partner-job/${jobId}`);
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe('PARTNER_HTTP_ERROR');
    partner.failNextJobRead({ kind: 'hang' });
    const slow = await main.get(`/api/stocks/partner-job/${jobId}`);
    expect(slow.status).toBe(502);
    expect(slow.json.error.code).toBe('PARTNER_TIMEOUT');
    const receipt = (await main.get(`/api/stocks/receipts/${p.planHash}`)).json.receipt;
    expect(receipt.status).toBe('job_pending');
    expect(receipt.history).toHaveLength(2);
  });
});

describe('typed client', () => {
  it('reaches the same procedures at /trpc with the same status codes', async () => {
    const status = await main.get('/trpc/stocks.partnerStatus');
    expect(status.status).toBe(200);
    expect(status.json.result.data.submitAvailable).toBe(true);
    const rejected = await main.post('/trpc/stocks.prepare', { intent: intent({ maxSlippageBps: 501 }) });
    expect(rejected.status).toBe(422);
    expect(rejected.json.error.data.svcCode).toBe('STOCK_INTENT_INVALID');
  });
});
