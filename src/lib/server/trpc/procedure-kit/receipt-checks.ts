/**
 * The checks of an untrusted receipt beyond its hashes, as the service's verification routes
 * make them (POST /api/coil/verify, POST /api/receipts/verify, svc_verify_receipt): its
 * signature against the key set with its `signedAt` in the key's period and the key's
 * revocation, and its inclusion in the checkpointed log by the rule of
 * receipts/inclusion-rule.ts, the same checks `svc verify` makes offline.
 *
 * The inclusion is proven by a proof file the caller sends (`proof`, c2sp.org/tlog-proof@v1,
 * checked against the log's note verifier keys, its time the checkpoint's signed time), or else
 * by the service's own log: a stored row the caller may read with exactly this receipt's bytes
 * and an entry in the log, its time the entry's `appendedAt` (written by the service in the
 * receipt's own transaction, which a thief holding a stolen key cannot write).
 */
import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../../canonical';
import { tlogEntryOfRow, type StoredSigningKey } from '../../db/receipt-log-repository';
import { inclusionPasses, inclusionVerdict, type InclusionVerdict } from '../../receipts/inclusion-rule';
import { checkSignature, type SignatureCheckOptions } from '../../receipts/signature';
import { checkTlogProof, noteVerifierKey } from '../../receipts/tlog';
import type { RequestContext } from '../context';
import { keysToCheck } from '../service-keys';
import { storedCoilsOf } from './coil-store';

/** The optional proof file a verification route takes. */
export const proofFileField = z
  .string()
  .max(64_000)
  .optional()
  .describe(
    "the receipt's proof file (GET /api/receipts/log/proof/{receiptId}, c2sp.org/tlog-proof@v1): proves its inclusion under a signed checkpoint",
  );

export const inclusionOut = z
  .object({
    status: z
      .enum(['proven', 'not_logged', 'pending', 'missing', 'failed'])
      .describe(
        "proven (by the proof file, or the service's own log); not_logged (the signature block says the service did not log it: verified by signature and key period); pending (logged, younger than one checkpoint interval); missing (logged and older than one checkpoint interval, and not found in the log: fails); failed (the proof file did not check out: fails)",
      ),
    provenAt: z.string().nullable().describe("the checkpoint's signed time (proof file), or when the service's log took the entry"),
    index: z.number().int().nullable().describe("the entry's index in the checkpointed log, when known"),
  })
  .meta({ id: 'InclusionCheck' });

export interface ReceiptChecks {
  keys: StoredSigningKey[];
  signatureOptions: SignatureCheckOptions;
  inclusion: InclusionVerdict & { index: number | null };
  /** Whether the inclusion lets the receipt pass (the mismatch `inclusion` when not). */
  inclusionPasses: boolean;
}

function ownContentOf(receipt: Record<string, unknown>): string | null {
  try {
    const { signature: _signature, ...content } = receipt;
    return canonicalJson(content);
  } catch {
    return null;
  }
}

/** The service's own log entry of exactly this receipt, among the rows the caller may read. */
async function ownLogEntry(ctx: RequestContext, receipt: Record<string, unknown>): Promise<{ index: number; appendedAt: Date } | null> {
  const content = ownContentOf(receipt);
  if (content === null || typeof receipt.receiptId !== 'string') return null;
  const rows = await (await storedCoilsOf(ctx)).receiptRows(receipt.receiptId);
  for (const row of rows) {
    if (row.receiptJson !== content) continue;
    const entry = await tlogEntryOfRow(row.id);
    if (entry) return { index: entry.index, appendedAt: entry.appendedAt };
  }
  return null;
}

export async function receiptChecks(
  ctx: RequestContext,
  receipt: Record<string, unknown>,
  proofText: string | undefined,
): Promise<ReceiptChecks> {
  const keys = await keysToCheck(ctx, receipt);
  const block = checkSignature(receipt, keys);
  let proof: { ok: true; at: string | null } | { ok: false } | null = null;
  let index: number | null = null;
  if (proofText !== undefined) {
    const origin = ctx.config.receiptLog.origin;
    const verifierKeys = keys.map((k) =>
      noteVerifierKey(origin, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.x }, format: 'jwk' })),
    );
    const check = checkTlogProof(receipt, proofText, verifierKeys, origin);
    proof = check.ok ? { ok: true, at: check.checkpoint.time } : { ok: false };
    index = check.index;
  } else if (block.logged !== false) {
    const entry = await ownLogEntry(ctx, receipt);
    if (entry) {
      proof = { ok: true, at: entry.appendedAt.toISOString() };
      index = entry.index;
    }
  }
  const verdict = inclusionVerdict({
    logged: block.logged,
    signedAt: block.signedAt,
    proof,
    now: ctx.serverTime,
    checkpointIntervalSeconds: ctx.config.receiptLog.checkpointIntervalSeconds,
  });
  return {
    keys,
    signatureOptions: { includedUnderCheckpointAt: verdict.provenAt },
    inclusion: { ...verdict, index },
    inclusionPasses: inclusionPasses(verdict),
  };
}

/** A verification with the inclusion's verdict folded in: the mismatch `inclusion` when it does not pass. */
export function withInclusion<V extends { ok: boolean; mismatches: string[]; checked: string[] }>(
  verification: V,
  checks: ReceiptChecks,
): V & { inclusion: ReceiptChecks['inclusion'] } {
  const mismatches = checks.inclusionPasses ? verification.mismatches : [...verification.mismatches, 'inclusion'];
  return {
    ...verification,
    ok: verification.ok && checks.inclusionPasses,
    mismatches,
    checked: [...verification.checked, 'inclusion'],
    inclusion: checks.inclusion,
  };
}
