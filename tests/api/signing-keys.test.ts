/**
 * The signing keys' lifecycle against the real server (issue 36 item 3, docs/trust-model.md#the-signing-key):
 * receipts signed once at issuance with the server's `signedAt`, deterministic bodies and ids,
 * revocation by `npm run keys -- revoke` failing the key's later receipts in the service and in
 * the CLI, `signedAt` checked against the key's period, rotation, and on PostgreSQL one key
 * shared by every instance, with an instance that would be a second signer refusing to start.
 */
import { spawn } from 'node:child_process';
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf, receiptSignedPayload } from '../../src/lib/server/receipts/signature';
import { cliFiles, runCli } from '../support/cli';
import { rawCoil } from '../support/coils';
import { createPostgresDatabase, ROOT, startServer, type TestServer } from '../support/server';
import { postgresReachable, postgresUrl, requireService } from '../support/services';

const NOW = '2026-11-27T08:00:00.000Z';
const newKeyPem = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const KEY_PEM = newKeyPem();
const KEY_ID = keyIdOf(createPublicKey(KEY_PEM));
const SERVER_ENV = {
  SVC_SIGNING_KEY: KEY_PEM,
  RECEIPT_LOG_CHECKPOINT_INTERVAL_SECONDS: '0',
  RECEIPT_LOG_ORIGIN: 'svc.test/api/receipts/log',
};
const files = cliFiles();

/** `npm run keys -- <args>` against a database, as an operator runs it. */
function keysCommand(databaseUrl: string, args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/keys.mjs', '--no-build', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status: status ?? -1, stdout, stderr })));
}

/** A receipt's block signed again with `pem` at another `signedAt`: what a holder of the key can make. */
function resigned(receipt: Record<string, unknown>, pem: string, signedAt: string) {
  const { signature, ...content } = receipt as { signature: { keyId: string; logged: boolean } };
  const block = { alg: 'Ed25519' as const, keyId: signature.keyId, signedAt, logged: signature.logged };
  const value = sign(null, Buffer.from(receiptSignedPayload(content, block), 'utf8'), createPrivateKey(pem)).toString('base64url');
  return { ...content, signature: { ...block, value } };
}

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: SERVER_ENV, allowPostgres: false });
});
afterAll(async () => {
  await server?.stop();
});

async function receiptFor(slug: string) {
  const coil = rawCoil({ slug });
  const res = await server.post('/api/tools/receipt', { coil, nowIso: NOW });
  expect(res.status).toBe(200);
  return { coil, receipt: res.json.receipt };
}

async function keysFile(target: TestServer = server): Promise<string> {
  return files.file(`keys-${Date.now()}.json`, (await target.get('/api/receipts/keys')).json);
}

describe('receipts signed at issuance', () => {
  it("gives the same body and id for the same request, and signs with the server's clock and the key id", async () => {
    const before = Date.now();
    const a = await receiptFor('same-request');
    await new Promise((r) => setTimeout(r, 5));
    const b = await receiptFor('same-request');
    const { signature: sa, ...bodyA } = a.receipt;
    const { signature: sb, ...bodyB } = b.receipt;
    expect(bodyA).toEqual(bodyB);
    expect(bodyA.receiptId).toBe(bodyB.receiptId);
    expect(bodyA.generatedAt).toBe(NOW);
    for (const s of [sa, sb]) {
      expect(s).toMatchObject({ alg: 'Ed25519', keyId: KEY_ID, logged: true });
      // The server's clock, never the caller's nowIso.
      expect(Date.parse(s.signedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(s.signedAt).not.toBe(NOW);
    }
    expect(sa.signedAt < sb.signedAt).toBe(true);
    const verified = await server.post('/api/coil/verify', { coil: a.coil, receipt: a.receipt });
    expect(verified.json.verification).toMatchObject({ ok: true, signature: { status: 'valid', signedAt: sa.signedAt, logged: true } });
    expect(verified.json.verification.inclusion.status).toBe('proven');
  });

  it("fails a receipt whose signedAt is outside its key's period, in the service and the CLI", async () => {
    const { coil, receipt } = await receiptFor('outside-period');
    const keys = (await server.get('/api/receipts/keys')).json.keys as { kid: string; validFrom: string }[];
    const validFrom = keys.find((k) => k.kid === KEY_ID)!.validFrom;
    const early = resigned(receipt, KEY_PEM, new Date(Date.parse(validFrom) - 60_000).toISOString());
    const answer = await server.post('/api/coil/verify', { coil, receipt: early });
    expect(answer.json.verification.ok).toBe(false);
    expect(answer.json.verification.signature.status).toBe('outside_key_period');
    const cli = await runCli(['verify', files.file('early.json', early), '--keys', await keysFile(), '--json']);
    expect(cli.status).toBe(1);
    expect(cli.json.result.signature.status).toBe('outside_key_period');
  });
});

describe('revocation', () => {
  it("fails the revoked key's later receipts in the service and the CLI; an earlier logged one verifies only with its inclusion before the revocation", async () => {
    const early = await receiptFor('before-revocation');
    const proof = await server.get(`/api/receipts/log/proof/${early.receipt.receiptId}`);
    expect(proof.status).toBe(200);
    const proofFile = files.file('early.tlog-proof', proof.text);
    // The checkpoint's time is whole seconds: the revocation comes after it.
    await new Promise((r) => setTimeout(r, 1100));
    const revoked = await keysCommand(server.databaseUrl, ['revoke', KEY_ID, '--reason', 'key file copied off the host']);
    expect(revoked.stderr).toBe('');
    expect(revoked.status).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ ok: true, revoked: KEY_ID });
    expect(revoked.stdout + revoked.stderr).not.toContain(KEY_PEM.split('\n')[1]);

    const keys = (await server.get('/api/receipts/keys')).json;
    expect(keys.keys.find((k: { kid: string }) => k.kid === KEY_ID)).toMatchObject({
      status: 'revoked',
      revocationReason: 'key file copied off the host',
    });
    const keySet = files.file('revoked-keys.json', keys);

    // The running instance still holds the key: what it signs now fails.
    const late = await receiptFor('after-revocation');
    const service = await server.post('/api/coil/verify', { coil: late.coil, receipt: late.receipt });
    expect(service.json.verification.ok).toBe(false);
    expect(service.json.verification.signature.status).toBe('revoked');
    const cli = await runCli(['verify', files.file('late.json', late.receipt), '--keys', keySet, '--json']);
    expect(cli.status).toBe(1);
    expect(cli.json.result.signature.status).toBe('revoked');

    // A thief's backdated signedAt does not help: without the log, a revoked key's receipt fails.
    const backdated = resigned(late.receipt, KEY_PEM, early.receipt.signature.signedAt);
    expect(
      (await runCli(['verify', files.file('backdated.json', backdated), '--keys', keySet, '--json'])).json.result.signature.status,
    ).toBe('revoked_without_inclusion');
    expect((await server.post('/api/coil/verify', { coil: late.coil, receipt: backdated })).json.verification.ok).toBe(false);

    // The receipt signed before, with its proof under a checkpoint signed before the revocation, verifies.
    const withProof = await runCli(['verify', files.file('early.json', early.receipt), '--keys', keySet, '--proof', proofFile, '--json']);
    expect(withProof.json.result.failures).toEqual([]);
    expect(withProof.status).toBe(0);
    const withoutProof = await runCli(['verify', files.file('early.json', early.receipt), '--keys', keySet, '--json']);
    expect(withoutProof.status).toBe(1);
    expect(withoutProof.json.result.signature.status).toBe('revoked_without_inclusion');
    const serviceEarly = await server.post('/api/coil/verify', { coil: early.coil, receipt: early.receipt, proof: proof.text });
    expect(serviceEarly.json.verification).toMatchObject({ ok: true, signature: { status: 'valid' }, inclusion: { status: 'proven' } });

    // An instance given the revoked key refuses to start, and says why.
    await server.stop({ keepData: true });
    const again = startServer({ databaseUrl: server.databaseUrl, env: SERVER_ENV, allowPostgres: false });
    await expect(again).rejects.toThrow(/revoked/);
    const fresh = await startServer({ databaseUrl: server.databaseUrl, env: { ...SERVER_ENV, SVC_SIGNING_KEY: newKeyPem() } });
    fresh.adoptDataOf(server);
    server = fresh;
    expect((await receiptFor('new-key')).receipt.signature.keyId).not.toBe(KEY_ID);
  });
});

describe('the CLI and inclusion', () => {
  it('--require-inclusion needs a proof; an unlogged receipt verifies by signature and period and says not_logged', async () => {
    const { receipt } = await receiptFor('require-inclusion');
    const keySet = await keysFile();
    const file = files.file('ri.json', receipt);
    expect((await runCli(['verify', file, '--keys', keySet])).status).toBe(0);
    const required = await runCli(['verify', file, '--keys', keySet, '--require-inclusion', '--json']);
    expect(required.status).toBe(1);
    expect(required.json.result.failures).toContain('INCLUSION_REQUIRED');
    // Logged and older than the checkpoint interval (0 s here): a proof is needed by default.
    const old = await runCli(['verify', file, '--keys', keySet, '--checkpoint-interval', '0', '--json']);
    expect(old.json.result.failures).toContain('INCLUSION_REQUIRED');
    const proof = files.file('ri.tlog-proof', (await server.get(`/api/receipts/log/proof/${receipt.receiptId}`)).text);
    expect((await runCli(['verify', file, '--keys', keySet, '--require-inclusion', '--proof', proof])).status).toBe(0);

    const validated = await server.post('/api/tools/validate-coil', { coil: rawCoil({ slug: 'not-logged' }), nowIso: NOW });
    expect(validated.json.receipt.signature.logged).toBe(false);
    const unlogged = await runCli([
      'verify',
      files.file('nl.json', validated.json.receipt),
      '--keys',
      keySet,
      '--checkpoint-interval',
      '0',
      '--json',
    ]);
    expect(unlogged.status).toBe(0);
    expect(unlogged.json.result.inclusionStatus).toBe('not_logged');
  });
});

describe('rotation', () => {
  it('npm run keys -- rotate registers the new key; the old one retires and its receipts still verify', async () => {
    const before = await receiptFor('before-rotate');
    const oldKeyId = before.receipt.signature.keyId as string;
    const next = newKeyPem();
    const rotated = await keysCommand(server.databaseUrl, ['rotate', '--key-file', files.file('next.pem', next)]);
    expect(rotated.status).toBe(0);
    expect(JSON.parse(rotated.stdout)).toMatchObject({ keyId: keyIdOf(createPublicKey(next)), retired: [oldKeyId] });
    await server.stop({ keepData: true });
    const restarted = await startServer({ databaseUrl: server.databaseUrl, env: { ...SERVER_ENV, SVC_SIGNING_KEY: next } });
    restarted.adoptDataOf(server);
    server = restarted;
    const keys = (await server.get('/api/receipts/keys')).json;
    expect(keys.signingKeyId).toBe(keyIdOf(createPublicKey(next)));
    expect(keys.keys.find((k: { kid: string }) => k.kid === oldKeyId)).toMatchObject({ status: 'retired' });
    const after = await receiptFor('after-rotate');
    expect(after.receipt.signature.keyId).toBe(keys.signingKeyId);
    const keySet = files.file('rotated.json', keys);
    for (const r of [before.receipt, after.receipt])
      expect((await runCli(['verify', files.file('r.json', r), '--keys', keySet])).status).toBe(0);
  });
});

describe('@persistence one signing key on PostgreSQL', () => {
  it('two instances without a configured key sign with the same key id; one with another key refuses to start', async (ctx) => {
    const skip = await requireService(`PostgreSQL (${postgresUrl()})`, postgresReachable);
    if (skip) return ctx.skip();
    const { url, drop } = await createPostgresDatabase(postgresUrl());
    const env = {
      RECEIPT_LOG_CHECKPOINT_INTERVAL_SECONDS: '0',
      RECEIPT_LOG_ORIGIN: 'svc.test/api/receipts/log',
      SVC_SIGNING_KEY: undefined,
    };
    const [a, b] = await Promise.all([startServer({ databaseUrl: url, env }), startServer({ databaseUrl: url, env })]);
    try {
      const [ka, kb] = await Promise.all([a.get('/api/receipts/keys'), b.get('/api/receipts/keys')]);
      expect(ka.json.signingKeyId).toBe(kb.json.signingKeyId);
      expect(ka.json.keys.map((k: { status: string }) => k.status)).toEqual(['active']);
      const coil = rawCoil({ slug: 'shared-key' });
      const [ra, rb] = await Promise.all([
        a.post('/api/tools/receipt', { coil, nowIso: NOW }),
        b.post('/api/tools/receipt', { coil: rawCoil({ slug: 'shared-key-b' }), nowIso: NOW }),
      ]);
      expect(ra.json.receipt.signature.keyId).toBe(ka.json.signingKeyId);
      expect(rb.json.receipt.signature.keyId).toBe(ka.json.signingKeyId);
      await expect(startServer({ databaseUrl: url, env: { ...env, SVC_SIGNING_KEY: newKeyPem() } })).rejects.toThrow(/second signer/);
      // Rotation on PostgreSQL is on purpose: a new key kept in the database, the old one retired.
      const rotated = await keysCommand(url, ['rotate']);
      expect(rotated.status).toBe(0);
      await Promise.all([a.stop({ keepData: true }), b.stop({ keepData: true })]);
      const c = await startServer({ databaseUrl: url, env });
      try {
        expect((await c.get('/api/receipts/keys')).json.signingKeyId).toBe(JSON.parse(rotated.stdout).keyId);
      } finally {
        await c.stop({ keepData: true });
      }
    } finally {
      await Promise.all([a.stop({ keepData: true }), b.stop({ keepData: true })]);
      await drop();
    }
  });
});
