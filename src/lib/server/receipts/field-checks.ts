/**
 * The field-by-field check every receipt verification makes: each load-bearing field of the
 * untrusted receipt is compared with the value recomputed here, and every mismatch is named
 * (never only the first).
 */
import { ORACLE_POLICY_VERSION, REGISTRY_VERSION } from '../registry';

export function fieldChecks() {
  const mismatches: string[] = [];
  const checked: string[] = [];
  return {
    compare(name: string, expected: unknown, actual: unknown): void {
      checked.push(name);
      if (expected !== actual) mismatches.push(name);
    },
    outcome(): { ok: boolean; mismatches: string[]; checked: string[] } {
      return { ok: mismatches.length === 0, mismatches, checked };
    },
  };
}

/**
 * The signature as one more compared field (not compared when no key set was given): `valid`,
 * `absent` and `legacy` pass (an unsigned receipt, or one stored before receipts were signed at
 * issuance, is judged on its hashes; the status says so), anything else (an invalid value, a
 * `signedAt` outside the key's period, a revoked key) is the mismatch `signature`.
 */
export function compareSignature(compare: (name: string, expected: unknown, actual: unknown) => void, check: { status: string }): void {
  if (check.status === 'unchecked') return;
  compare('signature', true, check.status === 'valid' || check.status === 'absent' || check.status === 'legacy');
}

/** Whether the registry and oracle-policy versions stamped in a receipt are the ones in force. */
export function stampedVersionsCurrent(receipt: Record<string, unknown>): boolean {
  return receipt.registryVersion === REGISTRY_VERSION && receipt.oraclePolicyVersion === ORACLE_POLICY_VERSION;
}
