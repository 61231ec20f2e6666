/**
 * The seller flow of one paid request on the facilitator lane (interface 4.8, steps 1 to 4):
 * rebuild the requirements, read and check the buyer's payment, settle through the
 * facilitator, and record a deterministic receipt. It returns what happened as a value; the
 * HTTP face (402 bodies, payment headers) is the router's job, so the MCP server can call the
 * same functions. The order of the steps, and what a second presentation of an authorization
 * gets, is `paid-call.ts`.
 *
 * Replay protection: the authorization is reserved under a unique (network, asset, payer,
 * nonce) key, together with the finished answer it pays for, BEFORE the facilitator is called,
 * so two presentations of one authorization can never both reach it and a paid answer is never
 * lost. A reservation that never got a trustworthy answer stays `settling`/`settlement_unknown`
 * (or `report_mismatch`) until a retry proves what happened.
 */
import { hashCanonical, sha256Hex } from '../canonical';
import { serverTimeAfter, type ServerTime } from '../clock';
import type { SettleResponse } from '@x402/core/types';
import { z } from 'zod';
import { SvcError } from '../errors';
import type { PaidServiceContext, PaidVaultService } from './catalogue';
import { FACILITATOR_LANE, PAID_ANSWER_KEPT_SECONDS } from './constants';
import type { FacilitatorClient, SettleOutcome } from './facilitator-client';
import {
  checkPaymentTerms,
  decodePayment,
  PaymentMalformed,
  PaymentRejected,
  readPaymentHeader,
  type DecodedPayment,
  type Eip3009Authorization,
} from './payment';
import { buildPaymentReceipt, type PaymentReceipt, type SettlementEvidence } from './receipts';
import type { BuiltRequirements } from './requirements';

/** Declared once: the stored status, the repository's reading of a row and the reconciliation route's output. */
export const authorizationStatusSchema = z.enum([
  'settling',
  'settled',
  'refused',
  'settlement_unknown',
  'report_mismatch',
  'expired_unused',
  'used_without_payment',
]);
export type AuthorizationStatus = z.infer<typeof authorizationStatusSchema>;

/** Statuses with no trustworthy settlement answer: the row waits for a retry or reconciliation. */
export function needsReconciliation(status: AuthorizationStatus): boolean {
  return status === 'settling' || status === 'settlement_unknown' || status === 'report_mismatch';
}

/** Final statuses in which nothing was charged for the answer (it is dropped). */
export type UnpaidStatus = 'refused' | 'expired_unused' | 'used_without_payment';

export interface AuthorizationKey {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
}

/** The signed EIP-3009 authorization as presented: enough to settle it later or prove it on chain. */
export interface SignedAuthorization {
  x402Version: 1 | 2;
  signature: string;
  authorization: Eip3009Authorization;
}

export interface StoredAuthorization extends AuthorizationKey {
  id: string;
  serviceName: string;
  amountUnits: string;
  payTo: string;
  x402Version: number;
  status: AuthorizationStatus;
  facilitatorReason: string | null;
  transaction: string | null;
  receiptId: string | null;
  /** The request it pays for (`requestHashOf`); null on rows stored before answers were kept. */
  requestHash: string | null;
  paymentIdentifier: string | null;
  signed: SignedAuthorization | null;
  /** The finished answer, kept until it is paid and served (then PAID_ANSWER_KEPT_SECONDS), null when not kept. */
  answer: unknown;
  answerKeptUntil: Date | null;
  updatedAt: Date;
}

/** Whether the answer an authorization paid for is still kept for a retry (on the server's clock). */
export function answerKept(row: Pick<StoredAuthorization, 'answer' | 'answerKeptUntil'>, now: ServerTime): boolean {
  return row.answer !== null && (row.answerKeptUntil === null || row.answerKeptUntil > now);
}

/** Persistence the flow needs (implemented with Prisma in db/x402-payment-repository.ts). */
export interface AuthorizationStore {
  find(key: AuthorizationKey): Promise<StoredAuthorization | null>;
  findByPaymentIdentifier(payer: string, paymentIdentifier: string): Promise<StoredAuthorization | null>;
  /** Inserts a `settling` row with its answer; false when the authorization (or the payer's payment identifier) is already stored. */
  reserve(row: StoredAuthorization, at: ServerTime): Promise<boolean>;
  /** Records an outcome other than a settlement; an unpaid final status drops the answer. */
  finish(
    id: string,
    status: Exclude<AuthorizationStatus, 'settling' | 'settled'>,
    facilitatorReason: string | null,
    transaction: string | null,
    at: ServerTime,
  ): Promise<void>;
  /** Moves a row back to `settling` only if it is still as it was read (one retry settles it, never two). */
  claim(id: string, seen: { status: AuthorizationStatus; updatedAt: Date }, at: ServerTime): Promise<boolean>;
  /** Marks the row settled and stores the receipt, atomically; returns the receipt stored (a first one wins). */
  recordSettled(id: string, receipt: PaymentReceipt, at: ServerTime, answerKeptUntil: ServerTime): Promise<PaymentReceipt>;
  findReceipt(receiptId: string): Promise<PaymentReceipt | null>;
}

export function authorizationId(key: AuthorizationKey): string {
  const digest = sha256Hex(`${key.network}|${key.asset.toLowerCase()}|${key.payer.toLowerCase()}|${key.nonce.toLowerCase()}`);
  return `xauth_${digest.slice(0, 32)}`;
}

export function authorizationKeyOf(authorization: Pick<Eip3009Authorization, 'from' | 'nonce'>): AuthorizationKey {
  return { network: FACILITATOR_LANE.network, asset: FACILITATOR_LANE.assetAddress, payer: authorization.from, nonce: authorization.nonce };
}

/**
 * The identity of what a payment buys: the service and the request as the buyer sent it. A
 * retry must ask for the same thing to be served the stored answer.
 */
export function requestHashOf(service: PaidVaultService, request: unknown, inputErrorCode: string): string {
  try {
    return hashCanonical({ serviceName: service.name, request });
  } catch {
    // Only a value JSON text cannot round-trip gets here (a number beyond double range).
    throw new SvcError(inputErrorCode, 'The request holds a number outside the range JSON numbers can carry; nothing was charged', {
      issues: [{ code: inputErrorCode, message: 'a number is out of range', path: '' }],
    });
  }
}

/** The payment as the request presented it (the header name and version say how to answer). */
export type PresentedPayment = Pick<DecodedPayment, 'x402Version' | 'header' | 'signature' | 'authorization'>;

/** The authorization as the flow names it in a refusal: its id and key. */
export interface NamedAuthorization {
  id: string;
  payer: string;
  nonce: string;
}

/** Why a retry could not settle the question yet. */
export type StillPending = { chain: string } | { tooCloseToExpiry: true };

export type PaymentOutcome =
  | { kind: 'payment_required'; requirements: BuiltRequirements }
  | { kind: 'malformed'; requirements: BuiltRequirements; reason: string; message: string }
  | { kind: 'rejected'; requirements: BuiltRequirements; reason: string; message: string }
  /** Presented before and not to be answered again: another request, an unpaid outcome, or an answer no longer kept. */
  | { kind: 'nonce_used'; requirements: BuiltRequirements; previous: StoredAuthorization; otherRequest: boolean }
  /** Another request is settling it right now. */
  | { kind: 'pending_reconciliation'; requirements: BuiltRequirements; previous: StoredAuthorization }
  | {
      kind: 'refused';
      requirements: BuiltRequirements;
      payment: PresentedPayment;
      reason: string;
      message: string | null;
      settleResponse: SettleResponse;
    }
  | { kind: 'facilitator_call_rejected'; requirements: BuiltRequirements; payment: PresentedPayment; httpStatus: number }
  | {
      kind: 'settlement_unknown';
      requirements: BuiltRequirements;
      payment: PresentedPayment;
      cause: string;
      authorization: NamedAuthorization;
      /** Set on a retry that re-checked and still cannot tell. */
      stillPending: StillPending | null;
    }
  | {
      kind: 'report_mismatch';
      requirements: BuiltRequirements;
      payment: PresentedPayment;
      field: 'payTo' | 'payer' | 'network' | 'amount';
      authorizationId: string;
      transaction: string;
    }
  /** The chain shows the authorization unused and past its validBefore: nothing was charged, ever. */
  | { kind: 'expired_unused'; requirements: BuiltRequirements; previous: StoredAuthorization }
  /** The chain shows the nonce spent by something that did not pay the price to the recipient. */
  | { kind: 'used_without_payment'; requirements: BuiltRequirements; previous: StoredAuthorization }
  | {
      kind: 'settled';
      requirements: BuiltRequirements;
      payment: PresentedPayment;
      receipt: PaymentReceipt;
      receiptStored: boolean;
      settleResponse: SettleResponse;
    };

/** Reads the payment header of a request (throws PaymentMalformed when both are sent). */
export { readPaymentHeader };

/**
 * Decodes the payment and checks its terms against the rebuilt requirements (everything but the
 * validity window, which only a new settlement is held to).
 */
export async function readPayment(
  requirements: BuiltRequirements,
  paymentHeader: { header: string; value: string },
): Promise<{ payment: DecodedPayment } | { refusal: Extract<PaymentOutcome, { kind: 'malformed' | 'rejected' }> }> {
  try {
    const payment = decodePayment(paymentHeader.header, paymentHeader.value);
    await checkPaymentTerms(payment, requirements);
    return { payment };
  } catch (error) {
    if (error instanceof PaymentMalformed)
      return { refusal: { kind: 'malformed', requirements, reason: error.reason, message: error.message } };
    if (error instanceof PaymentRejected)
      return { refusal: { kind: 'rejected', requirements, reason: error.reason, message: error.message } };
    throw error;
  }
}

function networkOf(x402Version: number, req: BuiltRequirements): string {
  return x402Version === 1 ? req.v1.network : req.v2.network;
}

function settleRequestBody(signed: SignedAuthorization, req: BuiltRequirements) {
  // Server-built on both sides: the buyer's own copy of the requirements is never forwarded.
  const payload = { signature: signed.signature, authorization: signed.authorization };
  if (signed.x402Version === 1) {
    return {
      x402Version: 1 as const,
      paymentPayload: { x402Version: 1, scheme: req.v1.scheme, network: req.v1.network, payload },
      paymentRequirements: req.v1 as unknown as Record<string, unknown>,
    };
  }
  return {
    x402Version: 2 as const,
    paymentPayload: { x402Version: 2, resource: req.resource, accepted: req.v2, payload },
    paymentRequirements: req.v2 as unknown as Record<string, unknown>,
  };
}

/**
 * An amount of 6-decimal units as a facilitator may write it: a JSON number, or a decimal
 * string whose fraction is only zeros ("10000", "10000.0"). Null when it denotes no exact
 * integer (a fraction, a float beyond exact integers, an exponent string, anything else).
 */
export function unitsOf(reported: unknown): bigint | null {
  if (typeof reported === 'number') return Number.isSafeInteger(reported) && reported >= 0 ? BigInt(reported) : null;
  if (typeof reported !== 'string') return null;
  const match = /^(\d{1,78})(?:\.(0*))?$/.exec(reported.trim());
  return match ? BigInt(match[1]!) : null;
}

function mismatchOf(outcome: Extract<SettleOutcome, { kind: 'success' }>, signed: SignedAuthorization, req: BuiltRequirements) {
  const acceptedNetworks = [FACILITATOR_LANE.network, FACILITATOR_LANE.v1Network];
  if (outcome.reportedPayTo !== null && outcome.reportedPayTo.toLowerCase() !== req.v2.payTo.toLowerCase()) return 'payTo' as const;
  if (outcome.payer !== null && outcome.payer.toLowerCase() !== signed.authorization.from.toLowerCase()) return 'payer' as const;
  if (outcome.network !== '' && !acceptedNetworks.includes(outcome.network as never)) return 'network' as const;
  // Compared as numbers: the same amount written another way is the same amount.
  if (outcome.reportedAmount !== null && unitsOf(outcome.reportedAmount) !== BigInt(req.amountUnits)) return 'amount' as const;
  return null;
}

/** The deterministic receipt of a settled authorization (the facilitator's word, or the chain's). */
export function settledReceipt(input: {
  service: PaidVaultService;
  requirements: BuiltRequirements;
  signed: SignedAuthorization;
  transaction: string;
  evidence: SettlementEvidence;
  answerTime: Date;
}): PaymentReceipt {
  const a = input.signed.authorization;
  return buildPaymentReceipt({
    serviceName: input.service.name,
    resource: input.requirements.resourceUrl,
    x402Version: input.signed.x402Version,
    payer: a.from,
    payTo: input.requirements.v2.payTo,
    amountUnits: input.requirements.amountUnits,
    nonce: a.nonce,
    validAfter: a.validAfter,
    validBefore: a.validBefore,
    transaction: input.transaction,
    evidence: input.evidence,
    issuedAt: input.answerTime,
  });
}

export interface RecordSettlementInput {
  store: AuthorizationStore;
  id: string;
  receipt: PaymentReceipt;
  serverTime: ServerTime;
  onStoreError?: (error: unknown) => void;
}

/**
 * Records a settlement and its receipt. The buyer has paid: a failing store must not withhold
 * the answer, so the error is reported and the row stays as it was (a retry proves it again).
 */
export async function recordSettlement(input: RecordSettlementInput): Promise<{ receipt: PaymentReceipt; receiptStored: boolean }> {
  const keptUntil = serverTimeAfter(input.serverTime, PAID_ANSWER_KEPT_SECONDS * 1000);
  try {
    return { receipt: await input.store.recordSettled(input.id, input.receipt, input.serverTime, keptUntil), receiptStored: true };
  } catch (error) {
    input.onStoreError?.(error);
    return { receipt: input.receipt, receiptStored: false };
  }
}

export interface SettleStepInput {
  service: PaidVaultService;
  requirements: BuiltRequirements;
  facilitator: Pick<FacilitatorClient, 'settle'>;
  store: AuthorizationStore;
  /** The reserved (or claimed) row. */
  authorization: NamedAuthorization;
  /** What is settled: the authorization stored with the row. */
  signed: SignedAuthorization;
  /** How the request presented its payment (for the answer's headers). */
  payment: PresentedPayment;
  /** The answer's clock, for the receipt's timestamp (may be pinned by `nowIso`). */
  answerTime: Date;
  /** The server's clock: rows are stamped with it, never `nowIso`. */
  serverTime: ServerTime;
  onStoreError?: (error: unknown) => void;
}

/** Calls the facilitator for a reserved authorization and records what it said. */
export async function settleReserved(input: SettleStepInput): Promise<PaymentOutcome> {
  const { requirements, payment, signed } = input;
  const { authorization } = input;
  const id = authorization.id;
  const outcome = await input.facilitator.settle(settleRequestBody(signed, requirements));
  const network = networkOf(payment.x402Version, requirements) as SettleResponse['network'];
  const finish = (status: Parameters<AuthorizationStore['finish']>[1], reason: string, transaction: string | null = null) =>
    input.store.finish(id, status, reason, transaction, input.serverTime);
  switch (outcome.kind) {
    case 'refused': {
      await finish('refused', outcome.reason);
      return {
        kind: 'refused',
        requirements,
        payment,
        reason: outcome.reason,
        message: outcome.message,
        settleResponse: { success: false, errorReason: outcome.reason, transaction: '', network, payer: signed.authorization.from },
      };
    }
    case 'call_rejected':
      await finish('refused', `facilitator_http_${outcome.httpStatus}`);
      return { kind: 'facilitator_call_rejected', requirements, payment, httpStatus: outcome.httpStatus };
    case 'unknown':
      await finish('settlement_unknown', outcome.cause);
      return { kind: 'settlement_unknown', requirements, payment, cause: outcome.cause, authorization, stillPending: null };
    case 'success': {
      const mismatch = mismatchOf(outcome, signed, requirements);
      if (mismatch) {
        await finish('report_mismatch', `reported_${mismatch}_differs`, outcome.transaction);
        return { kind: 'report_mismatch', requirements, payment, field: mismatch, authorizationId: id, transaction: outcome.transaction };
      }
      const recorded = await recordSettlement({
        store: input.store,
        id,
        receipt: settledReceipt({ ...input, transaction: outcome.transaction, evidence: 'facilitator_reported' }),
        serverTime: input.serverTime,
        onStoreError: input.onStoreError,
      });
      return {
        kind: 'settled',
        requirements,
        payment,
        ...recorded,
        settleResponse: { success: true, transaction: outcome.transaction, network, payer: signed.authorization.from },
      };
    }
  }
}

/** Runs the bought service on its already-validated input. */
export async function runPaidService(service: PaidVaultService, input: unknown, ctx: PaidServiceContext): Promise<Record<string, unknown>> {
  return service.output.parse(await service.run(input, ctx)) as Record<string, unknown>;
}

/** The error code of a body that fails the service's input schema. */
export function paidServiceInputErrorCode(service: PaidVaultService, firstPath: string): string {
  return typeof service.inputErrorCode === 'string' ? service.inputErrorCode : service.inputErrorCode(firstPath);
}
