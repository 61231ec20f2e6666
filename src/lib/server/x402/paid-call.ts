/**
 * One paid request on the facilitator lane, in the order that keeps the truth rule "nobody
 * pays for an answer they do not get" (interface 4.8):
 *
 *   payment present? → read and check it → presented before? (then `answerRetry`) → run the
 *   service (its input checked first) → finish the answer (invariants, execution-claim guard,
 *   secret scrub) → store it with the reserved authorization → settle → record the receipt
 *
 * Everything that can refuse the answer runs before the facilitator is called, and once the
 * facilitator reports a settlement nothing is left that can withhold the answer: the payment
 * block added afterwards is the service's own fixed text and hex (`settlementView`).
 *
 * The finished answer is stored with the authorization before `/settle`, so an answer that was
 * paid for is never lost: when the facilitator's answer is lost (a timeout), unusable (a report
 * that does not match) or the buyer's connection drops after settlement, the buyer presents the
 * same authorization again (or, in x402 v2, a new one with the same `payment-identifier`) for
 * the same request, and gets the stored answer once the transfer is known to have happened:
 * settled by the facilitator, or proven on chain 4663 (`chain-proof.ts`). Never a second charge:
 * only the stored authorization is ever settled, and only while the chain shows it unused.
 *
 * Every dependency is passed in (facilitator client, authorization store, chain reader, clocks,
 * service runner, answer finisher), so the router only parses, calls this and shapes the
 * answer, and the MCP server or a test can call the same flow. The refusals' x402 faces (402
 * bodies and the PAYMENT-REQUIRED header) are built here too, from the typed outcome.
 */
import { encodePaymentResponseHeader } from '@x402/core/http';
import type { SettleResponse } from '@x402/core/types';
import { z } from 'zod';
import type { RequestClocks } from '../clock';
import { SvcError } from '../errors';
import type { PaidVaultService } from './catalogue';
import { proveAuthorizationTransfer, type AuthorizationChainReader } from './chain-proof';
import { X402_HEADERS } from './constants';
import type { FacilitatorClient } from './facilitator-client';
import { chainBlocks, type LaneSelection } from './lanes';
import { checkValidityWindow, PaymentMalformed, PaymentRejected, readPaymentHeader, type DecodedPayment } from './payment';
import { paymentReceiptSchema, settlementEvidenceSchema } from './receipts';
import {
  buildRequirements,
  paymentRequiredHeader,
  paymentRequiredV1Body,
  type BuiltRequirements,
  type PinnedFacilitatorLane,
} from './requirements';
import {
  answerKept,
  authorizationId,
  authorizationKeyOf,
  needsReconciliation,
  readPayment,
  recordSettlement,
  requestHashOf,
  settledReceipt,
  settleReserved,
  type AuthorizationStore,
  type PaymentOutcome,
  type SignedAuthorization,
  type StoredAuthorization,
} from './settlement';

export type SettledOutcome = Extract<PaymentOutcome, { kind: 'settled' }>;
export type RefusedOutcome = Exclude<PaymentOutcome, { kind: 'settled' }>;

export interface PaidCallDeps<R, A> {
  facilitator: Pick<FacilitatorClient, 'settle'>;
  store: AuthorizationStore;
  /** Chain 4663, to prove a transfer the facilitator did not confirm; null when no RPC is configured. */
  chain: AuthorizationChainReader | null;
  clocks: RequestClocks;
  /** The recipient and origin pinned by configuration; requirements are rebuilt from them. */
  pinned: PinnedFacilitatorLane;
  /**
   * How long after its last change a `settling` row is taken to be another request's settlement
   * still under way (at least the facilitator's timeout); an older one was cut short.
   */
  settlingInFlightMs: number;
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
  /** What the buyer asked for, as sent: a second presentation must ask for the same to be served. */
  request: unknown;
  /** The code of an unreadable request (the service's input error code). */
  inputErrorCode: string;
}

export type PaidCallResult<A> =
  /** `storedAnswer`: the answer stored at the authorization's first presentation, served again (no new charge). */
  | { kind: 'answered'; answer: A; outcome: SettledOutcome; storedAnswer: boolean }
  /** No payment: the service was not run. Any other refusal: nothing was charged, or the outcome is unknown and kept. */
  | { kind: 'refused'; outcome: RefusedOutcome };

/** The paid call's flow: the answer is finished and stored before settlement, and released only after it. */
export async function payForAnswer<R, A>(deps: PaidCallDeps<R, A>, request: PaidCallRequest): Promise<PaidCallResult<A>> {
  const requirements = buildRequirements(request.service, deps.pinned);
  // The requirements are the whole answer to a missing payment: the service is not run.
  if (!request.payment) return { kind: 'refused', outcome: { kind: 'payment_required', requirements } };
  const read = await readPayment(requirements, request.payment);
  if ('refusal' in read) return { kind: 'refused', outcome: read.refusal };
  const payment = read.payment;
  const requestHash = requestHashOf(request.service, request.request, request.inputErrorCode);
  const call: RetryCall<R, A> = { deps, service: request.service, requirements, payment, requestHash };

  const previous = await findPrevious(deps.store, payment);
  if (previous) return answerRetry(call, previous);

  try {
    checkValidityWindow(payment.authorization, deps.clocks.serverTime);
  } catch (error) {
    if (error instanceof PaymentRejected) {
      return { kind: 'refused', outcome: { kind: 'rejected', requirements, reason: error.reason, message: error.message } };
    }
    throw error;
  }
  const answer = deps.finishAnswer(await deps.runService());
  const row = reservedRow(call, answer);
  // No look-up decides alone: the database's unique keys do, so a replay and a race take the same path.
  if (!(await deps.store.reserve(row, deps.clocks.serverTime))) {
    const raced = await findPrevious(deps.store, payment);
    if (raced) return answerRetry(call, raced);
    throw new Error('the authorization could not be reserved, and no row holds it');
  }
  const outcome = await settleReserved({
    ...settleStep(call),
    authorization: { id: row.id, payer: row.payer, nonce: row.nonce },
    signed: row.signed!,
  });
  if (outcome.kind !== 'settled') return { kind: 'refused', outcome };
  return { kind: 'answered', answer, outcome, storedAnswer: false };
}

interface RetryCall<R, A> {
  deps: PaidCallDeps<R, A>;
  service: PaidVaultService;
  requirements: BuiltRequirements;
  payment: DecodedPayment;
  requestHash: string;
}

/** The row of an authorization presented before: by its own key, else by the payer's payment identifier. */
async function findPrevious(store: AuthorizationStore, payment: DecodedPayment): Promise<StoredAuthorization | null> {
  const byKey = await store.find(authorizationKeyOf(payment.authorization));
  if (byKey || !payment.paymentIdentifier) return byKey;
  return store.findByPaymentIdentifier(payment.authorization.from, payment.paymentIdentifier);
}

function signedOf(payment: DecodedPayment): SignedAuthorization {
  return { x402Version: payment.x402Version, signature: payment.signature, authorization: payment.authorization };
}

function reservedRow<R, A>(call: RetryCall<R, A>, answer: A): StoredAuthorization {
  const key = authorizationKeyOf(call.payment.authorization);
  return {
    ...key,
    id: authorizationId(key),
    serviceName: call.service.name,
    amountUnits: call.requirements.amountUnits,
    payTo: call.requirements.v2.payTo,
    x402Version: call.payment.x402Version,
    status: 'settling',
    facilitatorReason: null,
    transaction: null,
    receiptId: null,
    requestHash: call.requestHash,
    paymentIdentifier: call.payment.paymentIdentifier,
    signed: signedOf(call.payment),
    answer,
    answerKeptUntil: null,
    updatedAt: call.deps.clocks.serverTime,
  };
}

function settleStep<R, A>(call: RetryCall<R, A>) {
  const { deps } = call;
  return {
    service: call.service,
    requirements: call.requirements,
    facilitator: deps.facilitator,
    store: deps.store,
    payment: call.payment,
    answerTime: deps.clocks.answerTime,
    serverTime: deps.clocks.serverTime,
    onStoreError: deps.onStoreError,
  };
}

/** Same signed message: the nonce alone does not say so (a payer can sign two authorizations with one nonce). */
function sameAuthorization(a: SignedAuthorization['authorization'], b: SignedAuthorization['authorization']): boolean {
  return (
    a.from.toLowerCase() === b.from.toLowerCase() &&
    a.to.toLowerCase() === b.to.toLowerCase() &&
    a.value === b.value &&
    a.validAfter === b.validAfter &&
    a.validBefore === b.validBefore &&
    a.nonce.toLowerCase() === b.nonce.toLowerCase()
  );
}

/**
 * A second presentation of an authorization (or of the payer's payment identifier): the stored
 * answer once the transfer is known to have happened, never a second charge. The request must be
 * the one the authorization paid for; anything else is refused as a used nonce.
 */
async function answerRetry<R, A>(call: RetryCall<R, A>, previous: StoredAuthorization): Promise<PaidCallResult<A>> {
  const { deps, requirements } = call;
  const refuse = (outcome: RefusedOutcome): PaidCallResult<A> => ({ kind: 'refused', outcome });
  if (previous.requestHash === null || previous.signed === null) {
    // Presented before answers were kept: nothing to serve, and no request to compare with.
    return refuse(
      needsReconciliation(previous.status)
        ? { kind: 'pending_reconciliation', requirements, previous }
        : { kind: 'nonce_used', requirements, previous, otherRequest: false },
    );
  }
  const byKey = previous.nonce.toLowerCase() === call.payment.authorization.nonce.toLowerCase();
  const sameRequest =
    previous.serviceName === call.service.name &&
    previous.requestHash === call.requestHash &&
    (!byKey || sameAuthorization(previous.signed.authorization, call.payment.authorization));
  if (!sameRequest) return refuse({ kind: 'nonce_used', requirements, previous, otherRequest: true });

  const now = deps.clocks.serverTime;
  const kept = answerKept(previous, now);
  switch (previous.status) {
    case 'settled': {
      const receipt = previous.receiptId ? await deps.store.findReceipt(previous.receiptId) : null;
      if (!kept || !receipt) return refuse({ kind: 'nonce_used', requirements, previous, otherRequest: false });
      return served(call, previous, { receipt, receiptStored: true });
    }
    case 'refused':
    case 'expired_unused':
    case 'used_without_payment':
      return refuse({ kind: 'nonce_used', requirements, previous, otherRequest: false });
    case 'settling':
      if (now.getTime() - previous.updatedAt.getTime() < deps.settlingInFlightMs) {
        return refuse({ kind: 'pending_reconciliation', requirements, previous });
      }
      break;
    case 'settlement_unknown':
    case 'report_mismatch':
      break;
  }
  if (!kept) return refuse({ kind: 'pending_reconciliation', requirements, previous });
  return reconcile(call, previous);
}

/** An unsettled authorization presented again: prove on chain what happened, or settle it now. */
async function reconcile<R, A>(call: RetryCall<R, A>, previous: StoredAuthorization): Promise<PaidCallResult<A>> {
  const { deps, requirements } = call;
  const signed = previous.signed!;
  const now = deps.clocks.serverTime;
  const named = { id: previous.id, payer: previous.payer, nonce: previous.nonce };
  const prove = () =>
    proveAuthorizationTransfer(deps.chain, {
      token: previous.asset,
      authorizer: previous.payer,
      nonce: previous.nonce,
      payTo: previous.payTo,
      value: BigInt(previous.amountUnits),
      validBefore: BigInt(signed.authorization.validBefore),
      reportedTransaction: previous.transaction,
    });
  const provenSettled = async (transaction: string) => {
    const recorded = await recordSettlement({
      store: deps.store,
      id: previous.id,
      receipt: settledReceipt({ ...settleStep(call), signed, transaction, evidence: 'onchain_verified' }),
      serverTime: now,
      onStoreError: deps.onStoreError,
    });
    return served(call, previous, recorded);
  };
  const stillUnknown = (stillPending: { chain: string } | { tooCloseToExpiry: true }): PaidCallResult<A> => ({
    kind: 'refused',
    outcome: {
      kind: 'settlement_unknown',
      requirements,
      payment: call.payment,
      cause: previous.facilitatorReason ?? 'settlement_cut_short',
      authorization: named,
      stillPending,
    },
  });

  const proof = await prove();
  switch (proof.state) {
    case 'transferred':
      return provenSettled(proof.transaction);
    case 'unknown':
      return stillUnknown({ chain: proof.reason });
    case 'used_without_payment':
      await deps.store.finish(previous.id, 'used_without_payment', 'nonce_spent_without_paying_the_price', null, now);
      return { kind: 'refused', outcome: { kind: 'used_without_payment', requirements, previous } };
    case 'unused':
      if (proof.expired) {
        await deps.store.finish(previous.id, 'expired_unused', 'expired_unused_on_chain', null, now);
        return { kind: 'refused', outcome: { kind: 'expired_unused', requirements, previous } };
      }
  }
  try {
    checkValidityWindow(signed.authorization, now);
  } catch {
    // Unused but too close to validBefore to land: final once the chain passes it.
    return stillUnknown({ tooCloseToExpiry: true });
  }
  if (!(await deps.store.claim(previous.id, previous, now))) {
    return { kind: 'refused', outcome: { kind: 'pending_reconciliation', requirements, previous } };
  }
  const outcome = await settleReserved({ ...settleStep(call), authorization: named, signed });
  if (outcome.kind === 'settled') return served(call, previous, outcome);
  if (outcome.kind === 'refused') {
    // A refusal can be the first settlement landing meanwhile: only the chain can tell.
    const again = await prove();
    if (again.state === 'transferred') return provenSettled(again.transaction);
  }
  return { kind: 'refused', outcome };
}

/** The stored answer with its settlement (the presented payment says which headers to answer with). */
function served<R, A>(
  call: RetryCall<R, A>,
  previous: StoredAuthorization,
  recorded: { receipt: SettledOutcome['receipt']; receiptStored: boolean },
): PaidCallResult<A> {
  const network = (
    call.payment.x402Version === 1 ? call.requirements.v1.network : call.requirements.v2.network
  ) as SettleResponse['network'];
  return {
    kind: 'answered',
    answer: previous.answer as A,
    storedAnswer: true,
    outcome: {
      kind: 'settled',
      requirements: call.requirements,
      payment: call.payment,
      ...recorded,
      settleResponse: { success: true, transaction: recorded.receipt.facilitatorTransaction, network, payer: recorded.receipt.payer },
    },
  };
}

export const settlementViewSchema = z.object({
  outcome: z.enum(['facilitator_reported_success', 'onchain_verified']),
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
  storedAnswer: z
    .boolean()
    .describe(
      'true when this is the answer stored at the first presentation of this authorization, served again to a retry of the same request (no new charge)',
    ),
});
export type SettlementView = z.infer<typeof settlementViewSchema>;

const EVIDENCE_TEXT: Record<z.infer<typeof settlementEvidenceSchema>, string> = {
  facilitator_reported:
    'The facilitator reports the transfer as completed; this receipt records its word (unconfirmed on chain by this service until reconciled against chain 4663).',
  onchain_verified:
    'Chain 4663 shows this authorization used by a transaction that moved the price from the payer to the recipient; this receipt records that transaction.',
};

/** The payment block of a paid answer: the facilitator's word or the chain's, labelled as such. */
export function settlementView(outcome: SettledOutcome, storedAnswer: boolean): SettlementView {
  const evidence = outcome.receipt.settlementEvidence;
  return {
    outcome: evidence === 'onchain_verified' ? 'onchain_verified' : 'facilitator_reported_success',
    x402Version: outcome.payment.x402Version,
    paymentHeader: outcome.payment.header,
    facilitatorTransaction: outcome.receipt.facilitatorTransaction,
    network: outcome.settleResponse.network,
    payer: outcome.receipt.payer,
    payTo: outcome.receipt.payTo,
    amountUnits: outcome.receipt.amountUnits,
    evidence: EVIDENCE_TEXT[evidence],
    receipt: outcome.receipt,
    receiptStored: outcome.receiptStored,
    storedAnswer,
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
  if ('authorization' in outcome) return outcome.authorization.id;
  if ('payment' in outcome) return authorizationId(authorizationKeyOf(outcome.payment.authorization));
  return undefined;
}

/** The header a payment value given in a request body stands for, from the x402 version it declares. */
export function headerOfPaymentValue(value: string): string {
  try {
    const decoded = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as { x402Version?: unknown };
    return decoded.x402Version === 1 ? X402_HEADERS.v1.payment : X402_HEADERS.v2.payment;
  } catch {
    return X402_HEADERS.v2.payment;
  }
}

export interface PresentedPaymentRequest {
  /** Reads a request header by name (null when absent). */
  header: (name: string) => string | null;
  /** A payment header value given in the body (the settle route's `paymentHeader`): it wins over the headers. */
  bodyValue?: string;
  service: PaidVaultService;
  /** Only read to refuse a malformed payment with the requirements. */
  pinned: () => PinnedFacilitatorLane;
  lane: LaneSelection;
}

/**
 * The payment a request presents, or undefined when it presents none. Two payment headers at
 * once is a malformed payment, refused with the service's requirements (the 402 challenge),
 * even when the body gives a value.
 */
export function presentedPayment(request: PresentedPaymentRequest): { header: string; value: string } | undefined {
  let payment: { header: string; value: string } | undefined;
  try {
    payment = readPaymentHeader(request.header);
  } catch (error) {
    if (!(error instanceof PaymentMalformed)) throw error;
    const requirements = buildRequirements(request.service, request.pinned());
    throw refusalOf({ kind: 'malformed', requirements, reason: error.reason, message: error.message }, request.lane);
  }
  if (request.bodyValue !== undefined) return { header: headerOfPaymentValue(request.bodyValue), value: request.bodyValue };
  return payment;
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

const RETRY_RULE = 'the same request (same service, same body) with the same payment header';

function nonceUsedText(outcome: Extract<RefusedOutcome, { kind: 'nonce_used' }>): string {
  const status = outcome.previous.status;
  if (outcome.otherRequest) {
    return 'This authorization (or payment identifier) was already presented for another request (another service or body); its answer is not given to this one and the facilitator is not called again. Sign a new authorization with a fresh nonce.';
  }
  if (status === 'settled') {
    return 'This authorization was settled, and its answer is no longer kept (a settled answer is kept 24 hours); the facilitator is not called again. Sign a new authorization with a fresh nonce.';
  }
  return `This authorization was already presented and not paid (status ${status}): nothing was charged, and the facilitator is not called again. Sign a new authorization with a fresh nonce.`;
}

function stillUnknownText(outcome: Extract<RefusedOutcome, { kind: 'settlement_unknown' }>): string {
  const pending = outcome.stillPending;
  if (pending === null) {
    return `The facilitator gave no usable answer, so the settlement outcome is unknown. The answer is kept with the authorization: send ${RETRY_RULE} again to get it once the transfer is known. It is never charged twice; do not pay again.`;
  }
  if ('chain' in pending) {
    return `Still unknown: chain 4663 could not be read to check this authorization (${pending.chain}). The answer stays kept; send ${RETRY_RULE} again later. Do not pay again.`;
  }
  return 'Still unknown: chain 4663 shows this authorization unused, and it is too close to its validBefore to settle now. Once the chain passes validBefore, a retry says that nothing was charged (or serves the answer if the authorization was used). Do not pay again.';
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
      return envelope('X402_NONCE_USED', nonceUsedText(outcome), lane, { authorization: authorizationView(outcome.previous) });
    case 'pending_reconciliation':
      return envelope(
        'X402_SETTLEMENT_PENDING_RECONCILIATION',
        `This authorization is being settled by another request right now (or was first presented before answers were kept); it will not be charged twice. Send ${RETRY_RULE} again in a few seconds; do not pay again.`,
        lane,
        { authorization: authorizationView(outcome.previous), doNotPayAgain: true },
      );
    case 'facilitator_call_rejected':
      return envelope(
        'X402_FACILITATOR_CALL_REJECTED',
        `The facilitator rejected the settlement call (HTTP ${outcome.httpStatus}) and reported no settlement; the payment was not taken. This authorization cannot be reused: sign a new one once the lane works.`,
        lane,
      );
    case 'settlement_unknown': {
      const a = outcome.authorization;
      return envelope('X402_SETTLEMENT_UNKNOWN', stillUnknownText(outcome), lane, {
        status: 'settlement_unknown',
        cause: outcome.cause,
        stillPending: outcome.stillPending,
        doNotPayAgain: true,
        retryWith: RETRY_RULE,
        authorization: { id: a.id, payer: a.payer, nonce: a.nonce, status: 'settlement_unknown' },
        reconciliationRoute: `/api/x402/authorizations/${a.payer}/${a.nonce}`,
      });
    }
    case 'report_mismatch':
      return envelope(
        'X402_SETTLEMENT_REPORT_MISMATCH',
        `The facilitator reported a ${outcome.field} that differs from what this server pinned, so the request fails closed: no answer is released now. The answer is kept with the authorization: send ${RETRY_RULE} again and it is served once chain 4663 shows the price paid to the pinned recipient (or settled then, if the authorization is still unused). It is never charged twice; do not pay again.`,
        lane,
        {
          field: outcome.field,
          doNotPayAgain: true,
          retryWith: RETRY_RULE,
          authorization: { id: outcome.authorizationId, status: 'report_mismatch' },
          reportedTransaction: outcome.transaction,
        },
      );
    case 'expired_unused':
      return challenge(
        'X402_AUTHORIZATION_EXPIRED_UNUSED',
        req,
        lane,
        'This authorization expired unused on chain 4663: nothing was charged, and its answer is not given. Sign a new authorization to pay for this request.',
        { charged: false, authorization: authorizationView({ ...outcome.previous, status: 'expired_unused' }) },
      );
    case 'used_without_payment':
      return envelope(
        'X402_AUTHORIZATION_USED_ELSEWHERE',
        "Chain 4663 shows this authorization's nonce spent by a transaction that did not pay the price to the recipient (cancelled, or used for another transfer): nothing was charged for this service, and its answer is not given.",
        lane,
        { charged: false, authorization: authorizationView({ ...outcome.previous, status: 'used_without_payment' }) },
      );
  }
}
