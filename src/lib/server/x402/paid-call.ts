/**
 * One paid request on the facilitator lane, in the order that keeps the truth rule "nobody
 * pays for an answer they do not get" (interface 4.8):
 *
 *   payment present? → run the service (its input checked first) → finish the answer
 *   (invariants, execution-claim guard, secret scrub) → settle → store the receipt
 *
 * Everything that can refuse the answer runs before the facilitator is called, and once the
 * facilitator reports a settlement nothing is left that can withhold the answer: the payment
 * block added afterwards is the service's own fixed text and hex (`settlementView`).
 *
 * Every dependency is passed in (facilitator client, authorization store, clocks, service
 * runner, answer finisher), so the router only parses, calls this and shapes the answer, and
 * the MCP server or a test can call the same flow. The refusals' x402 faces (402 bodies and
 * the PAYMENT-REQUIRED header) are built here too, from the typed outcome.
 */
import { encodePaymentResponseHeader } from '@x402/core/http';
import { z } from 'zod';
import type { RequestClocks } from '../clock';
import { SvcError } from '../errors';
import type { PaidVaultService } from './catalogue';
import { FACILITATOR_LANE, X402_HEADERS } from './constants';
import type { FacilitatorClient } from './facilitator-client';
import { chainBlocks, type LaneSelection } from './lanes';
import { paymentReceiptSchema } from './receipts';
import {
  buildRequirements,
  paymentRequiredHeader,
  paymentRequiredV1Body,
  type BuiltRequirements,
  type PinnedFacilitatorLane,
} from './requirements';
import { authorizationId, settleServicePayment, type AuthorizationStore, type PaymentOutcome } from './settlement';

export type SettledOutcome = Extract<PaymentOutcome, { kind: 'settled' }>;
export type RefusedOutcome = Exclude<PaymentOutcome, { kind: 'settled' }>;

export interface PaidCallDeps<R, A> {
  facilitator: Pick<FacilitatorClient, 'settle'>;
  store: AuthorizationStore;
  clocks: RequestClocks;
  /** The recipient and origin pinned by configuration; requirements are rebuilt from them. */
  pinned: PinnedFacilitatorLane;
  /** Checks the service's own input and answers it; throws to refuse (nothing is charged then). */
  runService: () => R | Promise<R>;
  /** Finishes the unpaid answer (stamped, guarded, scrubbed); throws to refuse (nothing is charged then). */
  finishAnswer: (result: R) => A;
  /** Told when a settled payment's receipt could not be stored. */
  onStoreError?: (error: unknown) => void;
}

export interface PaidCallRequest {
  service: PaidVaultService;
  /** The payment header as the request carried it, undefined when none was sent. */
  payment: { header: string; value: string } | undefined;
}

export type PaidCallResult<A> =
  | { kind: 'answered'; answer: A; outcome: SettledOutcome }
  /** No payment: the service was not run. Any other refusal: nothing was charged, or the outcome is unknown and kept for reconciliation. */
  | { kind: 'refused'; outcome: RefusedOutcome };

/** The paid call's flow: the answer is finished before settlement, and released only after it. */
export async function payForAnswer<R, A>(deps: PaidCallDeps<R, A>, request: PaidCallRequest): Promise<PaidCallResult<A>> {
  if (!request.payment) {
    // The requirements are the whole answer to a missing payment: the service is not run.
    return { kind: 'refused', outcome: { kind: 'payment_required', requirements: buildRequirements(request.service, deps.pinned) } };
  }
  const answer = deps.finishAnswer(await deps.runService());
  const outcome = await settleServicePayment(settleInput(deps, request));
  if (outcome.kind !== 'settled') return { kind: 'refused', outcome };
  return { kind: 'answered', answer, outcome };
}

function settleInput<R, A>(deps: PaidCallDeps<R, A>, request: PaidCallRequest) {
  return {
    service: request.service,
    pinned: deps.pinned,
    facilitator: deps.facilitator,
    store: deps.store,
    paymentHeader: request.payment,
    answerTime: deps.clocks.answerTime,
    serverTime: deps.clocks.serverTime,
    onStoreError: deps.onStoreError,
  };
}

export const settlementViewSchema = z.object({
  outcome: z.literal('facilitator_reported_success'),
  x402Version: z.union([z.literal(1), z.literal(2)]),
  paymentHeader: z.string(),
  facilitatorTransaction: z.string(),
  network: z.string(),
  payer: z.string(),
  payTo: z.string(),
  amountUnits: z.string(),
  evidence: z.string(),
  receipt: paymentReceiptSchema,
  receiptStored: z
    .boolean()
    .describe("false when the settled payment's receipt could not be stored; the authorization then awaits reconciliation"),
});
export type SettlementView = z.infer<typeof settlementViewSchema>;

/** The payment block of a paid answer: the facilitator's word, labelled as such. */
export function settlementView(outcome: SettledOutcome): SettlementView {
  return {
    outcome: 'facilitator_reported_success',
    x402Version: outcome.payment.x402Version,
    paymentHeader: outcome.payment.header,
    facilitatorTransaction: outcome.receipt.facilitatorTransaction,
    network: outcome.settleResponse.network,
    payer: outcome.receipt.payer,
    payTo: outcome.receipt.payTo,
    amountUnits: outcome.receipt.amountUnits,
    evidence:
      'The facilitator reports the transfer as completed; this receipt records its word (unconfirmed on chain by this service until reconciled against chain 4663).',
    receipt: outcome.receipt,
    receiptStored: outcome.receiptStored,
  };
}

/** X-PAYMENT-RESPONSE and PAYMENT-RESPONSE: the same settle response for both protocol versions. */
export function paymentResponseHeaders(settle: Parameters<typeof encodePaymentResponseHeader>[0]): Record<string, string> {
  const value = encodePaymentResponseHeader(settle);
  return { [X402_HEADERS.v1.paymentResponse]: value, [X402_HEADERS.v2.paymentResponse]: value };
}

/** The authorization id of an outcome, for the reconciliation log line; never a header or the key. */
export function outcomeAuthorizationId(outcome: PaymentOutcome): string | undefined {
  if ('previous' in outcome) return outcome.previous.id;
  if ('payment' in outcome) {
    return authorizationId({
      network: FACILITATOR_LANE.network,
      asset: FACILITATOR_LANE.assetAddress,
      payer: outcome.payment.authorization.from,
      nonce: outcome.payment.authorization.nonce,
    });
  }
  return undefined;
}

/** 503 when this server cannot take payment on the selected lane, labelled with the lane. */
export function requireSettlingLane(lane: LaneSelection): void {
  if (lane.settlesHere) return;
  const message =
    lane.lane === 'partnerCloud'
      ? 'The facilitator lane is not configured; vault services are on the partner-cloud lane (base, USDC), where this server takes no payment'
      : 'The facilitator lane is selected but its configuration is incomplete; no payment is taken until it is fixed';
  const issues = lane.blockers.map((b) => ({ code: 'FACILITATOR_NOT_CONFIGURED', message: b }));
  throw new SvcError('FACILITATOR_NOT_CONFIGURED', message, {
    issues,
    body: { error: { code: 'FACILITATOR_NOT_CONFIGURED', message, issues }, ...chainBlocks(lane) },
  });
}

/** A spec-shaped x402 error: the v1 body `{ x402Version, error, accepts }` and the v2 header. */
function challenge(
  code: string,
  req: BuiltRequirements,
  lane: LaneSelection,
  error: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): SvcError {
  return new SvcError(code, error, {
    body: { ...paymentRequiredV1Body(req, error), code, ...extra, ...chainBlocks(lane) },
    headers: { [X402_HEADERS.v2.paymentRequired]: paymentRequiredHeader(req, error), 'cache-control': 'no-store', ...headers },
  });
}

function envelope(code: string, message: string, lane: LaneSelection, extra: Record<string, unknown> = {}): SvcError {
  return new SvcError(code, message, {
    body: { error: { code, message, issues: [] }, ...extra, ...chainBlocks(lane) },
    headers: { 'cache-control': 'no-store' },
  });
}

const PAYMENT_REQUIRED_TEXT = `${X402_HEADERS.v1.payment} (x402 v1) or ${X402_HEADERS.v2.payment} (x402 v2) header is required`;

function authorizationView(a: { id: string; status: string; receiptId: string | null; serviceName: string }) {
  return { id: a.id, status: a.status, receiptId: a.receiptId, serviceName: a.serviceName };
}

/** The error every outcome but `settled` answers with. */
export function refusalOf(outcome: RefusedOutcome, lane: LaneSelection): SvcError {
  const req = outcome.requirements;
  switch (outcome.kind) {
    case 'payment_required':
      return challenge('X402_PAYMENT_REQUIRED', req, lane, PAYMENT_REQUIRED_TEXT);
    case 'malformed':
      return challenge('X402_PAYMENT_MALFORMED', req, lane, outcome.message, { reason: outcome.reason });
    case 'rejected':
      return challenge('X402_PAYMENT_REJECTED', req, lane, outcome.message, { reason: outcome.reason });
    case 'refused':
      return challenge(
        'X402_SETTLEMENT_REFUSED',
        req,
        lane,
        `The facilitator refused the settlement: ${outcome.reason}${outcome.message ? ` (${outcome.message})` : ''}`,
        { reason: outcome.reason, facilitatorReason: outcome.reason },
        paymentResponseHeaders(outcome.settleResponse),
      );
    case 'nonce_used':
      return envelope(
        'X402_NONCE_USED',
        `This authorization nonce was already presented (status ${outcome.previous.status}); the facilitator is not called again. Sign a new authorization with a fresh nonce.`,
        lane,
        { authorization: authorizationView(outcome.previous) },
      );
    case 'pending_reconciliation':
      return envelope(
        'X402_SETTLEMENT_PENDING_RECONCILIATION',
        'The first presentation of this authorization has no known settlement outcome; it is kept for reconciliation and will not be charged again. Do not pay again for this request.',
        lane,
        { authorization: authorizationView(outcome.previous), doNotPayAgain: true },
      );
    case 'facilitator_call_rejected':
      return envelope(
        'X402_FACILITATOR_CALL_REJECTED',
        `The facilitator rejected the settlement call (HTTP ${outcome.httpStatus}) and reported no settlement; the payment was not taken. This authorization cannot be reused: sign a new one once the lane works.`,
        lane,
      );
    case 'settlement_unknown':
      return envelope(
        'X402_SETTLEMENT_UNKNOWN',
        'The facilitator gave no usable answer, so the settlement outcome is unknown. The authorization is kept with its nonce for reconciliation; do not pay again for this request.',
        lane,
        {
          status: 'settlement_unknown',
          cause: outcome.cause,
          doNotPayAgain: true,
          authorization: {
            id: outcome.authorizationId,
            payer: outcome.payment.authorization.from,
            nonce: outcome.payment.authorization.nonce,
            status: 'settlement_unknown',
          },
          reconciliationRoute: `/api/x402/authorizations/${outcome.payment.authorization.from}/${outcome.payment.authorization.nonce}`,
        },
      );
    case 'report_mismatch':
      return envelope(
        'X402_SETTLEMENT_REPORT_MISMATCH',
        `The facilitator reported a ${outcome.field} that differs from what this server pinned, so the request fails closed: no answer is released, and the authorization and the reported transaction are kept for reconciliation (unconfirmed).`,
        lane,
        {
          field: outcome.field,
          authorization: { id: outcome.authorizationId, status: 'report_mismatch' },
          reportedTransaction: outcome.transaction,
        },
      );
  }
}
