/**
 * The seller flow of one paid request on the facilitator lane (interface 4.8, steps 1 to 4):
 * rebuild the requirements, read and check the buyer's payment, refuse a nonce already seen,
 * settle through the facilitator, and record a deterministic receipt. It returns what
 * happened as a value; the HTTP face (402 bodies, payment headers) is the router's job, so
 * the MCP server can call the same function.
 *
 * Replay protection: the authorization is reserved under a unique (network, asset, payer,
 * nonce) key BEFORE the facilitator is called, so two presentations of one authorization can
 * never both reach it. A reservation that never got a trustworthy answer stays as
 * `settling`/`settlement_unknown` for reconciliation; the same nonce is then refused as
 * pending, never charged a second time.
 */
import { sha256Hex } from '../canonical';
import type { AnswerTime, ServerTime } from '../clock';
import type { SettleResponse } from '@x402/core/types';
import { z } from 'zod';
import type { PaidServiceContext, PaidVaultService } from './catalogue';
import { FACILITATOR_LANE } from './constants';
import type { FacilitatorClient, SettleOutcome } from './facilitator-client';
import { checkPayment, decodePayment, PaymentMalformed, PaymentRejected, readPaymentHeader, type DecodedPayment } from './payment';
import { buildPaymentReceipt, type PaymentReceipt } from './receipts';
import { buildRequirements, type BuiltRequirements, type PinnedFacilitatorLane } from './requirements';

/** Declared once: the stored status, the repository's reading of a row and the reconciliation route's output. */
export const authorizationStatusSchema = z.enum(['settling', 'settled', 'refused', 'settlement_unknown', 'report_mismatch']);
export type AuthorizationStatus = z.infer<typeof authorizationStatusSchema>;

/** Statuses with no trustworthy settlement answer: the row waits for reconciliation. */
export function needsReconciliation(status: AuthorizationStatus): boolean {
  return status === 'settling' || status === 'settlement_unknown' || status === 'report_mismatch';
}

export interface AuthorizationKey {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
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
}

/** Persistence the flow needs (implemented with Prisma in db/x402-payment-repository.ts). */
export interface AuthorizationStore {
  find(key: AuthorizationKey): Promise<StoredAuthorization | null>;
  /** Inserts a `settling` row; false when the unique key already exists. */
  reserve(row: StoredAuthorization, at: ServerTime): Promise<boolean>;
  finish(
    id: string,
    status: Exclude<AuthorizationStatus, 'settling' | 'settled'>,
    facilitatorReason: string | null,
    transaction: string | null,
    at: ServerTime,
  ): Promise<void>;
  /** Marks the row settled and stores the receipt, atomically. */
  recordSettled(id: string, receipt: PaymentReceipt, at: ServerTime): Promise<void>;
}

export function authorizationId(key: AuthorizationKey): string {
  const digest = sha256Hex(`${key.network}|${key.asset.toLowerCase()}|${key.payer.toLowerCase()}|${key.nonce.toLowerCase()}`);
  return `xauth_${digest.slice(0, 32)}`;
}

export type PaymentOutcome =
  | { kind: 'payment_required'; requirements: BuiltRequirements }
  | { kind: 'malformed'; requirements: BuiltRequirements; reason: string; message: string }
  | { kind: 'rejected'; requirements: BuiltRequirements; reason: string; message: string }
  | { kind: 'nonce_used'; requirements: BuiltRequirements; previous: StoredAuthorization }
  | { kind: 'pending_reconciliation'; requirements: BuiltRequirements; previous: StoredAuthorization }
  | {
      kind: 'refused';
      requirements: BuiltRequirements;
      payment: DecodedPayment;
      reason: string;
      message: string | null;
      settleResponse: SettleResponse;
    }
  | { kind: 'facilitator_call_rejected'; requirements: BuiltRequirements; payment: DecodedPayment; httpStatus: number }
  | { kind: 'settlement_unknown'; requirements: BuiltRequirements; payment: DecodedPayment; cause: string; authorizationId: string }
  | {
      kind: 'report_mismatch';
      requirements: BuiltRequirements;
      payment: DecodedPayment;
      field: 'payTo' | 'payer' | 'network' | 'amount';
      authorizationId: string;
      transaction: string;
    }
  | {
      kind: 'settled';
      requirements: BuiltRequirements;
      payment: DecodedPayment;
      receipt: PaymentReceipt;
      receiptStored: boolean;
      settleResponse: SettleResponse;
    };

export interface SettleFlowInput {
  service: PaidVaultService;
  pinned: PinnedFacilitatorLane;
  facilitator: Pick<FacilitatorClient, 'settle'>;
  store: AuthorizationStore;
  /** A payment header value, as the request carried it. */
  paymentHeader: { header: string; value: string } | undefined;
  /** The answer's clock, for the receipt's timestamp (may be pinned by `nowIso`). */
  answerTime: AnswerTime;
  /** The server's clock: validity windows are checked against it and rows stamped with it, never `nowIso`. */
  serverTime: ServerTime;
  /** Told when the receipt of a settled payment could not be stored (the answer is still given). */
  onStoreError?: (error: unknown) => void;
}

/** Reads the payment header of a request (throws PaymentMalformed when both are sent). */
export { readPaymentHeader };

function networkOf(payment: DecodedPayment, req: BuiltRequirements): string {
  return payment.x402Version === 1 ? req.v1.network : req.v2.network;
}

function settleRequestBody(payment: DecodedPayment, req: BuiltRequirements) {
  // Server-built on both sides: the buyer's own copy of the requirements is never forwarded.
  const payload = { signature: payment.signature, authorization: payment.authorization };
  if (payment.x402Version === 1) {
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

function mismatchOf(outcome: Extract<SettleOutcome, { kind: 'success' }>, payment: DecodedPayment, req: BuiltRequirements) {
  const acceptedNetworks = [FACILITATOR_LANE.network, FACILITATOR_LANE.v1Network];
  if (outcome.reportedPayTo !== null && outcome.reportedPayTo.toLowerCase() !== req.v2.payTo.toLowerCase()) return 'payTo' as const;
  if (outcome.payer !== null && outcome.payer.toLowerCase() !== payment.authorization.from.toLowerCase()) return 'payer' as const;
  if (outcome.network !== '' && !acceptedNetworks.includes(outcome.network as never)) return 'network' as const;
  if (outcome.reportedAmount !== null && outcome.reportedAmount !== req.amountUnits) return 'amount' as const;
  return null;
}

/** Runs the seller flow up to (and including) settlement and the receipt. */
export async function settleServicePayment(input: SettleFlowInput): Promise<PaymentOutcome> {
  const requirements = buildRequirements(input.service, input.pinned);
  if (!input.paymentHeader) return { kind: 'payment_required', requirements };

  let payment: DecodedPayment;
  try {
    payment = decodePayment(input.paymentHeader.header, input.paymentHeader.value);
    await checkPayment(payment, requirements, input.serverTime);
  } catch (error) {
    if (error instanceof PaymentMalformed) return { kind: 'malformed', requirements, reason: error.reason, message: error.message };
    if (error instanceof PaymentRejected) return { kind: 'rejected', requirements, reason: error.reason, message: error.message };
    throw error;
  }

  const key: AuthorizationKey = {
    network: FACILITATOR_LANE.network,
    asset: FACILITATOR_LANE.assetAddress,
    payer: payment.authorization.from,
    nonce: payment.authorization.nonce,
  };
  const id = authorizationId(key);
  const row: StoredAuthorization = {
    ...key,
    id,
    serviceName: input.service.name,
    amountUnits: requirements.amountUnits,
    payTo: requirements.v2.payTo,
    x402Version: payment.x402Version,
    status: 'settling',
    facilitatorReason: null,
    transaction: null,
    receiptId: null,
  };
  const seen = async (): Promise<PaymentOutcome> => {
    const previous = (await input.store.find(key))!;
    return previous.status === 'settling' || previous.status === 'settlement_unknown'
      ? { kind: 'pending_reconciliation', requirements, previous }
      : { kind: 'nonce_used', requirements, previous };
  };
  // No look-up first: the database's unique key alone decides, so a replay and a race take
  // the same path.
  if (!(await input.store.reserve(row, input.serverTime))) return seen();

  const outcome = await input.facilitator.settle(settleRequestBody(payment, requirements));
  const network = networkOf(payment, requirements);
  switch (outcome.kind) {
    case 'refused': {
      await input.store.finish(id, 'refused', outcome.reason, null, input.serverTime);
      return {
        kind: 'refused',
        requirements,
        payment,
        reason: outcome.reason,
        message: outcome.message,
        settleResponse: {
          success: false,
          errorReason: outcome.reason,
          transaction: '',
          network: network as SettleResponse['network'],
          payer: payment.authorization.from,
        },
      };
    }
    case 'call_rejected':
      await input.store.finish(id, 'refused', `facilitator_http_${outcome.httpStatus}`, null, input.serverTime);
      return { kind: 'facilitator_call_rejected', requirements, payment, httpStatus: outcome.httpStatus };
    case 'unknown':
      await input.store.finish(id, 'settlement_unknown', outcome.cause, null, input.serverTime);
      return { kind: 'settlement_unknown', requirements, payment, cause: outcome.cause, authorizationId: id };
    case 'success': {
      const mismatch = mismatchOf(outcome, payment, requirements);
      if (mismatch) {
        await input.store.finish(id, 'report_mismatch', `reported_${mismatch}_differs`, outcome.transaction, input.serverTime);
        return { kind: 'report_mismatch', requirements, payment, field: mismatch, authorizationId: id, transaction: outcome.transaction };
      }
      const receipt = buildPaymentReceipt({
        serviceName: input.service.name,
        resource: requirements.resourceUrl,
        x402Version: payment.x402Version,
        payer: payment.authorization.from,
        payTo: requirements.v2.payTo,
        amountUnits: requirements.amountUnits,
        nonce: payment.authorization.nonce,
        validAfter: payment.authorization.validAfter,
        validBefore: payment.authorization.validBefore,
        transaction: outcome.transaction,
        issuedAt: input.answerTime,
      });
      // The buyer has paid: a failing store must not withhold the answer. The row stays
      // `settling`, so the reconciliation route shows it as needing reconciliation.
      let receiptStored = true;
      try {
        await input.store.recordSettled(id, receipt, input.serverTime);
      } catch (error) {
        receiptStored = false;
        input.onStoreError?.(error);
      }
      return {
        kind: 'settled',
        requirements,
        payment,
        receipt,
        receiptStored,
        settleResponse: {
          success: true,
          transaction: outcome.transaction,
          network: network as SettleResponse['network'],
          payer: payment.authorization.from,
        },
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
