/**
 * The lifecycle of the service's signing keys in the database (model `SigningKey`,
 * docs/trust-model.md#the-signing-key): which key the instances sign with, rotation and
 * revocation. Publishing and reading the key set stays in db/receipt-log-repository.ts.
 *
 * Every change runs in one transaction; on PostgreSQL it first takes a transaction-scoped
 * advisory lock, so instances that start together, or a command run beside them, decide one
 * after the other: exactly one of them mints the shared key, and none closes another's period
 * while it reads it.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { ServerTime } from '../clock';
import { keyIdOf, publicKeyX, type Signer } from '../receipts/signature';
import { config } from '../config';
import { getDb, providerOf, type Db } from './client';

/** pg_advisory_xact_lock's key for the signing keys (an arbitrary constant, distinct from the log's). */
const SIGNING_KEY_LOCK = 4_663_036_003;

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** Runs `work` in one transaction, under the advisory lock on PostgreSQL (SQLite serialises writers itself). */
async function locked<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  const db = getDb();
  return db.$transaction(async (tx) => {
    if (providerOf(config().databaseUrl) === 'postgresql')
      await tx.$queryRawUnsafe(`SELECT 1 AS locked FROM pg_advisory_xact_lock(${SIGNING_KEY_LOCK})`);
    return work(tx);
  });
}

/** Why an instance does not start with the key it has: the message names key ids and commands, never a key. */
export class SigningKeyConflict extends Error {}

export function signerOfPem(pem: string): Signer {
  const privateKey = createPrivateKey({ key: pem, format: 'pem' });
  const publicKey = createPublicKey(privateKey);
  return { keyId: keyIdOf(publicKey), privateKey, publicKey };
}

const REVOKED = (keyId: string, at: Date, reason: string | null) =>
  `the signing key ${keyId} was revoked at ${at.toISOString()}${reason ? ` (${reason})` : ''}: configure the current key, or rotate (npm run keys -- rotate)`;
const RETIRED = (keyId: string, at: Date) =>
  `the signing key ${keyId} was retired by a rotation at ${at.toISOString()}: configure the current key (GET /api/receipts/keys names it)`;

/**
 * Takes `signer` (a configured key, or the key file beside the SQLite database) as the key this
 * instance signs with. A key the database has retired or revoked is refused. A key the database
 * does not know yet is registered as the active one, closing the period of the key before it
 * (a rotation by restart), except on PostgreSQL while another key is active: there the instances
 * share one key, and an instance that would start a second one refuses to start instead
 * (`npm run keys -- rotate --key-file` rotates on purpose).
 */
export async function takeGivenKey(signer: Signer, at: ServerTime, options: { shared: boolean }): Promise<void> {
  await locked(async (tx) => {
    const own = await tx.signingKey.findUnique({ where: { keyId: signer.keyId } });
    if (own?.revokedAt) throw new SigningKeyConflict(REVOKED(own.keyId, own.revokedAt, own.revocationReason));
    if (own?.validUntil) throw new SigningKeyConflict(RETIRED(own.keyId, own.validUntil));
    if (own) return;
    const active = await tx.signingKey.findFirst({ where: { validUntil: null, revokedAt: null } });
    if (active && options.shared)
      throw new SigningKeyConflict(
        `the instances on this database sign with key ${active.keyId}, and this instance's key is ${signer.keyId}: ` +
          'starting would make it a second signer. Give it the same key (SVC_SIGNING_KEY or SVC_SIGNING_KEY_FILE), ' +
          'or rotate on purpose with npm run keys -- rotate --key-file <new key>',
      );
    await tx.signingKey.updateMany({ where: { validUntil: null }, data: { validUntil: at } });
    await tx.signingKey.create({
      data: { keyId: signer.keyId, algorithm: 'Ed25519', publicKey: publicKeyX(signer.publicKey), validFrom: at },
    });
  });
}

/**
 * The key the instances on PostgreSQL share when none is configured: the active key kept in the
 * database, or, when there is none yet, a new one minted and kept there (under the lock, so
 * instances starting together take the same one). When the active key is not kept in the
 * database (it was configured on the other instances), this instance refuses to start rather
 * than mint a second key; `legacyPem` (the key file ./data/svc-signing-key.pem of an instance
 * from before keys were kept in the database) is used when it is that active key.
 */
export async function takeKeptKey(at: ServerTime, legacyPem: string | undefined): Promise<Signer> {
  return locked(async (tx) => {
    const active = await tx.signingKey.findFirst({ where: { validUntil: null, revokedAt: null } });
    if (active?.privateKey) return signerOfPem(active.privateKey);
    if (active) {
      const legacy = legacyPem ? signerOfPem(legacyPem) : undefined;
      if (legacy?.keyId === active.keyId) return legacy;
      throw new SigningKeyConflict(
        `the instances on this database sign with key ${active.keyId}, which is configured on them and not kept in the database: ` +
          'give this instance the same key (SVC_SIGNING_KEY or SVC_SIGNING_KEY_FILE); minting its own would make it a second signer',
      );
    }
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const signer = signerOfPem(pem);
    await tx.signingKey.create({
      data: { keyId: signer.keyId, algorithm: 'Ed25519', publicKey: publicKeyX(signer.publicKey), validFrom: at, privateKey: pem },
    });
    return signer;
  });
}

/**
 * Rotation (`npm run keys -- rotate`): `pem` becomes the active key from `at`, the period of the
 * key before it closes at `at`. `keep` stores the private key in the database (the shared key of
 * instances on PostgreSQL without a configured one). Instances started with the old key keep it
 * in memory until they restart, and what they sign after `at` fails as outside the key's period:
 * restart them.
 */
export async function rotateTo(pem: string, at: ServerTime, keep: boolean): Promise<{ keyId: string; retired: string[] }> {
  const signer = signerOfPem(pem);
  return locked(async (tx) => {
    if (await tx.signingKey.findUnique({ where: { keyId: signer.keyId } }))
      throw new SigningKeyConflict(`the key ${signer.keyId} has been registered before: a rotation needs a new key`);
    const open = await tx.signingKey.findMany({ where: { validUntil: null }, select: { keyId: true } });
    await tx.signingKey.updateMany({ where: { validUntil: null }, data: { validUntil: at } });
    await tx.signingKey.create({
      data: {
        keyId: signer.keyId,
        algorithm: 'Ed25519',
        publicKey: publicKeyX(signer.publicKey),
        validFrom: at,
        privateKey: keep ? pem : null,
      },
    });
    return { keyId: signer.keyId, retired: open.map((k) => k.keyId) };
  });
}

/**
 * Revocation (`npm run keys -- revoke`): from `at` on, nothing the key signed verifies; what it
 * signed before verifies only with an inclusion proof under a checkpoint made before `at`. A
 * revoked key's private key is dropped from the database, and its period closes at `at` if it
 * was still open (the instances that hold it must be given another key: they refuse to start
 * with it).
 */
export async function revokeKey(keyId: string, at: Date, reason: string): Promise<void> {
  await locked(async (tx) => {
    const key = await tx.signingKey.findUnique({ where: { keyId } });
    if (!key) throw new SigningKeyConflict(`no signing key ${keyId} is registered`);
    if (key.revokedAt) throw new SigningKeyConflict(`the key ${keyId} was already revoked at ${key.revokedAt.toISOString()}`);
    await tx.signingKey.update({
      where: { keyId },
      data: { revokedAt: at, revocationReason: reason, privateKey: null, validUntil: key.validUntil ?? at },
    });
  });
}
