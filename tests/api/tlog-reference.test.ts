/**
 * The checkpointed receipt log checked by Go's reference code (issue 36 item 2,
 * docs/trust-model.md#checked-by-the-reference-implementation): tools/tlog-verify, built from
 * Debian's golang-go and golang-golang-x-mod-dev in GOPATH mode (.ci/run installs them), reads
 * what two instances of the real server wrote to one database: every checkpoint's signature by
 * golang.org/x/mod/sumdb/note, every entry's inclusion from the tiles and entry bundles and the
 * proof files' by sumdb/tlog (ProveRecord, CheckRecord through TileHashReader), the consistency
 * of each checkpoint with the next and with the newest (ProveTree, CheckTree), and refuses each
 * tampered checkpoint, proof file, entry and tile. `svc verify --proof` gives the same verdict
 * as Go on every proof file, tampered ones included. Named @persistence so CI runs it again on
 * PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync, createPublicKey } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync, cpSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../src/lib/server/receipts/signature';
import { signCheckpoint, tilePath } from '../../src/lib/server/receipts/tlog';
import { cliFiles, runCli } from '../support/cli';
import { rawCoil } from '../support/coils';
import { ROOT, startServer, type TestServer } from '../support/server';

const run = promisify(execFile);
const ORIGIN = 'svc.test/receipt-log';
const KEY_PEM = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const ENV = { SVC_SIGNING_KEY: KEY_PEM, RECEIPT_LOG_ORIGIN: ORIGIN, RECEIPT_LOG_CHECKPOINT_INTERVAL_SECONDS: '0' };
const ROUNDS = 105;
const PER_ROUND = 10;

const scratch = mkdtempSync(join(tmpdir(), 'tlog-reference-'));
const files = cliFiles();
let a: TestServer;
let b: TestServer;
let verifier: string;

/** Builds tools/tlog-verify against Debian's x/mod, with no module download. */
async function buildVerifier(): Promise<string> {
  const out = join(scratch, 'tlog-verify');
  try {
    await run('go', ['build', '-o', out, '.'], {
      cwd: join(ROOT, 'tools', 'tlog-verify'),
      env: { ...process.env, GOPATH: `/usr/share/gocode:${join(scratch, 'gopath')}`, GO111MODULE: 'off', GOFLAGS: '', GOPROXY: 'off' },
    });
  } catch (error) {
    throw new Error(
      `tools/tlog-verify did not build: Go and x/mod come from Debian's golang-go and golang-golang-x-mod-dev, which .ci/run installs (apt-get install -y golang-go golang-golang-x-mod-dev)\n${(error as Error).message}`,
      { cause: error },
    );
  }
  return out;
}

beforeAll(async () => {
  verifier = await buildVerifier();
  a = await startServer({ env: ENV });
  b = await startServer({ databaseUrl: a.databaseUrl, env: ENV });
}, 120_000);
afterAll(async () => {
  await b?.stop({ keepData: true });
  await a?.stop();
});

const flipBase64 = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);

/** The tiles a mirror copies for a tree of `size` entries: entry bundles and level-0 and level-1 tiles. */
function tilesOf(size: number): string[] {
  const paths: string[] = [];
  for (let level = 0; 256 ** level <= size; level++) {
    const hashes = Math.floor(size / 256 ** level);
    for (let n = 0; n * 256 < hashes; n++) {
      const width = Math.min(256, hashes - n * 256);
      paths.push(tilePath(level, n, width));
      if (level === 0) paths.push(tilePath('entries', n, width));
    }
  }
  return paths;
}

describe('@persistence the checkpointed log, checked by Go’s reference code', () => {
  it('Go’s sumdb/note and sumdb/tlog accept every checkpoint, inclusion and consistency proof, refuse every tampered input, and svc verify agrees', async () => {
    const checkpoints: string[] = [];
    const issued: { receipt: Record<string, unknown> }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all(
        Array.from({ length: PER_ROUND }, (_, i) =>
          (i % 2 ? a : b).post('/api/tools/receipt', {
            coil: rawCoil({ slug: `ref-${round}-${i}` }),
            nowIso: '2026-12-01T00:00:00.000Z',
          }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        issued.push({ receipt: answer.json.receipt });
      }
      checkpoints.push((await (round % 2 ? a : b).get('/api/receipts/log/checkpoint')).text);
    }
    const keys = (await a.get('/api/receipts/keys')).json;
    const keysFile = files.file('keys.json', keys);
    const latest = checkpoints.at(-1)!;
    const size = Number(latest.split('\n')[1]);
    expect(size).toBeGreaterThanOrEqual(ROUNDS * PER_ROUND);

    // Proof files of every tenth receipt, from either instance.
    const proofs: { name: string; receipt: unknown; proof: string; expect: 'ok' | 'fail' }[] = [];
    for (let i = 0; i < issued.length; i += 10) {
      const res = await (i % 20 ? a : b).get(`/api/receipts/log/proof/${issued[i]!.receipt.receiptId}`);
      expect(res.status).toBe(200);
      proofs.push({ name: `proof-${i}`, receipt: issued[i]!.receipt, proof: res.text, expect: 'ok' });
    }
    const good = proofs[3]!;
    const lines = good.proof.split('\n');
    const pathStart = 3;
    const withLines = (edit: (l: string[]) => void) => {
      const copy = [...lines];
      edit(copy);
      return copy.join('\n');
    };
    const otherKey = generateKeyPairSync('ed25519');
    const otherSigner = {
      keyId: keyIdOf(otherKey.publicKey),
      privateKey: otherKey.privateKey,
      publicKey: createPublicKey(otherKey.privateKey),
    };
    const latestLines = latest.split('\n');
    const tamperedCheckpoints = {
      'checkpoint-size': latest.replace(`\n${size}\n`, `\n${size + 1}\n`),
      'checkpoint-root': [latestLines[0], latestLines[1], checkpoints[0]!.split('\n')[2], ...latestLines.slice(3)].join('\n'),
      'checkpoint-signature': flipBase64(latest, latest.indexOf('\u2014') + ORIGIN.length + 12),
      'checkpoint-origin': latest.replaceAll(ORIGIN, 'svc.test/another-log'),
      'checkpoint-other-key': signCheckpoint(ORIGIN, size, Buffer.from(latestLines[2]!, 'base64').toString('hex'), otherSigner, new Date()),
      'checkpoint-unsigned': latest.slice(0, latest.indexOf('\n\n') + 1),
    };
    const otherReceipt = proofs[4]!.receipt as Record<string, unknown>;
    proofs.push(
      {
        name: 'tampered-path',
        receipt: good.receipt,
        proof: withLines((l) => (l[pathStart] = flipBase64(l[pathStart]!, 5))),
        expect: 'fail',
      },
      {
        name: 'tampered-index',
        receipt: good.receipt,
        proof: withLines((l) => (l[2] = `index ${Number(l[2]!.slice(6)) + 1}`)),
        expect: 'fail',
      },
      { name: 'tampered-salt', receipt: good.receipt, proof: withLines((l) => (l[1] = flipBase64(l[1]!, 8))), expect: 'fail' },
      { name: 'tampered-no-salt', receipt: good.receipt, proof: withLines((l) => l.splice(1, 1)), expect: 'fail' },
      {
        name: 'tampered-truncated-path',
        receipt: good.receipt,
        proof: withLines((l) => l.splice(l.indexOf('') - 1, 1)),
        expect: 'fail',
      },
      { name: 'tampered-entry-other-receipt', receipt: otherReceipt, proof: good.proof, expect: 'fail' },
      { name: 'tampered-entry-field', receipt: { ...(good.receipt as object), coilSlug: 'edited' }, proof: good.proof, expect: 'fail' },
      {
        name: 'tampered-checkpoint-in-proof',
        receipt: good.receipt,
        proof:
          good.proof.slice(0, good.proof.indexOf('\n\n') + 2) +
          tamperedCheckpoints['checkpoint-size'].replace(`\n${size + 1}\n`, '\n999999\n'),
        expect: 'fail',
      },
      {
        name: 'tampered-checkpoint-other-key',
        receipt: good.receipt,
        proof:
          good.proof.slice(0, good.proof.indexOf('\n\n') + 2) +
          signCheckpoint(
            ORIGIN,
            Number(good.proof.split('\n\n')[1]!.split('\n')[1]),
            Buffer.from(good.proof.split('\n\n')[1]!.split('\n')[2]!, 'base64').toString('hex'),
            otherSigner,
            new Date(),
          ),
        expect: 'fail',
      },
    );

    // A mirror of the newest tree, and three copies with one byte changed: an entry, a leaf tile, a level-1 tile.
    const mirror = join(scratch, 'mirror');
    for (const path of tilesOf(size)) {
      const res = await fetch(`${a.url}/api/receipts/log/${path}`);
      expect(res.status, path).toBe(200);
      if (!path.includes('.p/')) expect(res.headers.get('cache-control'), path).toContain('immutable');
      mkdirSync(dirname(join(mirror, path)), { recursive: true });
      writeFileSync(join(mirror, path), Buffer.from(await res.arrayBuffer()));
    }
    const tampered = (name: string, path: string, at: number) => {
      const dir = join(scratch, name);
      cpSync(mirror, dir, { recursive: true });
      const bytes = readFileSync(join(dir, path));
      bytes[at]! ^= 1;
      writeFileSync(join(dir, path), bytes);
      return { name, tilesDir: dir, checkpoint: latest, expect: 'fail' };
    };
    const tiles = [
      { name: 'mirror', tilesDir: mirror, checkpoint: latest, expect: 'ok' },
      tampered('mirror-tampered-entry', tilePath('entries', 1), 2 + 34 * 7 + 3),
      tampered('mirror-tampered-leaf-tile', tilePath(0, 2), 32 * 5),
      tampered(
        'mirror-tampered-level-1-tile',
        tilesOf(size).find((p) => p.startsWith('tile/1/'))!,
        1,
      ),
    ];

    const cases = {
      verifierKey: keys.checkpointLog.noteVerifierKey,
      origin: ORIGIN,
      tileBase: `${b.url}/api/receipts/log`,
      checkpoints: [
        ...checkpoints.map((note, i) => ({ name: `checkpoint-${i}`, note, expect: 'ok' })),
        ...Object.entries(tamperedCheckpoints).map(([name, note]) => ({ name, note, expect: 'fail' })),
      ],
      proofs,
      tiles,
    };
    const casesFile = join(scratch, 'cases.json');
    writeFileSync(casesFile, JSON.stringify(cases));
    let stdout: string;
    try {
      ({ stdout } = await run(verifier, [casesFile], { maxBuffer: 64 * 1024 * 1024 }));
    } catch (error) {
      const out = (error as { stdout?: string }).stdout ?? '';
      throw new Error(
        `the Go verifier refused:\n${out
          .split('\n')
          .filter((l) => l.includes('"expect":"ok","got":"fail"') || l.includes('"expect":"fail","got":"ok"') || l.includes('counts'))
          .join('\n')}`,
        { cause: error },
      );
    }
    const results = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const counts = results.at(-1).counts;
    const tamperedCount =
      cases.checkpoints.filter((c) => c.expect === 'fail').length +
      proofs.filter((p) => p.expect === 'fail').length +
      tiles.filter((t) => t.expect === 'fail').length;
    console.log(
      `tlog-verify (Go x/mod sumdb note+tlog), ${a.databaseUrl.startsWith('file:') ? 'SQLite' : 'PostgreSQL'}, two instances:`,
      JSON.stringify(counts),
    );
    expect(counts.wrongVerdicts).toBe(0);
    expect(counts.checkpointSignatures).toBe(checkpoints.length);
    expect(counts.checkpointSignatures).toBeGreaterThanOrEqual(100);
    expect(counts.consistencyProofs).toBeGreaterThanOrEqual(100);
    expect(counts.inclusionProofsFromTiles + counts.inclusionProofsFromProofFiles).toBeGreaterThanOrEqual(1000);
    expect(counts.inclusionProofsFromTiles).toBe(size);
    expect(counts.tamperedRefused).toBe(tamperedCount);

    // svc verify --proof gives Go's verdict on every tampered proof file and on good ones.
    const goVerdict = new Map(results.filter((r) => r.kind === 'proof').map((r) => [r.case, r.got]));
    const compared = [...proofs.filter((p) => p.expect === 'fail'), ...proofs.filter((p) => p.expect === 'ok').slice(0, 3)];
    for (const p of compared) {
      const cli = await runCli([
        'verify',
        files.file(`${p.name}.json`, p.receipt),
        '--keys',
        keysFile,
        '--proof',
        files.file(`${p.name}.tlog-proof`, p.proof),
        '--json',
      ]);
      const svcVerdict = cli.status === 0 ? 'ok' : 'fail';
      expect([p.name, svcVerdict], cli.stdout).toEqual([p.name, goVerdict.get(p.name)]);
      expect(svcVerdict, p.name).toBe(p.expect);
      if (p.expect === 'fail') expect(cli.json.result.proof.ok, p.name).toBe(false);
    }
    console.log(
      `svc verify --proof agreed with Go on ${compared.length} proof files (${compared.filter((p) => p.expect === 'fail').length} tampered)`,
    );
  }, 600_000);
});
