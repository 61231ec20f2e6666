/**
 * The offline CLI as users get it: `npx svc` from the repository, and the packed tarball
 * installed into a scratch directory with the network refused (`--offline`: npm may not fetch
 * anything) and run from there. The packed package is the CLI alone (scripts/pack-manifest.mjs):
 * no dependency to install, and its one file loads no database client or web framework.
 *
 * The pack runs in a copy of the package's files, so the prepack/postpack rewrite of
 * package.json never touches the working tree other tests read.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MerkleTree } from '../../src/lib/server/receipts/merkle';
import { keyIdOf, publishedKey, signDocument } from '../../src/lib/server/receipts/signature';
import { formatTlogProof, noteVerifierKey, signCheckpoint, tlogEntryOf, tlogLeafHash } from '../../src/lib/server/receipts/tlog';
import { cliFiles, runCli } from '../support/cli';
import { ROOT } from '../support/server';

const work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
    timeout: 120_000,
  });

describe('the CLI package', () => {
  it('runs with npx from the repository', () => {
    const out = execFileSync('npx', ['--offline', 'svc', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(out.trim()).toBe('1.0.0');
  });

  it('packs into a tarball that installs offline with no dependencies and runs there', async () => {
    const source = join(work, 'source');
    mkdirSync(join(source, 'scripts'), { recursive: true });
    for (const path of [
      'package.json',
      'README.md',
      'build-cli',
      'docs/cli.md',
      'docs/trust-model.md',
      'scripts/pack-manifest.mjs',
      'scripts/build-cli.mjs',
    ])
      cpSync(join(ROOT, path), join(source, path), { recursive: true });
    npm(['pack', '--pack-destination', work], source);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    // postpack put the full manifest back.
    expect(JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')).dependencies).toBeDefined();

    const scratch = join(work, 'scratch');
    mkdirSync(scratch);
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }));
    npm(['install', join(work, tarball!)], scratch);
    const installed = join(scratch, 'node_modules');
    expect(readdirSync(installed).filter((d) => !d.startsWith('.'))).toEqual(['strategy-basket-service']);
    const packed = readFileSync(join(installed, 'strategy-basket-service', 'build-cli', 'svc.mjs'), 'utf8');
    for (const heavy of ['@prisma/client', '@sveltejs/kit', 'better-sqlite3', '@modelcontextprotocol/sdk', 'ioredis'])
      expect(packed, heavy).not.toContain(heavy);
    expect(existsSync(join(installed, 'strategy-basket-service', 'docs', 'trust-model.md'))).toBe(true);

    const bin = join(installed, '.bin', 'svc');
    const files = cliFiles();
    const coiled = await runCli(['coil', 'defensive dividend stocks', '--now', '2026-11-27T00:00:00Z', '--json'], {
      cli: bin,
      cwd: scratch,
    });
    expect(coiled.status, coiled.stderr).toBe(0);
    const validated = await runCli(['validate', files.file('coil.json', coiled.json.result.coil)], { cli: bin, cwd: scratch });
    expect(validated.status).toBe(0);
    const replayed = await runCli(
      [
        'replay',
        files.file('request.json', {
          path: '/api/tools/generate-coil',
          body: { prompt: 'defensive dividend stocks', nowIso: '2026-11-27T00:00:00Z' },
          answer: { coil: coiled.json.result.coil, receipt: coiled.json.result.receipt },
        }),
      ],
      { cli: bin, cwd: scratch },
    );
    expect(replayed.status, replayed.stdout).toBe(0);
    expect((await runCli(['verify', '--help'], { cli: bin, cwd: scratch })).status).toBe(0);

    // The packed CLI checks a receipt's proof file of the checkpointed log (c2sp.org/tlog-proof@v1), offline.
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const signer = { keyId: keyIdOf(publicKey), privateKey, publicKey };
    const origin = 'svc.example/api/receipts/log';
    const receipt = signDocument(coiled.json.result.receipt, signer);
    const salt = randomBytes(32);
    const tree = MerkleTree.of([tlogLeafHash(randomBytes(32)), tlogLeafHash(tlogEntryOf(receipt, salt))]);
    const checkpoint = signCheckpoint(origin, 2, tree.root(), signer, new Date());
    const keys = {
      keys: [publishedKey(publicKey, new Date().toISOString(), null)],
      checkpointLog: {
        origin,
        noteVerifierKey: noteVerifierKey(origin, publicKey),
        noteVerifierKeys: [noteVerifierKey(origin, publicKey)],
      },
    };
    const proof = formatTlogProof({ extra: salt, index: 1, auditPath: tree.inclusionProof(1), checkpoint });
    const proven = await runCli(
      [
        'verify',
        files.file('receipt.json', receipt),
        '--keys',
        files.file('keys.json', keys),
        '--proof',
        files.file('r.tlog-proof', proof),
        '--json',
      ],
      { cli: bin, cwd: scratch },
    );
    expect(proven.status, proven.stdout).toBe(0);
    expect(proven.json.result.proof).toMatchObject({ ok: true, index: 1, checkpoint: { origin, treeSize: 2, timeStatus: 'valid' } });

    // npx with the tarball itself as the package, offline.
    const viaNpx = execFileSync('npx', ['--offline', '--yes', `--package=${join(work, tarball!)}`, 'svc', '--version'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    expect(viaNpx.trim()).toBe('1.0.0');
  });
});
