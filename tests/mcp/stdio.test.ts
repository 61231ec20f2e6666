/**
 * The stdio process itself: `npm run --silent mcp` writes nothing but JSON-RPC messages on
 * stdout (logs go to stderr), and its start-up time is measured and printed (never
 * asserted). The submit tool, with the partner lane fully configured, answers what submit
 * would send and sends nothing.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio } from '../support/mcp';
import { startFakePartner, type FakePartner } from '../support/fake-partner';
import { ROOT, secretMarker, startServer, type TestServer } from '../support/server';
import { freshNowIso, intent } from '../support/stock-intents';
import { withoutSignatures } from '../support/signatures';

let server: TestServer;
let laneOn: TestServer;
let partner: FakePartner;
const apiKey = secretMarker('PARTNER_API_KEY');

beforeAll(async () => {
  partner = await startFakePartner({ apiKey });
  [server, laneOn] = await Promise.all([
    startServer({ allowPostgres: false }),
    startServer({
      allowPostgres: false,
      env: { PARTNER_API_URL: partner.url, PARTNER_API_KEY: apiKey, PARTNER_AGENT_API_ENABLED: 'true' },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), laneOn?.stop()]);
  await partner?.stop();
});

describe('npm run mcp', () => {
  it('writes only JSON-RPC messages on stdout, logs on stderr, and says how long it took to start', async () => {
    const startedAt = performance.now();
    // --no-build: the suite's global setup built it; a build here would race the other files' servers.
    const child = spawn('npm', ['run', '--silent', 'mcp', '--', '--no-build'], {
      cwd: ROOT,
      env: server.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let readyMs: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      readyMs ??= performance.now() - startedAt;
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'svc-tests', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'svc_explain_oracle_policy', arguments: { nowIso: '2026-01-01T00:00:00.000Z' } },
    });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'svc_validate_coil', arguments: { coil: 'not a coil' } } });
    const deadline = Date.now() + 20_000;
    // Four responses, and before each tool call's response its log message (docs/mcp-tools.md#logging).
    while ((stdout.match(/\n/g) ?? []).length < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    const code = await new Promise((r) => child.once('exit', r));
    console.log(`npm run mcp: first protocol byte after ${Math.round(readyMs ?? -1)} ms (spawn to the answer to initialize)`);

    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((l) => l.length > 0);
    expect(lines).toHaveLength(6);
    const all = lines.map((l) => JSON.parse(l));
    for (const m of all) expect(m.jsonrpc).toBe('2.0');
    const logged = all.filter((m) => m.method === 'notifications/message');
    expect(logged.map((m) => [m.params.level, m.params.data.tool]).sort()).toEqual([
      ['info', 'svc_explain_oracle_policy'],
      ['warning', 'svc_validate_coil'],
    ]);
    const messages = all.filter((m) => m.method === undefined);
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4]);
    expect(messages.find((m) => m.id === 2).result.tools).toHaveLength(34);
    expect(messages.find((m) => m.id === 4).result).toMatchObject({ isError: true });
    expect(stderr).toContain('"msg":"database ready"');
  });
});

describe('svc_submit_partner_stock_token_intent', () => {
  it('with the lane configured, runs the submit gates and answers what would be sent, with transmitted: false, sending nothing', async () => {
    const mcp = await connectStdio(laneOn);
    try {
      const nowIso = freshNowIso();
      const prepared = await mcp.call('svc_prepare_partner_stock_token_trade', { intent: intent(), nowIso });
      expect(prepared.isError).toBe(false);
      const input = { intent: intent(), userConfirmedPlanHash: prepared.body.planHash, nowIso };
      const preview = await mcp.call('svc_submit_partner_stock_token_intent', input);
      expect(preview.isError, preview.text.slice(0, 300)).toBe(false);
      expect(preview.body).toMatchObject({
        transmitted: false,
        partnerContacted: false,
        planHash: prepared.body.planHash,
        notInvestmentAdvice: true,
        liveOrderSent: false,
      });
      expect(preview.body.wouldSend).toMatchObject({ method: 'POST', authHeaderName: 'X-API-Key' });
      expect(preview.text).not.toContain(apiKey);
      // The same answer over REST, but each issuance's signature block (issue 36).
      expect(withoutSignatures((await laneOn.post('/api/stocks/submit-partner-intent/preview', input)).json)).toEqual(
        withoutSignatures(preview.body),
      );

      const mismatch = await mcp.call('svc_submit_partner_stock_token_intent', { ...input, userConfirmedPlanHash: 'f'.repeat(64) });
      expect(mismatch.body.error.code).toBe('PLAN_HASH_MISMATCH');

      // Nothing reached the partner, and the plan is still only prepared.
      expect(partner.requests).toEqual([]);
      expect((await laneOn.get(`/api/stocks/receipts/${prepared.body.planHash}`)).json.receipt.status).toBe('prepared');
    } finally {
      await mcp.close();
    }
  });

  it('refuses with LANE_NOT_ENABLED when the lane is not configured', async () => {
    const mcp = await connectStdio(server);
    try {
      const nowIso = freshNowIso();
      const res = await mcp.call('svc_submit_partner_stock_token_intent', {
        intent: intent(),
        userConfirmedPlanHash: 'f'.repeat(64),
        nowIso,
      });
      expect(res.isError).toBe(true);
      expect(res.body.error.code).toBe('LANE_NOT_ENABLED');
    } finally {
      await mcp.close();
    }
  });
});
