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

/** What the check of a signature found (receipts/signature.ts `checkSignature`). */
export const signatureCheckOut = z
  .object({
    status: z
      .enum(['valid', 'invalid', 'unknown_key', 'absent', 'malformed', 'unchecked'])
      .describe(
        'valid; invalid (a byte or the value differs); unknown_key (not a key of this service); absent; malformed; unchecked (no key set)',
      ),
    keyId: z.string().nullable(),
    key: z
      .object({ validFrom: z.string(), validUntil: z.string().nullable() })
      .nullable()
      .describe("the key's published period, when the key is known"),
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
  })
  .meta({ id: 'PublishedSigningKey' });
