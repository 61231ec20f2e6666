/**
 * Signed receipts, the append-only receipt logs and the offline CLI against the real server
 * (issues 26, 34 and 36, docs/trust-model.md). The CLI runs as a process on files the server answered, so
 * each check is the one a user makes without trusting the service. Named @persistence so CI
 * reruns it on PostgreSQL (two instances appending to one log included).
 */
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/server/canonical';
import { receiptLeafHash } from '../../src/lib/server/receipts/log';
import { keyIdOf } from '../../src/lib/server/receipts/signature';
import { cliFiles, runCli } from '../support/cli';
import { rawCoil } from '../support/coils';
import { openTestDb, type TestDb } from '../support/db';
import { freePort, startServer, type TestServer } from '../support/server';
import { signIn, WALLET_A, WALLET_B } from '../support/siwe';

const NOW = '2026-11-27T08:00:00.000Z';

function newKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}
const KEY_PEM = newKeyPem();
const KEY_ID = keyIdOf(createPublicKey(KEY_PEM));
/** The private key's base64 body: a piece of it leaking would be a leak too. */
const KEY_BODY = KEY_PEM.split('\n').filter((l) => l && !l.startsWith('-----'))[0]!;

/** A new checkpoint whenever the log has grown, so each check sees the entries just written. */
const SERVER_ENV = {
  SVC_SIGNING_KEY: KEY_PEM,
  STRATEGIST_PROVIDER: 'mock',
  RECEIPT_LOG_CHECKPOINT_INTERVAL_SECONDS: '0',
  // Instances of one deployment share the log's origin (their ORIGINs differ here: one port each).
  RECEIPT_LOG_ORIGIN: 'svc.test/api/receipts/log',
};

let server: TestServer;
let db: TestDb;
const files = cliFiles();

beforeAll(async () => {
  server = await startServer({ env: SERVER_ENV });
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
  const restarted = await startServer({ databaseUrl: server.databaseUrl, env: SERVER_ENV });
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
    // The body and id are the request's; only the signature block (the server's signedAt) differs.
    const unsigned = (answer: { receipt: Record<string, unknown> }) => ({ ...answer, receipt: { ...answer.receipt, signature: null } });
    expect(unsigned(JSON.parse(b.text))).toEqual(unsigned(JSON.parse(a.text)));
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

/**
 * A deployment from before the checkpointed log: these receipts' contents are in the first log
 * (svc-receipt-log-1.0.0), which is closed and stays readable. Written as that release wrote it:
 * the next index, the leaf of the receipt's bytes, once per content.
 */
async function inFirstLog(...receipts: object[]): Promise<void> {
  for (const receipt of receipts) {
    const leafHash = receiptLeafHash(receipt);
    if (await db.receiptLogEntry.findUnique({ where: { leafHash } })) continue;
    const last = await db.receiptLogEntry.findFirst({ orderBy: { index: 'desc' } });
    const receiptId = (receipt as { receiptId: string }).receiptId;
    await db.receiptLogEntry.create({ data: { index: (last?.index ?? -1) + 1, leafHash, receiptId, appendedAt: new Date() } });
  }
}

async function issueInFirstLog(slug: string) {
  const issued = await issue(slug);
  await inFirstLog(issued.receipt);
  return issued;
}

const treeSizeOf = (checkpoint: string) => Number(checkpoint.split('\n')[1]);

describe('@persistence the first receipt log, closed and readable', () => {
  it('proves a receipt’s inclusion under a signed head, offline', async () => {
    for (const slug of ['log-1', 'log-2', 'log-3']) await issueInFirstLog(slug);
    const { coil, receipt } = await issueInFirstLog('log-4');
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
    const other = (await issueInFirstLog('log-5')).receipt;
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
    // A receipt logged since is in the checkpointed log: the closed log says where its proof is.
    const newer = (await issue('log-6')).receipt;
    const moved = await server.get(`/api/receipts/log/inclusion/${newer.receiptId}`);
    expect([moved.status, moved.json.error.code]).toEqual([404, 'RECEIPT_NOT_LOGGED']);
    expect(moved.json.error.issues[0].message).toContain(`/api/receipts/log/proof/${newer.receiptId}`);
  });

  it('the CLI accepts a log that only grew, and catches a dropped or a reordered entry (exit 1)', async () => {
    await issueInFirstLog('grow-1');
    const keys = await keysFile();
    const pinned = (await server.get('/api/receipts/log/head')).json;
    expect(pinned.head.treeSize).toBeGreaterThanOrEqual(3);
    await issueInFirstLog('grow-2');
    await issueInFirstLog('grow-3');
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
    await issueInFirstLog('grow-4');
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

  it('proves the leaf of the row the caller may read, never another row of the same id (issue 34 item 5)', async () => {
    // A wallet keeps a receipt; a release later, the same request from a visitor gives the same
    // id with other bytes (here its compiler version), and both contents are in the log.
    const wallet = await signIn(server, WALLET_A);
    const coil = rawCoil({ slug: 'across-a-release' });
    const body = { coil, nowIso: '2026-11-27T09:00:00.000Z' };
    const mine = await server.post('/api/tools/receipt', body, { cookie: wallet.cookie });
    expect(mine.status).toBe(200);
    const theirs = await server.post('/api/tools/receipt', body);
    const receiptId = theirs.json.receipt.receiptId;
    expect(mine.json.receipt.receiptId).toBe(receiptId);
    const publicRow = await db.receipt.findFirstOrThrow({ where: { receiptId, ownerAddress: null } });
    const nextRelease = { ...JSON.parse(publicRow.receiptJson), compilerVersion: 'svc-compiler-next' };
    await db.receipt.update({ where: { id: publicRow.id }, data: { receiptJson: canonicalJson(nextRelease) } });
    await inFirstLog(mine.json.receipt, nextRelease);

    const visitor = await server.get(`/api/receipts/log/inclusion/${receiptId}`);
    expect(visitor.status).toBe(200);
    expect(visitor.json.leafHash).toBe(receiptLeafHash(nextRelease));
    const owner = await server.get(`/api/receipts/log/inclusion/${receiptId}`, { cookie: wallet.cookie });
    expect(owner.json.leafHash).toBe(receiptLeafHash(mine.json.receipt));
    const verified = await runCli([
      'verify',
      files.file('wallet-receipt.json', mine.json.receipt),
      '--keys',
      await keysFile(),
      '--inclusion',
      files.file('wallet-inclusion.json', owner.json),
    ]);
    expect(verified.status).toBe(0);
  });
});

describe('@persistence what the log keeps (issue 34 item 2)', () => {
  it('1,000 anonymous validate-coil calls with distinct nowIso leave the log as it was; a generate-coil call appends one entry', async () => {
    const size = async () => treeSizeOf((await server.get('/api/receipts/log/checkpoint')).text);
    const counts = async () => ({
      treeSize: await size(),
      entries: await db.tlogEntry.count(),
      firstLog: await db.receiptLogEntry.count(),
      receipts: await db.receipt.count(),
    });
    const before = await counts();
    const coil = rawCoil({ slug: 'anonymous-thousand' });
    const start = Date.parse('2026-11-28T00:00:00.000Z');
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          server.post('/api/tools/validate-coil', { coil, nowIso: new Date(start + (batch * 50 + i) * 1000).toISOString() }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.json.receiptLog).toEqual({ logged: false, reason: 'not_requested', proofPath: null });
        expect(answer.json.receipt.signature.keyId).toBe(KEY_ID);
      }
    }
    const after = await counts();
    expect(after).toEqual({ ...before, receipts: before.receipts + 1000 });

    const generated = await server.post('/api/tools/generate-coil', { prompt: 'Grid batteries and copper', nowIso: NOW });
    expect(generated.json.receiptLog).toEqual({
      logged: true,
      reason: 'generated_coil',
      proofPath: `/api/receipts/log/proof/${generated.json.receipt.receiptId}`,
    });
    expect(await counts()).toEqual({ ...after, treeSize: after.treeSize + 1, entries: after.entries + 1, receipts: after.receipts + 1 });
    console.log('log appends per tool call: anonymous validate-coil 0 (1,000 calls, 0 entries); generate-coil 1');
  });

  it('an anonymous receipt is stored and signed but not logged, and says why; asking for it explicitly logs it', async () => {
    const coil = rawCoil({ slug: 'asked-later' });
    const nowIso = '2026-11-29T00:00:00.000Z';
    const validated = (await server.post('/api/tools/validate-coil', { coil, nowIso })).json;
    const id = validated.receipt.receiptId;
    for (const path of [`/api/receipts/log/proof/${id}`, `/api/receipts/log/inclusion/${id}`]) {
      const refused = await server.get(path);
      expect([refused.status, refused.json.error.code], path).toEqual([404, 'RECEIPT_NOT_LOGGED']);
      expect(refused.json.error.issues[0].message).toContain('nobody asked to keep it');
      expect(refused.json).toMatchObject({ notInvestmentAdvice: true, liveOrderSent: false });
    }
    const asked = (await server.post('/api/tools/receipt', { coil, kind: 'validation', nowIso })).json;
    // The same body and id; each issuance has its own signature block, which says whether it was logged.
    expect({ ...asked.receipt, signature: null }).toEqual({ ...validated.receipt, signature: null });
    expect([validated.receipt.signature.logged, asked.receipt.signature.logged]).toEqual([false, true]);
    expect(asked.receiptLog).toMatchObject({ logged: true, reason: 'explicit_receipt' });

    const proof = await server.get(`/api/receipts/log/proof/${id}`);
    expect(proof.status).toBe(200);
    expect(proof.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(proof.headers.get('cache-control')).toBe('private, no-store');
    expect(proof.text.split('\n')[0]).toBe('c2sp.org/tlog-proof@v1');
    const keys = await keysFile();
    const receiptFile = files.file('asked.json', validated);
    const ok = await runCli(['verify', receiptFile, '--keys', keys, '--proof', files.file('asked.tlog-proof', proof.text), '--json']);
    expect(ok.status, ok.stdout).toBe(0);
    expect(ok.json.result.proof).toMatchObject({ ok: true, checkpoint: { timeStatus: 'valid' } });
    expect(Date.parse(ok.json.result.proof.checkpoint.time)).not.toBeNaN();
    const fetched = await runCli(['verify', receiptFile, '--keys', keys, '--proof-url', `${server.url}/api/receipts/log/proof/${id}`]);
    expect(fetched.status, fetched.stdout + fetched.stderr).toBe(0);
    // Another row's salt, or an edited receipt, does not prove it.
    const [, extra] = proof.text.split('\n');
    const otherSalt = proof.text.replace(extra!, `extra ${Buffer.alloc(32, 7).toString('base64')}`);
    const salted = await runCli(['verify', receiptFile, '--keys', keys, '--proof', files.file('salt.tlog-proof', otherSalt), '--json']);
    expect([salted.status, salted.json.result.failures]).toEqual([1, ['INCLUSION_PROOF_INVALID']]);
    const edited = { ...validated.receipt, coilSlug: 'edited' };
    const editedRun = await runCli([
      'verify',
      files.file('edited.json', edited),
      '--keys',
      keys,
      '--proof',
      files.file('e.tlog-proof', proof.text),
    ]);
    expect(editedRun.status).toBe(1);
  });

  it('a wallet’s save is logged, and a visitor learns nothing of it from the proof route or the tiles', async () => {
    const wallet = await signIn(server, WALLET_B);
    const coil = rawCoil({ slug: 'private-save' });
    const saved = await server.post('/api/tools/score-coil', { coil, nowIso: '2026-11-30T00:00:00.000Z' }, { cookie: wallet.cookie });
    expect(saved.json.receiptLog).toMatchObject({ logged: true, reason: 'wallet_save' });
    const id = saved.json.receipt.receiptId;
    const own = await server.get(`/api/receipts/log/proof/${id}`, { cookie: wallet.cookie });
    expect(own.status).toBe(200);
    const ownRun = await runCli([
      'verify',
      files.file('own.json', saved.json),
      '--keys',
      await keysFile(),
      '--proof',
      files.file('own.tlog-proof', own.text),
    ]);
    expect(ownRun.status).toBe(0);

    const visitor = await server.get(`/api/receipts/log/proof/${id}`);
    const nobody = await server.get(`/api/receipts/log/proof/hrcpt_${'0'.repeat(32)}`);
    expect([visitor.status, visitor.text]).toEqual([404, nobody.text]);
    expect(nobody.json.error.code).toBe('RECEIPT_NOT_FOUND');

    // The public tiles hold the salted entry and nothing a visitor could compute from the receipt.
    const row = await db.receipt.findFirstOrThrow({ where: { receiptId: id, ownerAddress: { not: null } } });
    const entry = await db.tlogEntry.findUniqueOrThrow({ where: { receiptRowId: row.id } });
    const size = treeSizeOf((await server.get('/api/receipts/log/checkpoint')).text);
    let published = '';
    for (let tile = 0; tile * 256 < size; tile++) {
      const width = Math.min(256, size - tile * 256);
      const suffix = `${String(tile).padStart(3, '0')}${width === 256 ? '' : `.p/${width}`}`;
      for (const kind of ['entries', '0']) {
        const res = await fetch(`${server.url}/api/receipts/log/tile/${kind}/${suffix}`);
        expect(res.status).toBe(200);
        published += Buffer.from(await res.arrayBuffer()).toString('hex');
      }
    }
    expect(published).toContain(entry.entry);
    const unsalted = createHash('sha256').update(row.receiptJson).digest('hex');
    expect(published).not.toContain(unsalted);
    expect(published).not.toContain(receiptLeafHash(JSON.parse(row.receiptJson)));
    expect(published).not.toContain(entry.salt);
  });

  it('serves the log as tlog-tiles: full tiles immutable, partial ones not, 404 beyond the log, errors in the envelope', async () => {
    const size = treeSizeOf((await server.get('/api/receipts/log/checkpoint')).text);
    const partial = await fetch(`${server.url}/api/receipts/log/tile/0/000.p/${Math.min(size, 255)}`);
    expect([partial.status, partial.headers.get('content-type'), partial.headers.get('cache-control')]).toEqual([
      200,
      'application/octet-stream',
      'public, max-age=60',
    ]);
    for (const path of ['tile/0/x000/001', 'tile/0/001', 'tile/1/000', 'tile/entries/000.p/0', 'tile/9/000.p/300']) {
      const res = await server.get(`/api/receipts/log/${path}`);
      expect([res.status, res.json.error.code], path).toEqual([404, 'TILE_NOT_FOUND']);
    }
    const badNow = await server.get('/api/receipts/log/checkpoint?nowIso=yesterday');
    expect([badNow.status, badNow.json.error.code]).toEqual([400, 'NOW_ISO_INVALID']);
  });
});

describe('@persistence the checkpointed log across instances', () => {
  it('keeps one dense log when two instances append at once, under checkpoints that agree', async () => {
    const second = await startServer({ databaseUrl: server.databaseUrl, env: SERVER_ENV });
    try {
      const before = await db.tlogEntry.count();
      const writes = Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? server : second).post('/api/tools/receipt', { coil: rawCoil({ slug: `both-${i}` }), nowIso: NOW }),
      );
      const answers = await Promise.all(writes);
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const entries = await db.tlogEntry.findMany({ orderBy: { index: 'asc' } });
      expect(entries.length).toBe(before + 40);
      expect(entries.map((e) => e.index)).toEqual(entries.map((_, i) => i));
      const [a, b] = await Promise.all([server.get('/api/receipts/log/checkpoint'), second.get('/api/receipts/log/checkpoint')]);
      expect(b.text.split('\n').slice(0, 3)).toEqual(a.text.split('\n').slice(0, 3));
      const keys = await keysFile();
      const last = answers[39]!.json.receipt;
      const proof = (await second.get(`/api/receipts/log/proof/${last.receiptId}`)).text;
      const run = await runCli(['verify', files.file('both.json', last), '--keys', keys, '--proof', files.file('both.tlog-proof', proof)]);
      expect(run.status, run.stdout).toBe(0);
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
