/** The service's signature (receipts/signature.ts, docs/trust-model.md) and its published keys, as answers show them. */
import { z } from 'zod';

/** The service's signature on a receipt or a log head. */
export const signatureBlockOut = z
  .object({
    alg: z.literal('Ed25519'),
    keyId: z.string().describe('first 32 hex of sha256 of the raw public key; GET /api/receipts/keys lists it'),
    value: z.string().describe('base64url Ed25519 signature over the RFC 8785 canonical JSON of the document without its signature member'),
  })
  .meta({ id: 'SignatureBlock', description: "The service's signature: proves who issued the document, never that an order was placed" });

/** A receipt's signature block: the key and the server's time of signing, signed with the receipt (issue 36 item 3). */
export const receiptSignatureBlockOut = z
  .object({
    alg: z.literal('Ed25519'),
    keyId: z.string().describe('first 32 hex of sha256 of the raw public key; GET /api/receipts/keys lists it with its period and status'),
    signedAt: z
      .string()
      .describe("when the service signed the receipt: the server's clock, never the caller's nowIso; checked against the key's period"),
    logged: z.boolean().describe('whether the service appended this receipt to the checkpointed log (an inclusion proof is then expected)'),
    value: z
      .string()
      .describe('base64url Ed25519 signature over the RFC 8785 canonical JSON of the receipt with this block without its value'),
  })
  .meta({
    id: 'ReceiptSignatureBlock',
    description: "The service's signature on a receipt it issued: proves who issued it and when, never that an order was placed",
  });

/** A receipt stored before receipts were signed at issuance (docs/trust-model.md#legacy-receipts). */
export const legacySignatureOut = z.object({ status: z.literal('legacy') }).meta({
  id: 'LegacySignature',
  description: 'stored before receipts were signed at issuance: no signature says which key issued it; judged on its hashes and the log',
});

/** The signature of a receipt as answers carry it. */
export const receiptSignatureOut = z.union([receiptSignatureBlockOut, legacySignatureOut]);

/** What the check of a signature found (receipts/signature.ts `checkSignature`). */
export const signatureCheckOut = z
  .object({
    status: z
      .enum([
        'valid',
        'invalid',
        'unknown_key',
        'absent',
        'malformed',
        'unchecked',
        'legacy',
        'outside_key_period',
        'revoked',
        'revoked_without_inclusion',
      ])
      .describe(
        "valid; invalid (a byte or the value differs); unknown_key (not a key of this service); absent; malformed; unchecked (no key set); legacy (stored before signing at issuance); outside_key_period (signedAt outside the key's period); revoked (signed at or after the key's revocation); revoked_without_inclusion (signed before it, without an inclusion proof under a checkpoint made before it)",
      ),
    keyId: z.string().nullable(),
    key: z
      .object({
        validFrom: z.string(),
        validUntil: z.string().nullable(),
        status: z.enum(['active', 'retired', 'revoked']),
        revokedAt: z.string().nullable(),
      })
      .nullable()
      .describe("the key's published period, status and revocation, when the key is known"),
    signedAt: z.string().nullable().describe("the signature block's signedAt (null when it has none)"),
    logged: z.boolean().nullable().describe("the signature block's logged (null when it does not say)"),
  })
  .meta({ id: 'SignatureCheck' });

/** A signing key as GET /api/receipts/keys publishes it: a JWK (RFC 8037) with the period it was in use. */
export const publishedKeyOut = z
  .object({
    kid: z.string().describe('the keyId a signature block names'),
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().describe('the raw 32-byte public key, base64url (RFC 8037)'),
    alg: z.literal('EdDSA'),
    use: z.literal('sig'),
    validFrom: z.string().describe("when the service first used the key (the server's clock)"),
    validUntil: z.string().nullable().describe('when a newer key replaced it; null while it is the newest'),
    status: z.enum(['active', 'retired', 'revoked']).describe('active (signing now), retired (replaced by a rotation) or revoked'),
    revokedAt: z
      .string()
      .nullable()
      .describe(
        'when the key was revoked: receipts it signed at or after this fail; one signed before verifies only with an inclusion proof under a checkpoint made before it',
      ),
    revocationReason: z.string().nullable(),
  })
  .meta({ id: 'PublishedSigningKey' });
