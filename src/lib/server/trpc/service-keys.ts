/**
 * The service's signer and its published key set, for the procedures that sign or check
 * signatures: the signer's key is taken (signing-key.ts `readySigner`) before the key set is
 * read, so a key that signed an answer is always in the set a client fetches.
 */
import { publishedSigningKeys, signingKeysToCheck, type StoredSigningKey } from '../db/receipt-log-repository';
import { signatureKeyIdOf, type Signer } from '../receipts/signature';
import { readySigner } from '../signing-key';
import type { RequestContext } from './context';

export async function signerOf(ctx: RequestContext): Promise<Signer> {
  return readySigner(ctx.config, ctx.serverTime);
}

export async function publishedKeysOf(ctx: RequestContext): Promise<{ signer: Signer; keys: StoredSigningKey[] }> {
  const signer = await signerOf(ctx);
  return { signer, keys: await publishedSigningKeys() };
}

/** The key set the signature of an untrusted `document` is checked against (a recent read may serve). */
export async function keysToCheck(ctx: RequestContext, document: object): Promise<StoredSigningKey[]> {
  await signerOf(ctx);
  return signingKeysToCheck(signatureKeyIdOf(document));
}
