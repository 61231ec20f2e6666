/**
 * x402 payment lanes (interface 4.4, 4.8, 5.6): the lane schema and provider directory, the
 * facilitator status and settlement routes, and the paid vault services with their
 * requirements, 402 challenges and payment receipts. Thin: the domain lives in
 * src/lib/server/x402/, persistence in db/x402-payment-repository.ts.
 */
import { getAddress } from 'viem';
import { z } from 'zod';
import { brokerChainClient } from '../../chain-client';
import { findAuthorization, findPaymentReceipt, x402AuthorizationStore } from '../../db/x402-payment-repository';
import { SvcError } from '../../errors';
import { readServerClock } from '../../clock';
import { logger } from '../../http/logger';
import { zodIssues } from '../error-map';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import { feeScheduleSchema, FEE_SCHEDULE } from '../../vaults/fees';
import { x402ArchitectureFromConfig, x402ArchitectureSchema } from '../../x402/architecture';
import { findPaidService, PAID_VAULT_SERVICES, type PaidVaultService } from '../../x402/catalogue';
import { FACILITATOR_LANE, PARTNER_CLOUD_ENDPOINTS, X402_HEADERS, X402_SCHEME } from '../../x402/constants';
import {
  facilitatorLaneConstants,
  facilitatorLaneConstantsSchema,
  facilitatorReachability,
  laneSelectionPreview,
  laneSelectionPreviewSchema,
  priceOf,
  priceSchema,
  providerDirectory,
  providerDirectorySchema,
  reachabilitySchema,
  serviceListing,
  serviceListingSchema,
} from '../../x402/directory';
import { rpcAuthorizationChainReader } from '../../x402/chain-proof';
import { facilitatorClient } from '../../x402/facilitator-client';
import {
  chainBlocks,
  chainBlockFields,
  facilitatorLaneState,
  facilitatorSettingsFrom,
  facilitatorStateSchema,
  laneSelectionSchema,
  vaultServiceLaneOf,
  type LaneSelection,
} from '../../x402/lanes';
import {
  outcomeAuthorizationId,
  paymentResponseHeaders,
  payForAnswer,
  refusalOf,
  requireSettlingLane,
  settlementView,
  settlementViewSchema,
  type PaidCallResult,
} from '../../x402/paid-call';
import { PaymentMalformed } from '../../x402/payment';
import { paymentReceiptSchema, verifyPaymentReceipt } from '../../x402/receipts';
import { buildRequirements, requirementV1Schema, requirementV2Schema } from '../../x402/requirements';
import {
  answerKept,
  authorizationId,
  authorizationStatusSchema,
  needsReconciliation,
  paidServiceInputErrorCode,
  readPaymentHeader,
  runPaidService,
} from '../../x402/settlement';
import { secretValues, type ServiceConfig } from '../../config';
import { collectCallerStrings, finishAnswer } from '../../guards/finish-answer';
import type { RequestContext } from '../context';
import { depositPackDepsFor } from '../vault-shapes';

type Ctx = RequestContext;

function laneOf(cfg: ServiceConfig): LaneSelection {
  return vaultServiceLaneOf(cfg.facilitator);
}

/** Only called once the lane settles here, so the URL and key are set. */
function facilitatorOf(cfg: ServiceConfig) {
  return facilitatorClient({ url: cfg.facilitator.url!, apiKey: cfg.facilitator.apiKey!, timeoutMs: cfg.facilitator.timeoutMs });
}

function requireService(name: string): PaidVaultService {
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
function pinnedOf(ctx: Ctx) {
  const state = facilitatorLaneState(facilitatorSettingsFrom(ctx.config.facilitator));
  return { payTo: state.payTo!, origin: ctx.config.origin };
}

/** The payment header of the request; two at once is a malformed payment, answered with the requirements. */
function requestPaymentHeader(ctx: Ctx, service: PaidVaultService, lane: LaneSelection) {
  try {
    return readPaymentHeader((name) => ctx.headers.get(name));
  } catch (error) {
    if (error instanceof PaymentMalformed) {
      throw refusalOf(
        { kind: 'malformed', requirements: buildRequirements(service, pinnedOf(ctx)), reason: error.reason, message: error.message },
        lane,
      );
    }
    throw error;
  }
}

/**
 * Calls the paid flow with this request's dependencies, logs one line per payment presented
 * (ids and outcomes, never a header or the key) and turns the outcome into the answer or its
 * refusal. `request` is what the buyer asked for: a retry must ask for the same.
 */
async function paid<R, A extends object>(
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

const settleAnswerSchema = stampedOutput({
  serviceName: z.string(),
  settlement: settlementViewSchema,
  generatedAt: z.string(),
  ...chainBlockFields,
});

const paidAnswerSchema = stampedOutput({
  serviceName: z.string(),
  result: z.record(z.string(), z.unknown()),
  payment: settlementViewSchema,
  generatedAt: z.string(),
  ...chainBlockFields,
});

/**
 * Finishes the part of a paid answer that exists before settlement (the same function the
 * tRPC middleware applies to every answer): stamped, guarded and scrubbed now, so a refusal
 * happens while nothing has been charged. The procedure's meta says
 * `answerFinishedBeforeSettlement`, so the middleware will not refuse it afterwards.
 */
function finishBeforeSettlement<S extends z.ZodTypeAny>(ctx: Ctx, input: unknown, schema: S, draft: z.input<S>): z.output<S> {
  return finishAnswer(draft, {
    schema,
    secrets: secretValues(ctx.config),
    callerStrings: () => collectCallerStrings(input),
  }).answer as z.output<S>;
}

const serviceNameField = z.string().min(1).max(64).describe('a paid vault service name, e.g. vault-risk-score');

export const x402Router = router({
  schema: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('GET', '/x402/schema', 'x402 payment lanes per service, with the architecture object', {
        description:
          'Per paid vault service: provider, payment chain, price and settlement asset on the lane selected now, plus the architecture object, the protocol versions and header names. The vault chain (broker chain 4663, USDG) and the x402 payment chain are reported apart.',
      }),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(
      stampedOutput({
        schemaVersion: z.string(),
        architecture: x402ArchitectureSchema,
        scheme: z.literal('exact'),
        x402Versions: z.array(z.number().int()),
        headers: z.object({
          v1: z.object({ challenge: z.string(), payment: z.string(), paymentResponse: z.string() }),
          v2: z.object({ challenge: z.string(), payment: z.string(), paymentResponse: z.string() }),
        }),
        facilitatorApi: z.object({ settle: z.string(), supported: z.string(), verifyRouteUsed: z.literal(false) }),
        services: z.array(serviceListingSchema),
        feeSchedule: feeScheduleSchema,
        generatedAt: z.string(),
        ...chainBlockFields,
      }),
    )
    .query(({ ctx }) => {
      const lane = laneOf(ctx.config);
      return {
        schemaVersion: 'svc-x402-schema-1.0.0',
        architecture: x402ArchitectureFromConfig(ctx.config.facilitator),
        scheme: X402_SCHEME,
        x402Versions: [1, 2],
        headers: {
          v1: {
            challenge: 'HTTP 402 JSON body { x402Version, error, accepts }',
            payment: X402_HEADERS.v1.payment,
            paymentResponse: X402_HEADERS.v1.paymentResponse,
          },
          v2: {
            challenge: X402_HEADERS.v2.paymentRequired,
            payment: X402_HEADERS.v2.payment,
            paymentResponse: X402_HEADERS.v2.paymentResponse,
          },
        },
        facilitatorApi: {
          settle: FACILITATOR_LANE.settleRoute,
          supported: FACILITATOR_LANE.supportedRoute,
          verifyRouteUsed: false as const,
        },
        services: PAID_VAULT_SERVICES.map((s) => serviceListing(s, lane)),
        feeSchedule: FEE_SCHEDULE,
        generatedAt: ctx.answerTime.toISOString(),
        ...chainBlocks(lane),
      };
    }),

  providers: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('GET', '/x402/providers', 'x402 provider directory and per-service lane preview', {
        description:
          'Partner cloud (base, USDC, 11 endpoints), the facilitator (broker chain 4663, USDG, mainnet only) and the disabled self-hosted lane, with the lane each paid vault service uses now and why. Configuration appears as states and setting names, never values.',
      }),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(
      stampedOutput({
        providers: providerDirectorySchema,
        laneSelection: laneSelectionPreviewSchema,
        generatedAt: z.string(),
        ...chainBlockFields,
      }),
    )
    .query(({ ctx }) => {
      const lane = laneOf(ctx.config);
      return {
        providers: providerDirectory(facilitatorLaneState(facilitatorSettingsFrom(ctx.config.facilitator))),
        laneSelection: laneSelectionPreview(PAID_VAULT_SERVICES, lane),
        generatedAt: ctx.answerTime.toISOString(),
        ...chainBlocks(lane),
      };
    }),

  facilitatorStatus: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('GET', '/x402/facilitator/status', 'Facilitator configuration booleans, lane constants and a live reachability check', {
        description: `Booleans for each setting (never values), the lane constants, and, when the server-only key is present, a live call to the facilitator's supported-networks route (GET {facilitator_url}/supported) with a timeout. The key is never shown.`,
      }),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(
      stampedOutput({
        configuration: z.object({
          enabled: z.boolean(),
          apiKeyConfigured: z.boolean(),
          urlConfigured: z.boolean(),
          payToConfigured: z.boolean(),
          facilitatorAddressConfigured: z.boolean(),
          networkConfigured: z.boolean(),
          chainIdConfigured: z.boolean(),
          usdgAddressConfigured: z.boolean(),
        }),
        state: facilitatorStateSchema,
        blockers: z.array(z.string()),
        payTo: z.string().nullable(),
        constants: facilitatorLaneConstantsSchema,
        reachability: reachabilitySchema,
        checkedAt: z
          .string()
          .nullable()
          .describe(
            "the server's clock when the facilitator answered (or failed to); null when it was not contacted. A caller's nowIso never sets it",
          ),
        ...chainBlockFields,
      }),
    )
    .query(async ({ ctx }) => {
      const cfg = ctx.config.facilitator;
      const settings = facilitatorSettingsFrom(cfg);
      const state = facilitatorLaneState(settings);
      const lane = laneOf(ctx.config);
      const reachability = await facilitatorReachability(
        settings,
        // Asked only when the key is set and the URL usable (checked inside), so both are present then.
        facilitatorClient({ url: cfg.url ?? '', apiKey: cfg.apiKey ?? '', timeoutMs: cfg.timeoutMs }),
      );
      const checkFinishedAt = readServerClock();
      return {
        configuration: {
          enabled: cfg.enabled,
          apiKeyConfigured: Boolean(cfg.apiKey),
          urlConfigured: Boolean(cfg.url),
          payToConfigured: Boolean(cfg.payToAddress),
          facilitatorAddressConfigured: Boolean(cfg.address),
          networkConfigured: Boolean(cfg.network),
          chainIdConfigured: Boolean(cfg.chainId),
          usdgAddressConfigured: Boolean(cfg.usdgAddress),
        },
        state: state.state,
        blockers: state.blockers,
        payTo: state.payTo,
        constants: facilitatorLaneConstants(),
        reachability,
        // The time of a check is the server's, never the caller's answer time.
        checkedAt: reachability.checked ? checkFinishedAt.toISOString() : null,
        ...chainBlocks(lane),
      };
    }),

  facilitatorSettle: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('POST', '/x402/facilitator/settle', 'Server-side settlement of a payment for a paid vault service', {
        description:
          'Checks the payment (given as `paymentHeader`, the base64 value of an X-PAYMENT or PAYMENT-SIGNATURE header, or in one of those request headers) against requirements rebuilt by the server, refuses a nonce already seen, settles through POST {facilitator_url}/settle with the server-only key, and records a deterministic payment receipt. The service itself is not run. 503 FACILITATOR_NOT_CONFIGURED until the facilitator lane is configured, before any field of the request is looked at.',
      }),
      answerFinishedBeforeSettlement: true,
    })
    // The lane gate comes before the input is validated: a lane that is off says so first.
    .use(({ ctx, next }) => {
      requireSettlingLane(laneOf(ctx.config));
      return next();
    })
    .input(
      z.object({
        serviceName: serviceNameField,
        paymentHeader: z.string().max(16_384).optional().describe('the base64 value of an X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2) header'),
        nowIso: nowIsoField,
      }),
    )
    .output(settleAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      const lane = laneOf(ctx.config);
      const service = requireService(input.serviceName);
      let paymentHeader = requestPaymentHeader(ctx, service, lane);
      if (input.paymentHeader !== undefined) {
        paymentHeader = { header: headerForValue(input.paymentHeader), value: input.paymentHeader };
      }
      if (!paymentHeader) {
        throw new SvcError('X402_PAYMENT_MISSING', 'Give the payment as `paymentHeader` or in an X-PAYMENT / PAYMENT-SIGNATURE header', {
          issues: [{ code: 'X402_PAYMENT_MISSING', message: 'no payment given', path: 'paymentHeader' }],
        });
      }
      // Settlement only: no service is run, the answer is the receipt.
      const { paymentHeader: _value, ...request } = input;
      const { answer, settlement } = await paid(
        ctx,
        service,
        lane,
        paymentHeader,
        { body: { settleOnly: true, ...request }, inputErrorCode: 'INPUT_INVALID' },
        () => null,
        () =>
          finishBeforeSettlement(ctx, input, settleAnswerSchema.omit({ settlement: true }), {
            serviceName: service.name,
            generatedAt: ctx.answerTime.toISOString(),
            ...chainBlocks(lane),
          }),
      );
      return { ...answer, settlement };
    }),

  serviceRequirements: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest(
        'POST',
        '/vaults/x402/{serviceName}/requirements',
        'Payment requirements of a paid vault service, rebuilt by the server',
        {
          description:
            'Scheme exact, network, amount, asset, payTo (pinned from FACILITATOR_PAYTO_ADDRESS), resource, maxTimeoutSeconds and the token EIP-712 name and version in `extra`, in both x402 versions. Rebuilt on every request: a buyer-supplied amount, network, token or recipient is ignored (and named in `ignoredBuyerFields`). On the partner-cloud lane the answer says so and lists no requirement this server would settle. Unknown service: 404 X402_SERVICE_UNKNOWN.',
        },
      ),
    })
    .input(z.object({ serviceName: serviceNameField, nowIso: nowIsoField }).catchall(z.unknown()))
    .output(
      stampedOutput({
        serviceName: z.string(),
        title: z.string(),
        price: priceSchema,
        lane: laneSelectionSchema,
        x402Version: z.literal(2),
        resource: z.object({ url: z.string(), description: z.string(), mimeType: z.string() }).nullable(),
        accepts: z.array(requirementV2Schema),
        acceptsV1: z.array(requirementV1Schema),
        paymentHeaders: z.object({ v1: z.string(), v2: z.string() }),
        partnerCloudListing: z.string().nullable(),
        ignoredBuyerFields: z.array(z.string()),
        generatedAt: z.string(),
        ...chainBlockFields,
      }),
    )
    .mutation(({ ctx, input }) => {
      const lane = laneOf(ctx.config);
      const service = requireService(input.serviceName);
      const ignoredBuyerFields = Object.keys(input)
        .filter((k) => k !== 'serviceName' && k !== 'nowIso')
        .sort();
      if (lane.lane === 'facilitator') requireSettlingLane(lane);
      const built = lane.settlesHere ? buildRequirements(service, pinnedOf(ctx)) : undefined;
      const listing = PARTNER_CLOUD_ENDPOINTS.find((e) => service.freeRoute !== null && e.mirrors === service.freeRoute)?.name ?? null;
      return {
        serviceName: service.name,
        title: service.title,
        price: priceOf(service, lane),
        lane,
        x402Version: 2 as const,
        resource: built?.resource ?? null,
        accepts: built ? [built.v2] : [],
        acceptsV1: built ? [built.v1] : [],
        paymentHeaders: { v1: X402_HEADERS.v1.payment, v2: X402_HEADERS.v2.payment },
        partnerCloudListing: lane.lane === 'partnerCloud' ? listing : null,
        ignoredBuyerFields,
        generatedAt: ctx.answerTime.toISOString(),
        ...chainBlocks(lane),
      };
    }),

  paidCall: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('POST', '/vaults/x402/{serviceName}', 'A paid vault service (x402): 402 challenge, then settle, run and answer', {
        description:
          "The body is the service's own input. Without X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2): HTTP 402 with the v1 body { x402Version, error, accepts } and the v2 PAYMENT-REQUIRED header. With one: the input is validated first (nothing is charged for an invalid request), the EIP-3009 authorization is checked against requirements rebuilt by the server (scheme, network, asset, amount, payTo, validity window, signature over the USDG EIP-712 domain), then the answer is computed and checked (output guard included) and stored with the authorization, the facilitator settles and a deterministic payment receipt is recorded; the answer is 200 with X-PAYMENT-RESPONSE and PAYMENT-RESPONSE. A facilitator refusal is 402 with its reason; no usable answer is 202 X402_SETTLEMENT_UNKNOWN (do not pay again); a reported payTo, payer, network or amount (compared as a number) other than the pinned one fails closed (502). A retry of the same request with the same payment (or, in x402 v2, the same payment-identifier) gets the stored answer (`payment.storedAnswer: true`) once the transfer is known: settled by the facilitator, or proven on chain 4663; an unused authorization is settled then, once; one that expired unused is 402 X402_AUTHORIZATION_EXPIRED_UNUSED (nothing charged); still unknown is 202 again. The same authorization for another body or service is 409 X402_NONCE_USED.",
      }),
      answerFinishedBeforeSettlement: true,
      unpaidChallenge: { paymentHeaders: [X402_HEADERS.v1.payment, X402_HEADERS.v2.payment] },
    })
    .input(z.object({ serviceName: serviceNameField, nowIso: nowIsoField }).catchall(z.unknown()))
    .output(paidAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      const lane = laneOf(ctx.config);
      const service = requireService(input.serviceName);
      requireSettlingLane(lane);
      const { serviceName: _name, nowIso: _now, ...serviceInput } = input;
      const { answer, settlement } = await paid(
        ctx,
        service,
        lane,
        requestPaymentHeader(ctx, service, lane),
        { body: input, inputErrorCode: paidServiceInputErrorCode(service, '') },
        async () => {
          // Checked before any money moves: an invalid request costs nothing.
          const parsed = service.input.safeParse(serviceInput);
          if (!parsed.success) {
            const issues = zodIssues(parsed.error);
            throw new SvcError(
              paidServiceInputErrorCode(service, issues[0]?.path ?? ''),
              'The request did not match the service input; nothing was charged',
              { issues },
            );
          }
          // Answering before settlement also refuses a semantically invalid request (a fee
          // above its cap, a non-canonical asset, a deposit pack whose ack pins differ or
          // cannot be read) while nothing is charged. The services change nothing: the
          // deposit pack only reads the chain.
          return runPaidService(service, parsed.data, depositPackDepsFor(ctx.config, ctx.answerTime));
        },
        (result) =>
          finishBeforeSettlement(ctx, input, paidAnswerSchema.omit({ payment: true }), {
            serviceName: service.name,
            result,
            generatedAt: ctx.answerTime.toISOString(),
            ...chainBlocks(lane),
          }),
      );
      return { ...answer, payment: settlement };
    }),

  receipt: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('GET', '/x402/receipts/{receiptId}', 'A stored x402 payment receipt, with its hash recomputed'),
    })
    .input(
      z.object({
        receiptId: z.string().regex(/^x402rcpt_[0-9a-f]{32}$/, 'expected x402rcpt_ followed by 32 hex digits'),
        nowIso: nowIsoField,
      }),
    )
    .output(stampedOutput({ receipt: paymentReceiptSchema, hashMatches: z.boolean(), ...chainBlockFields }))
    .query(async ({ ctx, input }) => {
      const lane = laneOf(ctx.config);
      const receipt = await findPaymentReceipt(input.receiptId);
      if (!receipt)
        throw new SvcError('X402_RECEIPT_NOT_FOUND', 'No payment receipt has this id', {
          issues: [{ code: 'X402_RECEIPT_NOT_FOUND', message: 'unknown receipt id', path: 'receiptId' }],
        });
      return { receipt, hashMatches: verifyPaymentReceipt(receipt), ...chainBlocks(lane) };
    }),

  authorization: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('GET', '/x402/authorizations/{payer}/{nonce}', 'Where one EIP-3009 authorization stands (for reconciliation)', {
        description:
          'settling or settlement_unknown: presented, no trustworthy answer yet, its answer kept until a retry of the same request proves the outcome, never charged twice; settled: the facilitator reported success, or chain 4663 showed the transfer (see the receipt); refused: the facilitator refused it; report_mismatch: the facilitator reported something other than what was pinned (a retry checks the chain); expired_unused: chain 4663 showed it unused past validBefore (nothing charged); used_without_payment: its nonce was spent without paying the price to the recipient (nothing charged for this service). `answerKept` says whether the answer it paid for is still kept for a retry.',
      }),
    })
    .input(
      z.object({
        payer: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 20-byte hex address'),
        nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 32-byte hex nonce'),
        nowIso: nowIsoField,
      }),
    )
    .output(
      stampedOutput({
        authorization: z.object({
          id: z.string(),
          serviceName: z.string(),
          payer: z.string(),
          nonce: z.string(),
          payTo: z.string(),
          amountUnits: z.string(),
          x402Version: z.number().int(),
          status: authorizationStatusSchema,
          facilitatorReason: z.string().nullable(),
          facilitatorTransaction: z.string().nullable(),
          receiptId: z.string().nullable(),
          answerKept: z.boolean(),
          answerKeptUntil: z.string().nullable(),
        }),
        reconciliationNeeded: z.boolean(),
        ...chainBlockFields,
      }),
    )
    .query(async ({ ctx, input }) => {
      const lane = laneOf(ctx.config);
      const key = {
        network: FACILITATOR_LANE.network,
        asset: FACILITATOR_LANE.assetAddress,
        payer: getAddress(input.payer),
        nonce: input.nonce.toLowerCase(),
      };
      const row = await findAuthorization(key);
      if (!row) {
        throw new SvcError('X402_AUTHORIZATION_NOT_FOUND', 'This authorization was never presented to this service', {
          issues: [{ code: 'X402_AUTHORIZATION_NOT_FOUND', message: `no record ${authorizationId(key)}`, path: 'nonce' }],
        });
      }
      return {
        authorization: {
          id: row.id,
          serviceName: row.serviceName,
          payer: row.payer,
          nonce: row.nonce,
          payTo: row.payTo,
          amountUnits: row.amountUnits,
          x402Version: row.x402Version,
          status: row.status,
          facilitatorReason: row.facilitatorReason,
          facilitatorTransaction: row.transaction,
          receiptId: row.receiptId,
          answerKept: answerKept(row, ctx.serverTime),
          answerKeptUntil: row.answerKeptUntil?.toISOString() ?? null,
        },
        reconciliationNeeded: needsReconciliation(row.status),
        ...chainBlocks(lane),
      };
    }),
});

/** The header a body-supplied payment value stands for, from the version it declares. */
function headerForValue(value: string): string {
  try {
    const decoded = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as { x402Version?: unknown };
    return decoded.x402Version === 1 ? X402_HEADERS.v1.payment : X402_HEADERS.v2.payment;
  } catch {
    return X402_HEADERS.v2.payment;
  }
}
