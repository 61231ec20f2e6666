/**
 * The service's public keys and its append-only receipt log (issue 26, docs/trust-model.md):
 * GET /api/receipts/keys, /api/receipts/log/head, /api/receipts/log/inclusion/{receiptId} and
 * /api/receipts/log/consistency. The proofs are computed by receipts/log.ts from the leaves the
 * database holds; every head is signed with the service's key.
 */
import { z } from 'zod';
import { SvcError } from '../../errors';
import { receiptLogEntryOf, receiptLogLeaves, receiptLogSize } from '../../db/receipt-log-repository';
import { consistencyAnswer, inclusionAnswer, LOG_VERSION, signedTreeHead } from '../../receipts/log';
import { nowIsoField, publicProcedure, queryInt, rest, router, stampedOutput } from '../init';
import { publishedKeysOf, signerOf } from '../service-keys';
import { signatureBlockOut } from './receipt-shapes';
import { storedCoilsOf } from './coil-shared';

const HEX_64 = z.string().regex(/^[0-9a-f]{64}$/);

const keyOut = z
  .object({
    kid: z.string().describe('the keyId a signature block names'),
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().describe('the raw 32-byte public key, base64url (RFC 8037)'),
    alg: z.literal('EdDSA'),
    use: z.literal('sig'),
    validFrom: z.string().describe("when the service first used the key (the server's clock)"),
    validUntil: z.string().nullable().describe('when a newer key replaced it; null while it is the newest'),
  })
  .meta({ id: 'PublishedSigningKey' });

const headOut = z
  .object({
    logVersion: z.literal(LOG_VERSION),
    treeSize: z.number().int(),
    rootHash: HEX_64.describe('RFC 9162 Merkle tree hash of the first treeSize entries'),
    timestamp: z.string().describe("the server's clock when the head was signed (never nowIso)"),
    signature: signatureBlockOut,
  })
  .meta({ id: 'SignedTreeHead', description: "The receipt log's head, signed by the service" });

const meta = (path: `/${string}`, summary: string, description: string) => ({
  family: 'tools' as const,
  openapi: rest('GET', path, summary, { description, tags: ['receipts'] }),
});

const fields = <N extends string, T extends z.ZodRawShape>(tool: N, shape: T) =>
  stampedOutput({ tool: z.literal(tool), generatedAt: z.string(), ...shape });

const treeSizeParam = (description: string) =>
  queryInt({ min: 0, max: 2 ** 31 - 1 })
    .meta({
      description,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.anyOf;
        Object.assign(jsonSchema, { type: 'integer', minimum: 0 });
      },
    })
    .optional();

function sizeOutOfRange(path: string, size: number): SvcError {
  return new SvcError('TREE_SIZE_OUT_OF_RANGE', 'The log does not have a tree of this size', {
    issues: [{ code: 'TREE_SIZE_OUT_OF_RANGE', message: `the log holds ${size} entries`, path }],
  });
}

export const receiptLogRouter = router({
  keys: publicProcedure
    .meta(
      meta(
        '/receipts/keys',
        "The service's public signing keys, with the period each was in use",
        'Every Ed25519 key the service has signed receipts and log heads with, as JWKs (RFC 8037) with validFrom and validUntil; keys are never removed, so a receipt signed before a rotation still verifies. signingKeyId is the key signing now. Pass this document to the offline CLI (`svc verify --keys`).',
      ),
    )
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(fields('receipt-keys', { signingKeyId: z.string(), keys: z.array(keyOut) }))
    .query(async ({ ctx }) => {
      const { signer, keys } = await publishedKeysOf(ctx);
      return { tool: 'receipt-keys' as const, generatedAt: ctx.answerTime.toISOString(), signingKeyId: signer.keyId, keys };
    }),

  head: publicProcedure
    .meta(
      meta(
        '/receipts/log/head',
        "The receipt log's current signed tree head",
        'Every stored Coil receipt is appended once to an RFC 9162 Merkle tree (leaf = the receipt’s canonical JSON without its signature). Keep a head: a later consistency proof shows the log only grew since.',
      ),
    )
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(fields('receipt-log-head', { head: headOut }))
    .query(async ({ ctx }) => {
      const signer = await signerOf(ctx);
      const size = await receiptLogSize();
      const head = signedTreeHead(await receiptLogLeaves(size), size, ctx.serverTime, signer);
      return { tool: 'receipt-log-head' as const, generatedAt: ctx.answerTime.toISOString(), head };
    }),

  inclusion: publicProcedure
    .meta(
      meta(
        '/receipts/log/inclusion/{receiptId}',
        'The inclusion proof of a stored receipt in the log',
        'The leaf index, leaf hash and audit path of the receipt (one you may read: stored under no wallet or under yours) in the tree of treeSize entries (default: the current size), with the signed head of that tree. 404 RECEIPT_NOT_FOUND when you may not read such a receipt; 404 RECEIPT_NOT_LOGGED when it was stored before the log existed; 422 TREE_SIZE_OUT_OF_RANGE when treeSize is larger than the log or does not include the receipt.',
      ),
    )
    .input(
      z.object({
        receiptId: z.string().regex(/^hrcpt_[0-9a-f]{32}$/, 'expected hrcpt_ followed by 32 hex digits'),
        treeSize: treeSizeParam('the size of the tree to prove inclusion in (default: the current size)'),
        nowIso: nowIsoField,
      }),
    )
    .output(
      fields('receipt-log-inclusion', {
        receiptId: z.string(),
        leafIndex: z.number().int(),
        leafHash: HEX_64,
        treeSize: z.number().int(),
        auditPath: z.array(HEX_64),
        head: headOut,
      }),
    )
    .query(async ({ ctx, input }) => {
      const stored = await (await storedCoilsOf(ctx)).receipt(input.receiptId);
      if (!stored)
        throw new SvcError('RECEIPT_NOT_FOUND', 'No receipt with this id is stored for you', {
          issues: [{ code: 'RECEIPT_NOT_FOUND', message: 'issue the receipt first', path: 'receiptId' }],
        });
      const entry = await receiptLogEntryOf(input.receiptId);
      if (!entry)
        throw new SvcError('RECEIPT_NOT_LOGGED', 'This receipt was stored before the receipt log existed', {
          issues: [{ code: 'RECEIPT_NOT_LOGGED', message: 'no log entry holds this receipt', path: 'receiptId' }],
        });
      const signer = await signerOf(ctx);
      const size = await receiptLogSize();
      const treeSize = input.treeSize ?? size;
      if (treeSize > size || treeSize <= entry.index) throw sizeOutOfRange('treeSize', size);
      const leaves = await receiptLogLeaves(treeSize);
      return {
        tool: 'receipt-log-inclusion' as const,
        generatedAt: ctx.answerTime.toISOString(),
        ...inclusionAnswer(leaves, entry.index, treeSize, input.receiptId, ctx.serverTime, signer),
      };
    }),

  consistency: publicProcedure
    .meta(
      meta(
        '/receipts/log/consistency',
        'The consistency proof between two tree sizes of the log',
        'RFC 9162 consistency proof that the tree of `second` entries (default: the current size) extends the tree of `first`, with both heads signed. Check it against the head you kept, not against firstHead: `svc log-consistency <your-head.json> <this-answer.json>`. 422 TREE_SIZE_OUT_OF_RANGE when first > second or second is larger than the log.',
      ),
    )
    .input(
      z.object({
        first: treeSizeParam('the size of the older tree (the head you kept)').unwrap(),
        second: treeSizeParam('the size of the newer tree (default: the current size)'),
        nowIso: nowIsoField,
      }),
    )
    .output(
      fields('receipt-log-consistency', {
        first: z.number().int(),
        second: z.number().int(),
        proof: z.array(HEX_64),
        firstHead: headOut,
        secondHead: headOut,
      }),
    )
    .query(async ({ ctx, input }) => {
      const signer = await signerOf(ctx);
      const size = await receiptLogSize();
      const second = input.second ?? size;
      if (second > size) throw sizeOutOfRange('second', size);
      if (input.first > second) throw sizeOutOfRange('first', size);
      const leaves = await receiptLogLeaves(second);
      return {
        tool: 'receipt-log-consistency' as const,
        generatedAt: ctx.answerTime.toISOString(),
        ...consistencyAnswer(leaves, input.first, second, ctx.serverTime, signer),
      };
    }),
});
