/**
 * A fee claim the partner reports (the amount it says is due, for a period, for a vault or
 * a token, under its own reference), validated and fingerprinted as a deterministic receipt.
 * The claim is the partner's word: it is never proof of payment, and nothing here moves or
 * verifies money. Rules reject, never clamp: 422 FEE_CLAIM_INVALID with one issue per rule.
 */
import { parseIsoInstant, type ServerTime } from '../clock';
import { SvcError, type ErrorIssue } from '../errors';
import { buildArtifactReceipt } from '../receipts/artifact';
import { checkCanonical } from '../registry';
import { formatUsdgUnits } from './amount';
import { MAX_USDG_UNITS } from './fees';
import { findVault } from './registry';

export const FEE_CLAIM_VERSION = 'svc-partner-fee-claim-1.0.0';
/** A period may end at most this far ahead of the server clock (clock skew). */
const PERIOD_END_SKEW_MS = 120_000;

export interface FeeClaimInput {
  partnerReference: string;
  amountUnits: string;
  currency?: string;
  periodStart: string;
  periodEnd: string;
  vaultId?: string;
  tokenAddress?: string;
}

export interface FeeClaimDeps {
  now: Date;
  /** The server's clock: a period that has not ended cannot be claimed yet. */
  serverTime: ServerTime;
}

const issue = (code: string, message: string, path: string): ErrorIssue => ({ code, message, path: `claim.${path}` });

function subjectOf(input: FeeClaimInput, issues: ErrorIssue[]) {
  if (input.vaultId === undefined && input.tokenAddress === undefined) {
    issues.push(issue('SUBJECT_REQUIRED', 'name the vault (vaultId) or the token (tokenAddress) the fee is for', 'vaultId'));
    return null;
  }
  if (input.vaultId !== undefined && input.tokenAddress !== undefined) {
    issues.push(issue('SUBJECT_AMBIGUOUS', 'a claim is for one vault or one token, not both', 'tokenAddress'));
    return null;
  }
  if (input.vaultId !== undefined) {
    const vault = findVault(input.vaultId);
    if (!vault) {
      issues.push(issue('VAULT_UNKNOWN', 'no registered vault has this slug or address', 'vaultId'));
      return null;
    }
    return { kind: 'vault' as const, slug: vault.slug, address: vault.address, ticker: null };
  }
  const check = checkCanonical(undefined, input.tokenAddress!);
  if (check.status !== 'canonical') {
    issues.push(issue('TOKEN_NOT_CANONICAL', 'no canonical token of chain 4663 lives at this address', 'tokenAddress'));
    return null;
  }
  return { kind: 'token' as const, slug: null, address: check.asset.address, ticker: check.asset.ticker };
}

export function importPartnerFeeClaim(input: FeeClaimInput, deps: FeeClaimDeps) {
  const issues: ErrorIssue[] = [];
  let units: bigint | null = null;
  if (!/^\d{1,40}$/.test(input.amountUnits) || BigInt(input.amountUnits) === 0n) {
    issues.push(
      issue('AMOUNT_UNITS_INVALID', 'amountUnits is a positive integer string of USDG 6-decimal units (1 USDG = "1000000")', 'amountUnits'),
    );
  } else if (BigInt(input.amountUnits) > MAX_USDG_UNITS) {
    issues.push(issue('AMOUNT_UNITS_ABOVE_MAX', `at most ${MAX_USDG_UNITS} units`, 'amountUnits'));
  } else {
    units = BigInt(input.amountUnits);
  }
  if (input.currency !== undefined && input.currency !== 'USDG')
    issues.push(issue('CURRENCY_UNSUPPORTED', 'fee claims are in USDG', 'currency'));
  const start = parseIsoInstant(input.periodStart);
  const end = parseIsoInstant(input.periodEnd);
  if (!start) issues.push(issue('PERIOD_START_INVALID', 'an ISO 8601 timestamp with a zone', 'periodStart'));
  if (!end) issues.push(issue('PERIOD_END_INVALID', 'an ISO 8601 timestamp with a zone', 'periodEnd'));
  if (start && end && end.getTime() <= start.getTime())
    issues.push(issue('PERIOD_EMPTY', 'periodEnd must be after periodStart', 'periodEnd'));
  if (end && end.getTime() > deps.serverTime.getTime() + PERIOD_END_SKEW_MS)
    issues.push(issue('PERIOD_NOT_ENDED', 'the period has not ended yet, so no fee for it can be due', 'periodEnd'));
  const subject = subjectOf(input, issues);
  if (issues.length || units === null || !subject || !start || !end) {
    throw new SvcError('FEE_CLAIM_INVALID', 'The fee claim was refused; nothing is adjusted to fit, fix the listed fields', { issues });
  }
  const claim = {
    claimVersion: FEE_CLAIM_VERSION,
    partnerReference: input.partnerReference,
    amount: { units: units.toString(), usdg: formatUsdgUnits(units) },
    currency: 'USDG' as const,
    period: { start: start.toISOString(), end: end.toISOString() },
    subject,
    source: 'partner_reported' as const,
    status: 'imported_unverified' as const,
    proofOfPayment: false as const,
    paymentVerified: false as const,
  };
  return {
    claim,
    meaning:
      "The partner's word, recorded as a receipt: it is not proof that any fee was paid or is owed, and it moves no money. A payment is proven only by its on-chain transfer.",
    receipt: buildArtifactReceipt('partner_fee_claim', claim, deps.now),
  };
}
