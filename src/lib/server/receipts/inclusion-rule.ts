/**
 * When a receipt must come with proof that it is in the checkpointed log (issue 36 item 3,
 * docs/trust-model.md#keys): the one rule `POST /api/coil/verify`, `POST /api/receipts/verify`
 * and `svc verify` apply. Pure.
 *
 * A receipt's signature block says whether the service logged it (`logged`). An unlogged one
 * verifies by its signature and its key's period (`not_logged`). A logged one needs its
 * inclusion once it is older than one checkpoint interval (a checkpoint covering it has been
 * published by then), or always when the verifier asks for it (`svc verify
 * --require-inclusion`): without it the verdict is `missing` and the receipt fails. A thief
 * holding a stolen key can write any `signedAt` and `logged: false`; a revoked key's receipts
 * need inclusion under a checkpoint made before the revocation whatever they say
 * (receipts/signature.ts `checkSignature`).
 */

export type InclusionStatus = 'proven' | 'not_logged' | 'pending' | 'missing' | 'failed';

export interface InclusionVerdict {
  status: InclusionStatus;
  /** When the proof says the receipt was in the log (a checkpoint's signed time, or the service's own log entry's time). */
  provenAt: string | null;
}

export interface InclusionFacts {
  /** The signature block's `logged` (null when the block does not say: an older receipt). */
  logged: boolean | null;
  signedAt: string | null;
  /** A proof that checked out, with its time; `failed` when one was given and did not. */
  proof: { ok: true; at: string | null } | { ok: false } | null;
  /** The verifier's clock. */
  now: Date;
  checkpointIntervalSeconds: number;
  /** The verifier asks for inclusion whatever the receipt's age or log status. */
  required?: boolean;
}

export function inclusionVerdict(facts: InclusionFacts): InclusionVerdict {
  if (facts.proof && !facts.proof.ok) return { status: 'failed', provenAt: null };
  if (facts.proof?.ok) return { status: 'proven', provenAt: facts.proof.at };
  if (facts.required) return { status: 'missing', provenAt: null };
  if (facts.logged !== true) return { status: 'not_logged', provenAt: null };
  const signedAt = facts.signedAt === null ? Number.NaN : Date.parse(facts.signedAt);
  const young = facts.now.getTime() - signedAt <= facts.checkpointIntervalSeconds * 1000;
  return { status: young ? 'pending' : 'missing', provenAt: null };
}

/** Whether a verdict lets the receipt pass. */
export function inclusionPasses(verdict: InclusionVerdict): boolean {
  return verdict.status === 'proven' || verdict.status === 'not_logged' || verdict.status === 'pending';
}
