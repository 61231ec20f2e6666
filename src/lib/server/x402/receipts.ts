/**
 * Deterministic x402 payment receipts: a content-addressed record of what the facilitator
 * reported for one authorization. The id is derived from the payment's identity (service,
 * network, asset, payer, recipient, amount, nonce, transaction), so the same payment always
 * has the same receipt id; the hash covers the whole document.
 *
 * A receipt records the facilitator's word (`settlementEvidence: facilitator_reported`: not
 * on-chain proof), or, for an authorization whose settlement a retry proved on chain 4663 (the
 * transaction that used it moved the price to the recipient), the chain's (`onchain_verified`).
 */
import { hashCanonical } from '../canonical';
import { z } from 'zod';
import { ORACLE_POLICY_VERSION, REGISTRY_VERSION } from '../registry';
import { formatUsdgUnits } from '../vaults/amount';
import { FACILITATOR_LANE, X402_SCHEME } from './constants';

export const PAYMENT_RECEIPT_VERSION = 'svc-x402-payment-receipt-1.0.0';
export const PAYMENT_RECEIPT_PREFIX = 'x402rcpt_';

export const settlementEvidenceSchema = z.enum(['facilitator_reported', 'onchain_verified']);
export type SettlementEvidence = z.infer<typeof settlementEvidenceSchema>;

export interface PaymentReceiptInput {
  serviceName: string;
  resource: string;
  x402Version: 1 | 2;
  payer: string;
  payTo: string;
  amountUnits: string;
  nonce: string;
  validAfter: string;
  validBefore: string;
  transaction: string;
  /** Whose word the receipt records; the facilitator's unless a chain proof settled it. */
  evidence?: SettlementEvidence;
  issuedAt: Date;
}

export function buildPaymentReceipt(input: PaymentReceiptInput) {
  const identity = {
    serviceName: input.serviceName,
    network: FACILITATOR_LANE.network,
    asset: FACILITATOR_LANE.assetAddress,
    payer: input.payer,
    payTo: input.payTo,
    amountUnits: input.amountUnits,
    nonce: input.nonce,
    transaction: input.transaction,
  };
  const receiptId = `${PAYMENT_RECEIPT_PREFIX}${hashCanonical(identity).slice(0, 32)}`;
  const body = {
    receiptVersion: PAYMENT_RECEIPT_VERSION,
    receiptId,
    kind: 'x402_payment' as const,
    serviceName: input.serviceName,
    resource: input.resource,
    lane: 'facilitator' as const,
    x402Version: input.x402Version,
    scheme: X402_SCHEME,
    network: FACILITATOR_LANE.network,
    chainId: FACILITATOR_LANE.chainId,
    asset: FACILITATOR_LANE.asset,
    assetAddress: FACILITATOR_LANE.assetAddress,
    assetDecimals: FACILITATOR_LANE.assetDecimals,
    amountUnits: input.amountUnits,
    amountUsdg: formatUsdgUnits(BigInt(input.amountUnits)),
    payer: input.payer,
    payTo: input.payTo,
    authorizationNonce: input.nonce,
    validAfter: input.validAfter,
    validBefore: input.validBefore,
    facilitatorTransaction: input.transaction,
    settlementEvidence: input.evidence ?? 'facilitator_reported',
    registryVersion: REGISTRY_VERSION,
    oraclePolicyVersion: ORACLE_POLICY_VERSION,
    issuedAt: input.issuedAt.toISOString(),
  };
  return { ...body, receiptHash: hashCanonical(body) };
}
export type PaymentReceipt = ReturnType<typeof buildPaymentReceipt>;

/** Recomputes the hash of a stored receipt: a receipt whose content changed no longer matches. */
export function verifyPaymentReceipt(receipt: PaymentReceipt): boolean {
  const { receiptHash, ...body } = receipt;
  return hashCanonical(body) === receiptHash;
}

export const paymentReceiptSchema = z.object({
  receiptVersion: z.string(),
  receiptId: z.string().startsWith(PAYMENT_RECEIPT_PREFIX),
  kind: z.literal('x402_payment'),
  serviceName: z.string(),
  resource: z.string(),
  lane: z.literal('facilitator'),
  x402Version: z.union([z.literal(1), z.literal(2)]),
  scheme: z.literal('exact'),
  network: z.string(),
  chainId: z.literal(4663),
  asset: z.literal('USDG'),
  assetAddress: z.string(),
  assetDecimals: z.literal(6),
  amountUnits: z.string(),
  amountUsdg: z.string(),
  payer: z.string(),
  payTo: z.string(),
  authorizationNonce: z.string(),
  validAfter: z.string(),
  validBefore: z.string(),
  facilitatorTransaction: z.string(),
  settlementEvidence: settlementEvidenceSchema,
  registryVersion: z.string(),
  oraclePolicyVersion: z.string(),
  issuedAt: z.string(),
  receiptHash: z.string(),
});
