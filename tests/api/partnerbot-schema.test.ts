/** GET /api/partnerbot/schema (interface 4.4): the autonomy path described, never executed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let facilitatorServer: TestServer;

beforeAll(async () => {
  [server, facilitatorServer] = await Promise.all([
    startServer(),
    startServer({
      env: {
        FACILITATOR_ENABLED: 'true',
        FACILITATOR_API_KEY: 'svc-test-facilitator-key-0001',
        FACILITATOR_URL: 'http://127.0.0.1:9/facilitator',
        FACILITATOR_PAYTO_ADDRESS: '0x' + '12'.repeat(20),
      },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), facilitatorServer?.stop()]);
});

describe('GET /api/partnerbot/schema', () => {
  it('is stamped, versioned and lists only routes that exist', async () => {
    const res = await server.get('/api/partnerbot/schema?nowIso=2026-01-01T00:00:00Z');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      schemaVersion: 'svc-partnerbot-schema-1.0.0',
      generatedAt: '2026-01-01T00:00:00.000Z',
      notInvestmentAdvice: true,
      liveOrderSent: false,
    });
    const doc = (await server.get('/api/openapi.json')).json;
    const documented = new Set(
      Object.entries<Record<string, unknown>>(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} /api${p}`)),
    );
    expect(res.json.routes.length).toBeGreaterThan(8);
    for (const r of res.json.routes) expect(documented).toContain(`${r.method} ${r.path}`);
    const rails = new Set(res.json.routes.map((r: { railId: string | null }) => r.railId));
    expect(rails).toEqual(new Set([null, 'rail_a_vault_deposit', 'rail_b_partner_stock_token']));
    const autonomy = res.json.routes
      .filter((r: { workflow: string }) => r.workflow === 'partner_autonomy_path')
      .map((r: { method: string; path: string }) => `${r.method} ${r.path}`);
    for (const route of [
      'validate-autonomy',
      'compile-broker-path',
      'generate-command-pack',
      'broker-mcp-instructions',
      'post-run-audit',
    ]) {
      expect(autonomy).toContain(`POST /api/partnerbot/${route}`);
    }
    expect(documented).toContain('GET /api/partnerbot/schema');
    expect(res.json.autonomyModes).toEqual([
      expect.objectContaining({ mode: 'paper', default: true }),
      expect.objectContaining({ mode: 'preview', default: false }),
      expect.objectContaining({ mode: 'live_candidate', default: false }),
    ]);
  });

  it('describes Modes A, B and C with Mode B gates and refusal codes in order', async () => {
    const { json } = await server.get('/api/partnerbot/schema');
    expect(json.modes.map((m: { mode: string }) => m.mode)).toEqual(['A', 'B', 'C']);
    const b = json.modes[1];
    expect(b.refusalCodes).toEqual(['MODE_B_DISABLED', 'OWNER_APPROVAL_REQUIRED', 'PARTNER_KEY_MISSING', 'RECEIVER_NOT_PARTNER_WALLET']);
    expect(b.envGates).toEqual([
      'PARTNERBOT_DEPOSIT_EXECUTION_ENABLED',
      'OWNER_APPROVED_PARTNER_WALLET_DEPOSIT',
      'PARTNER_API_KEY',
      'PARTNER_WALLET_ADDRESS',
    ]);
  });

  it('names as mandatory every fuse a capsule requires, plus the run notional, market hours and the stop conditions: the list validate-autonomy applies', async () => {
    const { json } = await server.get('/api/partnerbot/schema');
    const kinds: string[] = json.mandatoryFuses.map((f: { kind: string }) => f.kind);
    const generated = await server.post('/api/tools/generate-coil', { prompt: 'broad index exposure', nowIso: '2026-01-01T00:00:00Z' });
    const audit = await server.post('/api/tools/risk-audit', { coil: generated.json.coil });
    expect(audit.status).toBe(200);
    for (const kind of audit.json.requiredForCapsule) expect(kinds).toContain(kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['maxTotalNotional', 'marketHoursOnly', 'stopIfOracleUnhealthy', 'stopIfReceiptMismatch']),
    );
    // The validation names as missing exactly the published kinds the Coil does not imply.
    const validated = await server.post('/api/partnerbot/validate-autonomy', { coil: generated.json.coil });
    const implied: string[] = validated.json.fuses.map((f: { kind: string }) => f.kind);
    const missing = validated.json.gate.missing.filter((m: string) => m.startsWith('fuse:')).map((m: string) => m.slice(5));
    expect([...missing, ...implied].sort()).toEqual([...kinds].sort());
  });

  it('shapes the live-autonomy acknowledgment as booleans that must all be true', async () => {
    const { json } = await server.get('/api/partnerbot/schema');
    expect(json.liveAutonomyAcknowledgment.fields.length).toBeGreaterThanOrEqual(9);
    for (const f of json.liveAutonomyAcknowledgment.fields)
      expect(f).toMatchObject({ type: 'boolean', mustBe: true, statement: expect.any(String) });
    expect(json.liveAutonomyAcknowledgment).toMatchObject({
      timestampField: 'acknowledgedAt',
      maxAgeSeconds: 86_400,
      futureSkewSeconds: 120,
    });
  });

  it('gives the x402 call plan on the lane selected now, with the prices of the x402 schema', async () => {
    const plain = (await server.get('/api/partnerbot/schema')).json.x402CallPlan;
    expect(plain).toMatchObject({ lane: 'partnerCloud', settlesHere: false, paymentChain: 'base' });
    const withFacilitator = (await facilitatorServer.get('/api/partnerbot/schema')).json.x402CallPlan;
    expect(withFacilitator).toMatchObject({ lane: 'facilitator', settlesHere: true, chainId: 4663, asset: 'USDG' });
    const x402 = (await facilitatorServer.get('/api/x402/schema')).json;
    const prices = Object.fromEntries(x402.services.map((s: { name: string; price: { units: string } }) => [s.name, s.price.units]));
    expect(withFacilitator.services.length).toBe(x402.services.length);
    for (const s of withFacilitator.services) expect(s.priceUnits).toBe(prices[s.serviceName]);
  });
});
