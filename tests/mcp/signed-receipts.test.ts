/**
 * Over MCP, receipts are signed by the same key as over REST (the service middleware signs every
 * answer, whichever door), and svc_verify_receipt checks the signature against the published
 * key set through the same function as POST /api/coil/verify.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCoil } from '../support/coils';
import { connectHttp, connectStdio, withSignatureTimesMasked, type McpTestClient } from '../support/mcp';
import { startServer, type TestServer } from '../support/server';

const NOW = '2026-11-27T08:00:00.000Z';
let server: TestServer;
const clients: McpTestClient[] = [];

beforeAll(async () => {
  server = await startServer();
  clients.push(await connectHttp(server), await connectStdio(server));
});
afterAll(async () => {
  for (const c of clients) await c.client.close();
  await server?.stop();
});

describe('signed receipts over MCP', () => {
  it('sign with the published key, byte for byte as REST, and svc_verify_receipt checks the signature', async () => {
    const coil = rawCoil({ slug: 'mcp-signed' });
    const { signingKeyId } = (await server.get('/api/receipts/keys')).json;
    const rest = (await server.post('/api/tools/receipt', { coil, nowIso: NOW })).json.receipt;
    for (const mcp of clients) {
      const answer = await mcp.call('svc_create_receipt', { coil, nowIso: NOW });
      expect(answer.isError).toBe(false);
      expect(withSignatureTimesMasked(answer.body.receipt)).toEqual(withSignatureTimesMasked(rest));
      expect(answer.body.receipt.signature.keyId).toBe(signingKeyId);
      const verified = await mcp.call('svc_verify_receipt', { coil, receipt: answer.body.receipt });
      expect(verified.body.verification).toMatchObject({ ok: true, signature: { status: 'valid', keyId: signingKeyId } });
      const forged = await mcp.call('svc_verify_receipt', { coil, receipt: { ...answer.body.receipt, validationStatus: 'invalid' } });
      expect(forged.body.verification).toMatchObject({ ok: false, signature: { status: 'invalid' } });
      expect(forged.body.verification.mismatches).toContain('signature');
    }
  });
});
