/**
 * Signed receipts, the append-only receipt log and the offline CLI against the real server
 * (issue 26, docs/trust-model.md). The CLI runs as a process on files the server answered, so
 * each check is the one a user makes without trusting the service. Named @persistence so CI
 * reruns it on PostgreSQL (two instances appending to one log included).
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../src/lib/server/receipts/signature';
import { cliFiles, runCli } from '../support/cli';
import { rawCoil } from '../support/coils';
import { openTestDb, type TestDb } from '../support/db';
import { freePort, startServer, type TestServer } from '../support/server';

const NOW = '2026-11-27T08:00:00.000Z';

function newKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}
const KEY_PEM = newKeyPem();
const KEY_ID = keyIdOf(createPublicKey(KEY_PEM));
/** The private key's base64 body: a piece of it leaking would be a leak too. */
const KEY_BODY = KEY_PEM.split('\n').filter((l) => l && !l.startsWith('-----'))[0]!;

let server: TestServer;
let db: TestDb;
const files = cliFiles();

beforeAll(async () => {
  server = await startServer({ env: { SVC_SIGNING_KEY: KEY_PEM, STRATEGIST_PROVIDER: 'mock' } });
  db = openTestDb(server.databaseUrl);
});
afterAll(async () => {
  await db?.$disconnect();
  expect(server.logs.join('\n')).not.toContain(KEY_BODY);
  await server?.stop();
});

async function issue(slug: string) {
  const coil = rawCoil({ slug });
  const res = await server.post('/api/tools/receipt', { coil, nowIso: NOW });
  expect(res.status).toBe(200);
  expect(res.text).not.toContain(KEY_BODY);
  return { coil, receipt: res.json.receipt, text: res.text };
}

/**
 * The service rewrote its log in the database and restarted: a running instance trusts the
 * entries it has read (it keeps the log's tree, db/receipt-log-repository.ts), so the rewritten
 * history is what an instance started on it answers.
 */
async function restartOnRewrittenLog(): Promise<void> {
  await server.stop({ keepData: true });
  expect(server.logs.join('\n')).not.toContain(KEY_BODY);
  const restarted = await startServer({ databaseUrl: server.databaseUrl, env: { SVC_SIGNING_KEY: KEY_PEM, STRATEGIST_PROVIDER: 'mock' } });
  restarted.adoptDataOf(server);
  server = restarted;
}

async function keysFile(): Promise<string> {
  const keys = await server.get('/api/receipts/keys');
  expect(keys.status).toBe(200);
  return files.file('keys.json', keys.json);
}

describe('@persistence signed receipts', () => {
  it('signs every receipt with the configured key, deterministically, and publishes only its public half', async () => {
    const a = await issue('signed-a');
    const b = await issue('signed-a');
    expect(b.text).toBe(a.text);
    expect(a.receipt.signature).toMatchObject({ alg: 'Ed25519', keyId: KEY_ID });
    const keys = (await server.get('/api/receipts/keys')).json;
    expect(keys).toMatchObject({ signingKeyId: KEY_ID, notInvestmentAdvice: true, liveOrderSent: false });
    expect(keys.keys).toEqual([expect.objectContaining({ kid: KEY_ID, kty: 'OKP', crv: 'Ed25519', validUntil: null })]);
    expect(JSON.stringify(keys)).not.toContain(KEY_BODY);
    // Artifact receipts are signed too, and the service's own verification checks the signature.
    const policy = (await server.post('/api/tools/oracle-policy', { nowIso: NOW })).json;
    expect(policy.receipt.signature.keyId).toBe(KEY_ID);
    // ... and the CLI recomputes an artifact receipt from its subject.
    const keySet = await keysFile();
    const subject = { policy: policy.policy, readings: policy.readings };
    const artifact = files.file('artifact.json', policy.receipt);
    expect((await runCli(['verify', artifact, '--keys', keySet, '--subject', files.file('subject.json', subject)])).status).toBe(0);
    const edited = { ...subject, policy: { ...subject.policy, version: 'other' } };
    expect((await runCli(['verify', artifact, '--keys', keySet, '--subject', files.file('subject-edited.json', edited)])).status).toBe(1);
    const verified = (await server.post('/api/coil/verify', { coil: a.coil, receipt: a.receipt })).json.verification;
    expect(verified).toMatchObject({ ok: true, signature: { status: 'valid', keyId: KEY_ID } });
  });

  it('the CLI verifies a receipt offline, and fails (exit 1) on a change to any field, another key or no signature', async () => {
    const { coil, receipt } = await issue('cli-verify');
    const keys = await keysFile();
    const published = (await server.get('/api/receipts/keys')).json.keys[0];
    const coilFile = files.file('coil.json', coil);
    const ok = await runCli(['verify', files.file('receipt.json', receipt), '--keys', keys, '--coil', coilFile, '--json']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ cli: 'svc', command: 'verify', ok: true, exitCode: 0, error: null, liveOrderSent: false });
    expect(ok.json.result.signature.status).toBe('valid');

    for (const field of Object.keys(receipt).filter((f) => f !== 'signature')) {
      const value = receipt[field];
      const tampered = {
        ...receipt,
        [field]: typeof value === 'string' ? `${value.slice(0, -1)}${value.endsWith('0') ? '1' : '0'}` : !value,
      };
      // Without the Coil only the signature catches it; with the Coil the hashes too.
      for (const withCoil of [false, true]) {
        const run = await runCli([
          'verify',
          files.file(`t-${field}.json`, tampered),
          '--keys',
          keys,
          ...(withCoil ? ['--coil', coilFile] : []),
          '--json',
        ]);
        expect(run.status, `${field} ${withCoil}`).toBe(1);
        expect(run.json.result.failures.length).toBeGreaterThan(0);
      }
    }
    // A receipt signed by another key, and one that names this service's key with another key's value.
    const other = files.file('other-keys.json', { keys: [{ ...published, kid: 'f'.repeat(32), x: 'A'.repeat(43) }] });
    const wrongKey = await runCli(['verify', files.file('r2.json', receipt), '--keys', other, '--json']);
    expect(wrongKey.status).toBe(1);
    expect(wrongKey.json.result.failures).toContain('SIGNATURE_UNKNOWN_KEY');
    const { signature: _s, ...unsigned } = receipt;
    expect((await runCli(['verify', files.file('unsigned.json', unsigned), '--keys', keys])).status).toBe(1);
  });

  it('replays a generated Coil byte for byte, and refuses a receipt of another registry version (exit 1)', async () => {
    const body = { prompt: 'AI chips and data centers, no crypto', nowIso: NOW };
    const answer = (await server.post('/api/tools/generate-coil', body)).json;
    const request = { path: '/api/tools/generate-coil', body, answer };
    const same = await runCli(['replay', files.file('replay.json', request), '--json']);
    expect(same.status, same.stdout + same.stderr).toBe(0);
    expect(same.json.result).toMatchObject({ ok: true, compared: true });
    const validate = { path: '/api/tools/validate-coil', body: { coil: answer.coil, nowIso: NOW } };
    const validated = (await server.post('/api/tools/validate-coil', validate.body)).json;
    expect((await runCli(['replay', files.file('replay-v.json', { ...validate, answer: validated })])).status).toBe(0);

    const otherRegistry = { ...request, answer: { ...answer, receipt: { ...answer.receipt, registryVersion: 'svc-registry-2025.01.0' } } };
    const refused = await runCli(['replay', files.file('replay-r.json', otherRegistry), '--json']);
    expect(refused.status).toBe(1);
    expect(refused.json.result.failures).toEqual(['REGISTRY_VERSION_UNAVAILABLE']);
    const edited = { ...request, answer: { ...answer, receipt: { ...answer.receipt, weightsChecksum: '0'.repeat(64) } } };
    expect((await runCli(['replay', files.file('replay-e.json', edited), '--json'])).json.result.failures).toEqual(['RECEIPT_DIFFERS']);
  });
});

describe('@persistence the receipt log', () => {
  it('proves a receipt’s inclusion under a signed head, offline', async () => {
    for (const slug of ['log-1', 'log-2', 'log-3']) await issue(slug);
    const { coil, receipt } = await issue('log-4');
    const inclusion = await server.get(`/api/receipts/log/inclusion/${receipt.receiptId}`);
    expect(inclusion.status).toBe(200);
    expect(inclusion.json.head.signature.keyId).toBe(KEY_ID);
    const keys = await keysFile();
    const run = await runCli([
      'verify',
      files.file('inc-receipt.json', { coil, receipt }),
      '--keys',
      keys,
      '--inclusion',
      files.file('inclusion.json', inclusion.json),
      '--json',
    ]);
    expect(run.status, run.stdout).toBe(0);
    expect(run.json.result.inclusion).toMatchObject({ ok: true, headSignature: 'valid' });
    // Another receipt does not pass for this one.
    const other = (await issue('log-5')).receipt;
    expect(
      (
        await runCli([
          'verify',
          files.file('inc-other.json', other),
          '--keys',
          keys,
          '--inclusion',
          files.file('inclusion.json', inclusion.json),
        ])
      ).status,
    ).toBe(1);

    expect((await server.get(`/api/receipts/log/inclusion/hrcpt_${'0'.repeat(32)}`)).json.error.code).toBe('RECEIPT_NOT_FOUND');
    const ahead = await server.get(`/api/receipts/log/inclusion/${receipt.receiptId}?treeSize=100000`);
    expect([ahead.status, ahead.json.error.code]).toEqual([422, 'TREE_SIZE_OUT_OF_RANGE']);
  });

  it('the CLI accepts a log that only grew, and catches a dropped or a reordered entry (exit 1)', async () => {
    await issue('grow-1');
    const keys = await keysFile();
    const pinned = (await server.get('/api/receipts/log/head')).json;
    expect(pinned.head.treeSize).toBeGreaterThanOrEqual(3);
    await issue('grow-2');
    await issue('grow-3');
    const consistency = async () => (await server.get(`/api/receipts/log/consistency?first=${pinned.head.treeSize}`)).json;
    const grown = await runCli([
      'log-consistency',
      files.file('pinned.json', pinned),
      files.file('c1.json', await consistency()),
      '--keys',
      keys,
    ]);
    expect(grown.status, grown.stdout + grown.stderr).toBe(0);

    // The service drops entry 1 and closes the gap: history rewritten.
    const entries = await db.receiptLogEntry.findMany({ orderBy: { index: 'asc' } });
    await db.receiptLogEntry.delete({ where: { index: 1 } });
    for (const e of entries.slice(2)) await db.receiptLogEntry.update({ where: { index: e.index }, data: { index: e.index - 1 } });
    await restartOnRewrittenLog();
    const dropped = await runCli([
      'log-consistency',
      files.file('pinned.json', pinned),
      files.file('c2.json', await consistency()),
      '--keys',
      keys,
      '--json',
    ]);
    expect(dropped.status).toBe(1);
    expect(dropped.json.result.failures).toEqual(['CONSISTENCY_PROOF_INVALID']);

    // A client that accepted the new history pins it; then two entries trade places.
    const repinned = (await server.get('/api/receipts/log/head')).json;
    await issue('grow-4');
    const [e0, e2] = await db.receiptLogEntry.findMany({ where: { index: { in: [0, 2] } }, orderBy: { index: 'asc' } });
    await db.receiptLogEntry.update({ where: { index: 0 }, data: { leafHash: 'swap' } });
    await db.receiptLogEntry.update({ where: { index: 2 }, data: { leafHash: e0!.leafHash } });
    await db.receiptLogEntry.update({ where: { index: 0 }, data: { leafHash: e2!.leafHash } });
    await restartOnRewrittenLog();
    const answer = (await server.get(`/api/receipts/log/consistency?first=${repinned.head.treeSize}`)).json;
    const reordered = await runCli([
      'log-consistency',
      files.file('pinned2.json', repinned),
      files.file('c3.json', answer),
      '--keys',
      keys,
      '--json',
    ]);
    expect(reordered.status).toBe(1);
    expect(reordered.json.result.failures).toEqual(['CONSISTENCY_PROOF_INVALID']);
  });

  it('keeps one dense log when two instances append at once', async () => {
    const second = await startServer({ databaseUrl: server.databaseUrl, env: { SVC_SIGNING_KEY: KEY_PEM, STRATEGIST_PROVIDER: 'mock' } });
    try {
      const before = await db.receiptLogEntry.count();
      const writes = Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? server : second).post('/api/tools/receipt', { coil: rawCoil({ slug: `both-${i}` }), nowIso: NOW }),
      );
      const answers = await Promise.all(writes);
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const entries = await db.receiptLogEntry.findMany({ orderBy: { index: 'asc' } });
      expect(entries.length).toBe(before + 40);
      expect(entries.map((e) => e.index)).toEqual(entries.map((_, i) => i));
      const [headA, headB] = await Promise.all([server.get('/api/receipts/log/head'), second.get('/api/receipts/log/head')]);
      expect(headB.json.head.rootHash).toBe(headA.json.head.rootHash);
      const keys = await keysFile();
      const last = answers[39]!.json.receipt;
      const inclusion = (await second.get(`/api/receipts/log/inclusion/${last.receiptId}`)).json;
      expect(
        (await runCli(['verify', files.file('both.json', last), '--keys', keys, '--inclusion', files.file('both-inc.json', inclusion)]))
          .status,
      ).toBe(0);
    } finally {
      await second.stop({ keepData: true });
    }
  });
});

describe('the signing key', () => {
  it('is made on first start beside the SQLite file (mode 0600), kept across restarts, and never answered', async () => {
    const first = await startServer({ allowPostgres: false });
    const keyFile = join(dirname(first.databaseUrl.replace(/^file:/, '')), 'svc-signing-key.pem');
    try {
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const body = readFileSync(keyFile, 'utf8').split('\n')[1]!;
      const keyId = (await first.get('/api/receipts/keys')).json.signingKeyId;
      const receipt = (await first.post('/api/tools/receipt', { coil: rawCoil(), nowIso: NOW })).text;
      expect(receipt).toContain(keyId);
      expect(receipt + first.logs.join('\n')).not.toContain(body);
      await first.stop({ keepData: true });
      const again = await startServer({ databaseUrl: first.databaseUrl, allowPostgres: false });
      again.adoptDataOf(first);
      expect((await again.get('/api/receipts/keys')).json.signingKeyId).toBe(keyId);
      await again.stop();
    } finally {
      await first.stop();
    }
  });

  it('rotates: the new key signs, the old one stays published with its period closed, and its receipts still verify', async () => {
    const oldServer = await startServer({ env: { SVC_SIGNING_KEY: newKeyPem() } });
    const old = (await oldServer.post('/api/tools/receipt', { coil: rawCoil({ slug: 'before-rotation' }), nowIso: NOW })).json.receipt;
    await oldServer.stop({ keepData: true });
    const rotated = await startServer({ databaseUrl: oldServer.databaseUrl, env: { SVC_SIGNING_KEY: newKeyPem() } });
    rotated.adoptDataOf(oldServer);
    try {
      const keys = (await rotated.get('/api/receipts/keys')).json;
      expect(keys.signingKeyId).not.toBe(old.signature.keyId);
      expect(keys.keys.map((k: { kid: string }) => k.kid)).toEqual([old.signature.keyId, keys.signingKeyId]);
      expect(keys.keys[0].validUntil).not.toBeNull();
      expect(keys.keys[1].validUntil).toBeNull();
      const fresh = (await rotated.post('/api/tools/receipt', { coil: rawCoil({ slug: 'after-rotation' }), nowIso: NOW })).json.receipt;
      expect(fresh.signature.keyId).toBe(keys.signingKeyId);
      const keyFile = files.file('rotated-keys.json', keys);
      for (const receipt of [old, fresh])
        expect((await runCli(['verify', files.file('rot.json', receipt), '--keys', keyFile])).status).toBe(0);
      expect(
        (await rotated.post('/api/coil/verify', { coil: rawCoil({ slug: 'before-rotation' }), receipt: old })).json.verification.ok,
      ).toBe(true);
    } finally {
      await rotated.stop();
    }
  });
});

describe('the CLI as a process', () => {
  it('answers --help for every command, refuses bad usage (2), a key set it cannot fetch (3), and prints no colour off a terminal', async () => {
    for (const command of ['verify', 'log-consistency', 'replay', 'coil', 'validate']) {
      const help = await runCli([command, '--help']);
      expect(help.status, command).toBe(0);
      expect(help.stdout).toContain(`usage: svc ${command}`);
    }
    expect((await runCli(['--help'])).status).toBe(0);
    expect((await runCli([])).status).toBe(2);
    expect((await runCli(['frobnicate', '--json'])).json).toMatchObject({ ok: false, exitCode: 2, error: { code: 'UNKNOWN_COMMAND' } });
    expect((await runCli(['verify', '--nope', 'x'])).status).toBe(2);
    const receipt = files.file('net-receipt.json', (await issue('net')).receipt);
    expect((await runCli(['verify', receipt])).json).toBeUndefined();
    expect((await runCli(['verify', receipt, '--json'])).json.error.code).toBe('KEYS_REQUIRED');
    const closed = await freePort();
    const network = await runCli(['verify', receipt, '--keys-url', `http://127.0.0.1:${closed}/api/receipts/keys`, '--json']);
    expect([network.status, network.json.error.code]).toEqual([3, 'KEYS_FETCH_FAILED']);
    const fetched = await runCli(['verify', receipt, '--keys-url', `${server.url}/api/receipts/keys`]);
    expect(fetched.status).toBe(0);
    expect(fetched.stdout).toMatch(/^ok verified/);
    // eslint-disable-next-line no-control-regex -- the escape character is what is looked for
    expect(fetched.stdout + (await runCli(['verify', receipt, '--keys', 'missing.json'])).stderr).not.toMatch(/\u001b\[/);
  });

  it('coils and validates offline like the service', async () => {
    const thesis = 'AI chips and data centers, no crypto';
    const offline = await runCli(['coil', thesis, '--now', NOW, '--json']);
    expect(offline.status).toBe(0);
    const online = (await server.post('/api/tools/generate-coil', { prompt: thesis, nowIso: NOW })).json;
    expect(offline.json.result.coil).toEqual(online.coil);
    const { signature: _s, ...unsigned } = online.receipt;
    expect(offline.json.result.receipt).toEqual(unsigned);
    expect((await runCli(['validate', files.file('coil-ok.json', online.coil)])).status).toBe(0);
    const invalid = {
      ...online.coil,
      assets: online.coil.assets.map((a: { weightBps: number }) => ({ ...a, weightBps: a.weightBps + 1 })),
    };
    const bad = await runCli(['validate', files.file('coil-bad.json', invalid), '--json']);
    expect(bad.status).toBe(1);
    expect(bad.json.result.validation.issues.map((i: { code: string }) => i.code)).toContain('WEIGHTS_SUM');
  });
});
