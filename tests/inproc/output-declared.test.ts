/**
 * Every field a procedure returns is declared by its output schema.
 *
 * zod strips an undeclared key without a word, so a field the domain adds would silently
 * vanish from the answer (and from the OpenAPI document) unless someone also edits the
 * router. Here every procedure is built with its output parser wrapped (tRPC accepts a plain
 * function as a parser): the wrapper records the fields of the procedure's own result that
 * its schema does not declare (tests/support/undeclared.ts), then parses as usual. Each
 * procedure is then called in-process with a representative input, and the test fails on
 * any undeclared field. Why this way rather than comparing a domain function's keys with a
 * schema's shape: it checks what the procedure really returns, nested objects, arrays and
 * unions included, with no list of domain functions to keep in step.
 *
 * A procedure without a representative input here is listed in NOT_WALKED with the reason;
 * the test fails when a new procedure is neither walked nor listed.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadThesisNlp } from '../../src/lib/server/strategist';
import type { z } from 'zod';
import { undeclaredPaths } from '../support/undeclared';
import { makeCoil } from '../support/coils';
import { procedureRecord } from '../../src/lib/server/trpc/route-table';

// The strategist's language model loads on the first thesis; loaded here, no test's clock pays it.
beforeAll(() => loadThesisNlp(), 60_000);

const undeclared = new Map<string, string[]>();
/** Procedures whose output went through the wrapped parser: proves the wrapping took effect. */
const checked = new Set<string>();
let current = '';

vi.mock('../../src/lib/server/trpc/init', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/lib/server/trpc/init')>();
  const isBuilder = (v: unknown): v is object =>
    typeof v === 'object' && v !== null && '_def' in v && typeof (v as { query?: unknown }).query === 'function';
  const wrap = <T extends object>(builder: T): T =>
    new Proxy(builder, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        if (prop === 'output') {
          return (schema: z.ZodType) =>
            wrap(
              value.call(target, async (raw: unknown) => {
                checked.add(current);
                const paths = undeclaredPaths(schema, raw);
                if (paths.length) undeclared.set(current, [...(undeclared.get(current) ?? []), ...paths]);
                return schema.parseAsync(raw);
              }),
            );
        }
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          return isBuilder(result) ? wrap(result) : result;
        };
      },
    });
  return { ...mod, publicProcedure: wrap(mod.publicProcedure) };
});

const { callerFor } = await import('../support/caller');
const { appRouter } = await import('../../src/lib/server/trpc/router');
const { autonomyCoil } = await import('../support/autonomy');
const { rawCoil } = await import('../support/coils');
const { intent } = await import('../support/stock-intents');
const { FEE_CLAIM, NOW_ISO, RECEIVER, REBALANCE_REPORT, VAULT_MANIFEST_INPUT } = await import('../support/new-routes');
const { FakeFacilitator } = await import('../support/fake-facilitator');
const { signAuthorization, v1PaymentHeader, v2PaymentHeader } = await import('../support/x402-payer');
const { findAssetByTicker, USDG } = await import('../../src/lib/server/registry');
const { buildRequirements } = await import('../../src/lib/server/x402/requirements');
const { findPaidService } = await import('../../src/lib/server/x402/catalogue');
const { generatePrivateKey, privateKeyToAccount } = await import('viem/accounts');

type Caller = ReturnType<typeof callerFor>;
type Call = (c: Caller) => Promise<unknown>;

const FACILITATOR_KEY = 'svc-test-facilitator-key-0001';
const facilitator = new FakeFacilitator({ apiKey: FACILITATOR_KEY, orgPayTo: RECEIVER });
const FACILITATOR_ENV: Record<string, string> = {
  FACILITATOR_ENABLED: 'true',
  FACILITATOR_API_KEY: FACILITATOR_KEY,
  FACILITATOR_PAYTO_ADDRESS: RECEIVER,
  FACILITATOR_TIMEOUT_MS: '2000',
};
const paying = () => callerFor({ env: { ...FACILITATOR_ENV, FACILITATOR_URL: facilitator.url } });
const payer = privateKeyToAccount(generatePrivateKey());
const addr = (t: string) => findAssetByTicker(t)!.address;

async function payment(serviceName: string, version: 1 | 2 = 2) {
  const req = buildRequirements(findPaidService(serviceName)!, { payTo: RECEIVER, origin: 'http://localhost:3000' });
  const signed = await signAuthorization(payer, { to: RECEIVER, value: BigInt(req.amountUnits) });
  return version === 1 ? v1PaymentHeader(signed) : v2PaymentHeader(signed, req.v2);
}

async function manifestOf(c: Caller) {
  return ((await c.vaults.createManifest({ ...VAULT_MANIFEST_INPUT, nowIso: NOW_ISO } as never)) as { manifest: unknown }).manifest;
}

async function firstVaultSlug(c: Caller): Promise<string> {
  const listed = (await c.vaults.list()) as { vaults: Array<{ slug: string }> };
  return listed.vaults[0]!.slug;
}

/** One representative call per procedure; a list where the answer has several shapes. */
const WALK: Record<string, Call[]> = {
  'system.health': [(c) => c.system.health()],
  'system.readiness': [(c) => c.system.readiness()],
  'system.registry': [(c) => c.system.registry()],
  'system.agentsSchema': [(c) => c.system.agentsSchema()],
  'tools.generateCoil': [(c) => c.tools.generateCoil({ prompt: 'AI chips', nowIso: NOW_ISO } as never)],
  'tools.validateCoil': [(c) => c.tools.validateCoil({ coil: rawCoil(), nowIso: NOW_ISO } as never)],
  'tools.scoreCoil': [(c) => c.tools.scoreCoil({ coil: rawCoil(), nowIso: NOW_ISO } as never)],
  'tools.compileCapsule': [(c) => c.tools.compileCapsule({ coil: rawCoil(), nowIso: NOW_ISO } as never)],
  'tools.riskAudit': [(c) => c.tools.riskAudit({ coil: rawCoil(), nowIso: NOW_ISO } as never)],
  'tools.driftCheck': [(c) => c.tools.driftCheck({ coil: rawCoil(), nowIso: NOW_ISO } as never)],
  'tools.receipt': [(c) => c.tools.receipt({ coil: rawCoil(), nowIso: NOW_ISO } as never)],
  'tools.oraclePolicy': [(c) => c.tools.oraclePolicy({ nowIso: NOW_ISO } as never)],
  'tools.verifyArtifactReceipt': [
    (c) => c.tools.verifyArtifactReceipt({ receipt: { kind: 'post_run_audit' }, subject: { a: 1 }, nowIso: NOW_ISO } as never),
  ],
  'strategist.status': [(c) => c.strategist.status()],
  'autonomy.validateAutonomy': [(c) => c.autonomy.validateAutonomy({ coil: autonomyCoil(), nowIso: NOW_ISO } as never)],
  'autonomy.compileBrokerPath': [(c) => c.autonomy.compileBrokerPath({ coil: autonomyCoil(), nowIso: NOW_ISO } as never)],
  'autonomy.generateCommandPack': [(c) => c.autonomy.generateCommandPack({ coil: autonomyCoil(), nowIso: NOW_ISO } as never)],
  'autonomy.brokerMcpInstructions': [(c) => c.autonomy.brokerMcpInstructions({ coil: autonomyCoil(), nowIso: NOW_ISO } as never)],
  'autonomy.postRunAudit': [
    async (c) => {
      const path = (await c.autonomy.compileBrokerPath({ coil: autonomyCoil(), nowIso: NOW_ISO } as never)) as { receipt: unknown };
      return c.autonomy.postRunAudit({ receipt: path.receipt, activity: [], nowIso: NOW_ISO } as never);
    },
  ],
  'partnerbot.schema': [(c) => c.partnerbot.schema()],
  'partnerbot.depositCommand': [(c) => c.partnerbot.depositCommand({ amountUsdg: '25', receiver: RECEIVER, nowIso: NOW_ISO } as never)],
  'partnerbot.importFeeClaim': [(c) => c.partnerbot.importFeeClaim({ claim: FEE_CLAIM, nowIso: NOW_ISO } as never)],
  'stocks.partnerStatus': [(c) => c.stocks.partnerStatus()],
  'stocks.prepare': [(c) => c.stocks.prepare({ intent: intent(), nowIso: NOW_ISO } as never)],
  'stocks.generateCommand': [(c) => c.stocks.generateCommand({ intent: intent(), nowIso: NOW_ISO } as never)],
  'stocks.planBasket': [
    (c) =>
      c.stocks.planBasket({
        coil: makeCoil(),
        totalAmountUsdg: '900',
        maxSlippageBps: 100,
        userAcknowledgedTokenizedExposureNotDirectStockOwnership: true,
        userAcknowledgedPartnerExecutesTrade: true,
        nowIso: NOW_ISO,
      } as never),
  ],
  'stocks.basket': [
    async (c) => {
      const planned = (await c.stocks.planBasket({
        coil: makeCoil(),
        totalAmountUsdg: '900',
        userAcknowledgedTokenizedExposureNotDirectStockOwnership: true,
        userAcknowledgedPartnerExecutesTrade: true,
        nowIso: NOW_ISO,
      } as never)) as { basketHash: string };
      return c.stocks.basket({ basketHash: planned.basketHash, nowIso: NOW_ISO } as never);
    },
  ],
  'vaults.list': [(c) => c.vaults.list()],
  'vaults.schema': [(c) => c.vaults.schema()],
  'vaults.assetRegistry': [(c) => c.vaults.assetRegistry()],
  'vaults.readiness': [(c) => c.vaults.readiness()],
  'vaults.createManifest': [(c) => c.vaults.createManifest({ ...VAULT_MANIFEST_INPUT, nowIso: NOW_ISO } as never)],
  'vaultRail.providerRewards': [
    (c) => c.vaultRail.providerRewards({ feeAmountUnits: '1000007', epochId: 'epoch-1', nowIso: NOW_ISO } as never),
  ],
  'vaultRail.partnerRebalance': [
    (c) =>
      c.vaultRail.partnerRebalance({ intent: intent({ mode: 'vault_operator_rebalance', venue: 'broker' }), nowIso: NOW_ISO } as never),
  ],
  'vaultAnalysis.calculateFees': [
    (c) => c.vaultAnalysis.calculateFees({ highWaterMarkUsdg: '10000', navUsdg: '12500.5', nowIso: NOW_ISO } as never),
  ],
  'x402.schema': [(c) => c.x402.schema(), (_c) => callerFor({ env: FACILITATOR_ENV }).x402.schema()],
  'x402.providers': [(c) => c.x402.providers(), (_c) => callerFor({ env: FACILITATOR_ENV }).x402.providers()],
  'x402.facilitatorStatus': [(c) => c.x402.facilitatorStatus(), (_c) => callerFor({ env: FACILITATOR_ENV }).x402.facilitatorStatus()],
  'x402.serviceRequirements': [
    (c) => c.x402.serviceRequirements({ serviceName: 'vault-risk-score' }),
    () => paying().x402.serviceRequirements({ serviceName: 'vault-risk-score' }),
  ],
  'x402.paidCall': [
    async () => {
      const c = callerFor({
        env: { ...FACILITATOR_ENV, FACILITATOR_URL: facilitator.url },
        headers: { 'PAYMENT-SIGNATURE': await payment('vault-risk-score') },
      });
      return c.x402.paidCall({
        serviceName: 'vault-risk-score',
        allocations: [
          { tokenAddress: addr('AAPL'), ticker: 'AAPL', weightBps: 5000 },
          { tokenAddress: USDG.address, weightBps: 5000 },
        ],
      } as never);
    },
  ],
  'x402.facilitatorSettle': [
    async () =>
      paying().x402.facilitatorSettle({
        serviceName: 'vault-fee-calculation',
        paymentHeader: await payment('vault-fee-calculation', 1),
      } as never),
  ],
  'x402.receipt': [
    async () => {
      const c = paying();
      const settled = (await c.x402.facilitatorSettle({
        serviceName: 'vault-fee-calculation',
        paymentHeader: await payment('vault-fee-calculation'),
      } as never)) as { settlement: { receipt: { receiptId: string } } };
      return c.x402.receipt({ receiptId: settled.settlement.receipt.receiptId });
    },
  ],
  'x402.authorization': [
    async () => {
      const c = paying();
      const value = await payment('vault-fee-calculation');
      await c.x402.facilitatorSettle({ serviceName: 'vault-fee-calculation', paymentHeader: value } as never);
      const decoded = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as {
        payload: { authorization: { from: string; nonce: string } };
      };
      return c.x402.authorization({ payer: decoded.payload.authorization.from, nonce: decoded.payload.authorization.nonce });
    },
  ],
  'system.resolveAsset': [(c) => c.system.resolveAsset({ ticker: 'NVDA' } as never)],
  'tools.shareCard': [(c) => c.tools.shareCard({ coil: rawCoil(), nowIso: NOW_ISO } as never)],
  'tools.verifyCoil': [
    async (c) => {
      const issued = (await c.tools.receipt({ coil: rawCoil(), nowIso: NOW_ISO } as never)) as { receipt: Record<string, unknown> };
      return c.tools.verifyCoil({ coil: rawCoil(), receipt: issued.receipt, nowIso: NOW_ISO } as never);
    },
  ],
  'tools.passport': [(c) => c.tools.passport({ agentId: 'mock' } as never)],
  'receiptLog.keys': [(c) => c.receiptLog.keys()],
  'receiptLog.head': [(c) => c.receiptLog.head()],
  'receiptLog.consistency': [(c) => c.receiptLog.consistency({ first: 0 } as never)],
  'strategist.generate': [
    () => callerFor({ env: { STRATEGIST_PROVIDER: 'mock' } }).strategist.generate({ prompt: 'AI chips', nowIso: NOW_ISO } as never),
  ],
  'stocks.receipt': [
    async (c) => {
      const prepared = (await c.stocks.prepare({ intent: intent(), nowIso: NOW_ISO } as never)) as { planHash: string };
      return c.stocks.receipt({ planHash: prepared.planHash } as never);
    },
  ],
  'vaults.v2Status': [(c) => c.vaults.v2Status()],
  'vaults.vault': [async (c) => c.vaults.vault({ slug: await firstVaultSlug(c) } as never)],
  'vaults.depositLink': [async (c) => c.vaults.depositLink({ slug: await firstVaultSlug(c), amount: '10', receiver: RECEIVER } as never)],
  // Without a chain (in process): both readings unknown, and the approval not found.
  'vaults.depositAccount': [async (c) => c.vaults.depositAccount({ slug: await firstVaultSlug(c), owner: RECEIVER } as never)],
  'vaults.figures': [async (c) => c.vaults.figures({ slug: await firstVaultSlug(c) } as never)],
  'vaults.approvalStatus': [
    async (c) =>
      c.vaults.approvalStatus({ slug: await firstVaultSlug(c), txHash: `0x${'ab'.repeat(32)}`, owner: RECEIVER, amount: '10' } as never),
  ],
  'vaults.validateManifest': [async (c) => c.vaults.validateManifest({ manifest: await manifestOf(c), nowIso: NOW_ISO } as never)],
  'vaults.compileRebalancePolicy': [
    async (c) => c.vaults.compileRebalancePolicy({ manifest: await manifestOf(c), nowIso: NOW_ISO } as never),
  ],
  'vaults.receipt': [async (c) => c.vaults.receipt({ manifest: await manifestOf(c), nowIso: NOW_ISO } as never)],
  'vaultRail.rebalanceAudit': [
    async (c) => c.vaultRail.rebalanceAudit({ manifest: await manifestOf(c), report: REBALANCE_REPORT, nowIso: NOW_ISO } as never),
  ],
  'vaultAnalysis.riskScore': [
    (c) =>
      c.vaultAnalysis.riskScore({
        allocations: [
          { tokenAddress: addr('AAPL'), ticker: 'AAPL', weightBps: 5000 },
          { tokenAddress: USDG.address, weightBps: 5000 },
        ],
      } as never),
  ],
  'vaultAnalysis.compare': [
    (c) =>
      c.vaultAnalysis.compare({
        vaults: [
          { label: 'B', allocations: [{ tokenAddress: addr('TSLA'), weightBps: 10000 }] },
          {
            label: 'A',
            allocations: [
              { tokenAddress: addr('SPY'), weightBps: 9000 },
              { tokenAddress: USDG.address, weightBps: 1000 },
            ],
          },
        ],
      } as never),
  ],
  'auth.nonce': [(c) => c.auth.nonce()],
  'auth.session': [(c) => c.auth.session()],
  'auth.logout': [(c) => c.auth.logout()],
  'me.coils': [() => callerFor({ session: SESSION }).me.coils()],
  'me.receipts': [() => callerFor({ session: SESSION }).me.receipts()],
  'me.claimableCoils': [() => callerFor({ session: SESSION }).me.claimableCoils()],
};

const SESSION = { address: RECEIVER, chainId: 4663, expiresAt: new Date(Date.now() + 3_600_000) };

/** Procedures not walked here, and why. */
const NOT_WALKED: Record<string, string> = {
  'system.mcpToolset':
    "answers the JSON Schemas of the tools' output schemas, which this file replaces with checking functions; its answer is compared field by field with the tools listed over MCP (tests/mcp/tools.test.ts)",
  'stocks.submitPreview': 'answers only with the partner lane enabled and a fake partner agent API (tests/api/stocks-lane.test.ts)',
  'stocks.submit': 'sends to the partner agent API: needs the fake partner (tests/api/stocks-lane.test.ts)',
  'stocks.submitBasket': 'sends to the partner agent API: needs the fake partner (tests/api/stocks-basket.test.ts)',
  'stocks.partnerJob': 'polls the partner agent API: needs the fake partner (tests/api/stocks-lane.test.ts)',
  'stocks.reconcile': 'reads chain 4663 for a proof: needs the local chain (tests/api/stocks-reconcile.test.ts)',
  'receiptLog.inclusion': 'answers for a receipt stored and logged through the real server (tests/api/receipt-log.test.ts)',
  'tools.provenance': 'answers for a Coil stored through the typed client flow (tests/api/coil-stored.test.ts)',
  'tools.storedCoil': 'answers for a Coil stored through the typed client flow (tests/api/coil-stored.test.ts)',
  'vaults.depositPartnerbotIntent': 'reads the ack pins on chain 4663: needs the local chain (tests/api/vault-deposit.test.ts)',
  'vaults.depositIntent': 'reads the ack pins on chain 4663: needs the local chain (tests/api/vault-deposit.test.ts)',
  'partnerbot.prepareCommand': 'reads the ack pins on chain 4663: needs the local chain (tests/api/vault-deposit.test.ts)',
  'partnerbot.submitIntent': 'submits a pack to the partner agent API on chain 4663 (tests/api/vault-mode-b.test.ts)',
  'partnerbot.depositStatus': 'answers for a submitted deposit job only (tests/api/vault-mode-b.test.ts)',
  'vaults.withdrawIntent': 'prepared only while the deposit gate reads open, which needs chain readings (tests/api/vault-deposit.test.ts)',
  'auth.verify': 'needs a signed SIWE message and its nonce cookie round trip (tests/api/auth.test.ts)',
  'me.coil': 'answers for a Coil the session stored (tests/api/me.test.ts)',
  'me.claimCoils': "claims with the browser's claim-ticket cookie set by the web app's door (tests/api/coil-claims.test.ts)",
  'tools.storedShareCard':
    'answers for a share card stored through the HTTP flow (tests/api/coil-claims.test.ts, tests/e2e/coil-journeys.test.ts)',
};

async function settle(call: Promise<unknown>): Promise<{ ok: boolean; error?: unknown }> {
  try {
    await call;
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

describe('output schemas declare every field the procedures return', () => {
  const failures: Record<string, string> = {};

  beforeAll(async () => {
    await facilitator.start();
    for (const [path, calls] of Object.entries(WALK)) {
      for (const call of calls) {
        current = path;
        const result = await settle(call(callerFor()));
        if (!result.ok) failures[path] = String((result.error as Error)?.message ?? result.error);
      }
    }
    await facilitator.stop();
  }, 120_000);

  it('the representative inputs are answered (a refused one would check nothing)', () => {
    expect(failures).toEqual({});
  });

  it("every walked procedure's output went through the check", () => {
    expect(Object.keys(WALK).filter((p) => !checked.has(p))).toEqual([]);
  });

  it('no procedure returned a field its output schema does not declare', () => {
    expect(Object.fromEntries(undeclared)).toEqual({});
  });

  it('every procedure is walked or listed with the reason it is not', () => {
    // procedureRecord is the one reader of tRPC's private procedure record (see route-table.ts).
    const all = Object.keys(procedureRecord(appRouter));
    expect(all.length).toBeGreaterThan(50);
    const missing = all.filter((p) => !(p in WALK) && !(p in NOT_WALKED));
    expect(missing).toEqual([]);
  });

  it('the check itself catches a field the schema does not declare', async () => {
    const { z } = await import('zod');
    const schema = z.object({
      a: z.string(),
      list: z.array(z.object({ b: z.number() })),
      either: z.union([z.object({ x: z.literal(1) }), z.object({ y: z.literal(2) })]),
    });
    expect(undeclaredPaths(schema, { a: 'x', list: [{ b: 1, extra: true }], either: { y: 2, z: 3 }, added: 1 })).toEqual([
      'list[].extra',
      'either.z',
      'added',
    ]);
    expect(undeclaredPaths(schema.catchall(z.unknown()), { a: 'x', list: [], either: { x: 1 }, added: 1 })).toEqual([]);
  });
});
