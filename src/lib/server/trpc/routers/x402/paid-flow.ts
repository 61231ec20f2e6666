/**
 * The request wiring of the x402 procedures: the lane selected now, the facilitator client, the
 * pinned recipient, the payment the request presents, and the paid flow (x402/paid-call.ts)
 * called with this request's dependencies and logged once per payment presented.
 */
import { z } from 'zod';
import { brokerChainClient } from '../../../chain-client';
import { x402AuthorizationStore } from '../../../db/x402-payment-repository';
import { SvcError } from '../../../errors';
import { logger } from '../../../logger';
import { findPaidService, PAID_VAULT_SERVICES, type PaidVaultService } from '../../../x402/catalogue';
import { rpcAuthorizationChainReader } from '../../../x402/chain-proof';
import { facilitatorClient } from '../../../x402/facilitator-client';
import { facilitatorLaneState, facilitatorSettingsFrom, vaultServiceLaneOf, type LaneSelection } from '../../../x402/lanes';
import {
  outcomeAuthorizationId,
  paymentResponseHeaders,
  payForAnswer,
  presentedPayment,
  refusalOf,
  settlementView,
  type PaidCallResult,
} from '../../../x402/paid-call';
import { secretValues, type ServiceConfig } from '../../../config';
import { collectCallerStrings, finishAnswer } from '../../../guards/finish-answer';
import type { RequestContext } from '../../context';

export type Ctx = RequestContext;

export function laneOf(cfg: ServiceConfig): LaneSelection {
  return vaultServiceLaneOf(cfg.facilitator);
}

/** Only called once the lane settles here, so the URL and key are set. */
export function facilitatorOf(cfg: ServiceConfig) {
  return facilitatorClient({ url: cfg.facilitator.url!, apiKey: cfg.facilitator.apiKey!, timeoutMs: cfg.facilitator.timeoutMs });
}

export function requireService(name: string): PaidVaultService {
  const service = findPaidService(name);
  if (!service) {
    throw new SvcError('X402_SERVICE_UNKNOWN', 'No paid vault service has this name', {
      issues: [
        {
          code: 'X402_SERVICE_UNKNOWN',
          message: `known services: ${PAID_VAULT_SERVICES.map((s) => s.name).join(', ')}`,
          path: 'serviceName',
        },
      ],
    });
  }
  return service;
}

/** The pinned recipient and public origin; only called once the lane settles here (payTo is set). */
export function pinnedOf(ctx: Ctx) {
  const state = facilitatorLaneState(facilitatorSettingsFrom(ctx.config.facilitator));
  return { payTo: state.payTo!, origin: ctx.config.origin };
}

/** The payment the request presents (see `presentedPayment`). */
export function requestPayment(ctx: Ctx, service: PaidVaultService, lane: LaneSelection, bodyValue?: string) {
  return presentedPayment({ header: (name) => ctx.headers.get(name), bodyValue, service, pinned: () => pinnedOf(ctx), lane });
}

/**
 * Calls the paid flow with this request's dependencies, logs one line per payment presented
 * (ids and outcomes, never a header or the key) and turns the outcome into the answer or its
 * refusal. `request` is what the buyer asked for: a retry must ask for the same.
 */
export async function paid<R, A extends object>(
  ctx: Ctx,
  service: PaidVaultService,
  lane: LaneSelection,
  payment: { header: string; value: string } | undefined,
  request: { body: unknown; inputErrorCode: string },
  runService: () => R | Promise<R>,
  finish: (result: R) => A,
) {
  const chain = brokerChainClient(ctx.config);
  const result: PaidCallResult<A> = await payForAnswer(
    {
      facilitator: facilitatorOf(ctx.config),
      store: x402AuthorizationStore,
      chain: chain ? rpcAuthorizationChainReader(chain) : null,
      clocks: ctx,
      pinned: pinnedOf(ctx),
      // The facilitator call's own limit, plus time for the rows around it.
      settlingInFlightMs: ctx.config.facilitator.timeoutMs + 5_000,
      runService,
      finishAnswer: finish,
      onStoreError: (error) =>
        logger.error(
          {
            event: 'x402_receipt_not_stored',
            requestId: ctx.requestId,
            service: service.name,
            name: error instanceof Error ? error.name : typeof error,
          },
          'x402 receipt not stored',
        ),
    },
    { service, payment, request: request.body, inputErrorCode: request.inputErrorCode },
  );
  const outcome = result.outcome;
  if (outcome.kind !== 'payment_required') {
    logger.info(
      {
        event: 'x402_payment',
        requestId: ctx.requestId,
        service: service.name,
        outcome: outcome.kind,
        storedAnswer: result.kind === 'answered' ? result.storedAnswer : undefined,
        reason: 'reason' in outcome ? outcome.reason : undefined,
        authorizationId: outcomeAuthorizationId(outcome),
        receiptId: outcome.kind === 'settled' ? outcome.receipt.receiptId : undefined,
      },
      'x402 payment',
    );
  }
  if (result.kind === 'refused') throw refusalOf(result.outcome, lane);
  for (const [k, v] of Object.entries(paymentResponseHeaders(result.outcome.settleResponse))) ctx.resHeaders.set(k, v);
  return { answer: result.answer, settlement: settlementView(result.outcome, result.storedAnswer) };
}

/**
 * Finishes the part of a paid answer that exists before settlement (the same function the
 * tRPC middleware applies to every answer): stamped, guarded and scrubbed now, so a refusal
 * happens while nothing has been charged. The procedure's meta says
 * `answerFinishedBeforeSettlement`, so the middleware will not refuse it afterwards.
 */
export function finishBeforeSettlement<S extends z.ZodTypeAny>(ctx: Ctx, input: unknown, schema: S, draft: z.input<S>): z.output<S> {
  return finishAnswer(draft, {
    schema,
    secrets: secretValues(ctx.config),
    callerStrings: () => collectCallerStrings(input),
  }).answer as z.output<S>;
}

export const serviceNameField = z.string().min(1).max(64).describe('a paid vault service name, e.g. vault-risk-score');
