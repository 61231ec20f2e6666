/**
 * The vault family and the x402 family state the same facts the same way: the architecture
 * object of interface 2.11 is one object in both schemas, every response reports the same x402
 * lane (with the same chain blocks) for the same configuration, and the fee schedule the vault
 * schema shows is the one the fee calculation applies.
 */
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEE_SCHEDULE } from '../../src/lib/server/vaults/fees';
import { secretMarker, startServer, type TestServer } from '../support/server';

const FACILITATOR_ADDRESS = getAddress('0x000000000000000000000000000000000000fac1');
const NOW = '2026-11-22T10:00:00.000Z';

let plain: TestServer;
let withAddress: TestServer;

beforeAll(async () => {
  [plain, withAddress] = await Promise.all([
    startServer({ allowPostgres: false }),
    // A lower-case address: both schemas must show the same checksummed form.
    startServer({ allowPostgres: false, env: { FACILITATOR_ADDRESS: FACILITATOR_ADDRESS.toLowerCase() } }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), withAddress?.stop()]);
});

describe('architecture object (spec 2.11)', () => {
  it('is value by value the same object in GET /api/x402/schema and GET /api/vaults/schema', async () => {
    for (const server of [plain, withAddress]) {
      const x402 = await server.get(`/api/x402/schema?nowIso=${NOW}`);
      const vaults = await server.get(`/api/vaults/schema?nowIso=${NOW}`);
      expect(x402.status).toBe(200);
      expect(vaults.status).toBe(200);
      expect(vaults.json.architecture).toEqual(x402.json.architecture);
      expect(JSON.stringify(vaults.json.architecture)).toBe(JSON.stringify(x402.json.architecture));
    }
    expect((await plain.get('/api/vaults/schema')).json.architecture.x402Providers.facilitator.facilitator).toBeNull();
    expect((await withAddress.get('/api/vaults/schema')).json.architecture.x402Providers.facilitator.facilitator).toBe(FACILITATOR_ADDRESS);
  });
});

describe('lane selection and the chain blocks', () => {
  const PAY_TO = getAddress('0x00000000000000000000000000000000000a11ce');
  const RECEIVER = '0x00000000000000000000000000000000000000b0';
  const configs = {
    disabled: { env: {}, lane: 'partnerCloud', facilitatorState: 'disabled', settlesHere: false },
    key_missing: { env: { FACILITATOR_ENABLED: 'true' }, lane: 'partnerCloud', facilitatorState: 'key_missing', settlesHere: false },
    configured: {
      env: {
        FACILITATOR_ENABLED: 'true',
        FACILITATOR_API_KEY: secretMarker('facilitator'),
        FACILITATOR_URL: 'http://127.0.0.1:9',
        FACILITATOR_PAYTO_ADDRESS: PAY_TO,
      },
      lane: 'facilitator',
      facilitatorState: 'configured',
      settlesHere: true,
    },
    // Selected (enabled, key set) but on a testnet chain id: blocked, never the partner-cloud lane.
    blocked: {
      env: {
        FACILITATOR_ENABLED: 'true',
        FACILITATOR_API_KEY: secretMarker('facilitator'),
        FACILITATOR_URL: 'http://127.0.0.1:9',
        FACILITATOR_PAYTO_ADDRESS: PAY_TO,
        FACILITATOR_CHAIN_ID: '46630',
      },
      lane: 'facilitator',
      facilitatorState: 'blocked',
      settlesHere: false,
    },
  } as const;
  const servers: Partial<Record<keyof typeof configs, TestServer>> = {};

  beforeAll(async () => {
    await Promise.all(
      (Object.keys(configs) as (keyof typeof configs)[]).map(async (name) => {
        servers[name] = await startServer({ allowPostgres: false, env: configs[name].env });
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((s) => s?.stop()));
  });

  for (const name of Object.keys(configs) as (keyof typeof configs)[]) {
    it(`the vault schema, a deposit pack and the x402 providers report the same lane: ${name}`, async () => {
      const server = servers[name]!;
      const expected = configs[name];
      const schema = await server.get(`/api/vaults/schema?nowIso=${NOW}`);
      const pack = await server.post('/api/partnerbot/vault-deposit/prepare-command', { amountUsdg: '5', receiver: RECEIVER, nowIso: NOW });
      const providers = await server.get(`/api/x402/providers?nowIso=${NOW}`);
      for (const res of [schema, pack, providers]) expect(res.status).toBe(200);

      const block = providers.json.x402PaymentChain;
      expect(block).toMatchObject({ lane: expected.lane, facilitatorState: expected.facilitatorState, settlesHere: expected.settlesHere });
      if (expected.lane === 'facilitator')
        expect(block).toMatchObject({ paymentChain: 'broker_chain', chainId: 4663, network: 'eip155:4663', asset: 'USDG' });
      else expect(block).toMatchObject({ paymentChain: 'base', chainId: 8453, asset: 'USDC' });
      if (name === 'blocked') expect(block.reason).toMatch(/blocked/);

      // One lane, stated the same way by every route.
      expect(schema.json.x402PaymentChain).toEqual(block);
      expect(schema.json.paymentModel.x402PaymentChain).toEqual(block);
      expect(pack.json.x402PaymentChain).toEqual(block);
      expect(providers.json.providers.facilitator.status).toBe(expected.facilitatorState);
      for (const entry of providers.json.laneSelection.vaultServices) {
        expect(entry.lane).toMatchObject({
          lane: block.lane,
          facilitatorState: block.facilitatorState,
          settlesHere: block.settlesHere,
          reason: block.reason,
        });
      }

      // The vault chain block is one shape too, and the vault family only appends sources.
      expect(schema.json.vaultChain).toEqual(providers.json.vaultChain);
      expect(schema.json.chainModel.vaultChain).toEqual(providers.json.vaultChain);
      expect(pack.json.vaultChain).toEqual(providers.json.vaultChain);
      const laneSources = providers.json.sourceVerification;
      expect(schema.json.sourceVerification.slice(0, laneSources.length)).toEqual(laneSources);
      expect(pack.json.sourceVerification.slice(0, laneSources.length)).toEqual(laneSources);
      expect(pack.json.sourceVerification.some((s: { subject: string }) => s.subject === 'vault ack-hash pins')).toBe(true);
    });
  }
});

describe('fee schedule', () => {
  it('the vault schema shows FEE_SCHEDULE, the schedule the fee calculation and the x402 schema use', async () => {
    const schema = (await plain.get(`/api/vaults/schema?nowIso=${NOW}`)).json;
    expect(schema.feeSchedule).toEqual(JSON.parse(JSON.stringify(FEE_SCHEDULE)));
    expect(schema.feeSchedule).toEqual((await plain.get(`/api/x402/schema?nowIso=${NOW}`)).json.feeSchedule);
    const calc = await plain.post('/api/vaults/fees/calculate', { highWaterMarkUsdg: '1000', navUsdg: '1200', nowIso: NOW });
    expect(calc.status).toBe(200);
    expect(calc.json.feeSchedule).toEqual(schema.feeSchedule);

    // The calculation applies the schedule's stated defaults: the performance fee on the profit
    // above the high-water mark, and the protocol's share out of that fee.
    const { defaultBps } = schema.feeSchedule.performanceFee;
    const shareBps = schema.feeSchedule.protocolShare.defaultBps;
    expect(calc.json.calculation.scheduleVersion).toBe(schema.feeSchedule.scheduleVersion);
    expect(calc.json.calculation.rates).toMatchObject({
      performanceFeeBps: defaultBps,
      protocolShareBps: shareBps,
      managementFeeBps: schema.feeSchedule.managementFeeBps,
    });
    const feeUnits = (200_000_000n * BigInt(defaultBps)) / 10_000n;
    expect(calc.json.calculation.performanceFee.units).toBe(feeUnits.toString());
    expect(calc.json.calculation.protocolShare.units).toBe(((feeUnits * BigInt(shareBps)) / 10_000n).toString());

    // A rate above the schedule's stated cap is refused by the calculation, never clamped.
    const above = await plain.post('/api/vaults/fees/calculate', {
      highWaterMarkUsdg: '1000',
      navUsdg: '1200',
      performanceFeeBps: schema.feeSchedule.performanceFee.capBps + 1,
    });
    expect(above.status).toBe(422);
    expect(above.json.error.code).toBe('PERF_FEE_CAP');
    const atCap = await plain.post('/api/vaults/fees/calculate', {
      highWaterMarkUsdg: '1000',
      navUsdg: '1200',
      performanceFeeBps: schema.feeSchedule.performanceFee.capBps,
    });
    expect(atCap.status).toBe(200);
  });
});
