/**
 * The autonomy path through the real server: only what crosses HTTP. The router logic
 * (answers, issues, refusal codes, receipts) is tested in process, in
 * tests/inproc/autonomy.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';
import { autonomyCoil } from '../support/autonomy';
import { rawCoil } from '../support/coils';

let server: TestServer;
const NOW = '2026-01-01T00:00:00.000Z';

beforeAll(async () => {
  server = await startServer({ allowPostgres: false });
});
afterAll(async () => {
  await server?.stop();
});

describe('the autonomy routes over HTTP', () => {
  it('answer 200 with the invariants, and refuse with the stamped envelope and the mapped status', async () => {
    const ok = await server.post('/api/partnerbot/validate-autonomy', { coil: autonomyCoil(), nowIso: NOW });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ generatedAt: NOW, notInvestmentAdvice: true, liveOrderSent: false });
    const shape = await server.post('/api/partnerbot/validate-autonomy', { coil: { slug: 'x' } });
    expect(shape.status).toBe(400);
    expect(shape.json).toMatchObject({ error: { code: 'COIL_SHAPE' }, notInvestmentAdvice: true, liveOrderSent: false });
    const blocked = await server.post('/api/partnerbot/compile-broker-path', { coil: rawCoil(), nowIso: NOW });
    expect(blocked.status).toBe(422);
    expect(blocked.json).toMatchObject({ error: { code: 'AUTONOMY_GATE_BLOCKED' }, notInvestmentAdvice: true, liveOrderSent: false });
  });

  it("serve the share card's image from the Coil receipt the whole path saved", async () => {
    const path = await server.post('/api/partnerbot/compile-broker-path', { coil: autonomyCoil(), nowIso: NOW });
    expect(path.status).toBe(200);
    expect((await server.get(`/api/share-card/${path.json.coilReceipt.receiptId}.svg`)).status).toBe(200);
  });
});
