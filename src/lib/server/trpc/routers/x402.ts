/**
 * x402 payment lanes (spec 4.4, 4.8, 5.6): the lane schema and provider directory, the
 * facilitator status and settlement routes, and the paid vault services with their
 * requirements, 402 challenges and payment receipts. Thin: the domain lives in
 * src/lib/server/x402/, persistence in db/x402-payment-repository.ts.
 */
import { encodePaymentResponseHeader } from '@x402/core/http';
import { getAddress } from 'viem';
import { z } from 'zod';
import { findAuthorization, findPaymentReceipt, x402AuthorizationStore } from '../../db/x402-payment-repository';
import { SvcError } from '../../errors';
import { logger } from '../../http/logger';
import { zodIssues } from '../error-map';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import { formatUsdgUnits } from '../../vaults/amount';
import { feeScheduleSchema, FEE_SCHEDULE } from '../../vaults/fees';
import { x402ArchitectureFromConfig, x402ArchitectureSchema } from '../../x402/architecture';
import { findPaidService, PAID_VAULT_SERVICES, paidServiceRoute, type PaidVaultService } from '../../x402/catalogue';
import {
  FACILITATOR_LANE,
  MAX_TIMEOUT_SECONDS,
  PARTNER_CLOUD_ENDPOINTS,
  PARTNER_CLOUD_LANE,
  SELF_HOSTED_LANE,
  SETTLEMENT_MARGIN_SECONDS,
  X402_HEADERS,
  X402_SCHEME,
} from '../../x402/constants';
import { checkSupported, type FacilitatorEndpoint } from '../../x402/facilitator-client';
import { chainBlocks, facilitatorLaneState, facilitatorSettingsFrom, vaultServiceLaneOf, type LaneSelection } from '../../x402/lanes';
import { PaymentMalformed } from '../../x402/payment';
import { paymentReceiptSchema, verifyPaymentReceipt } from '../../x402/receipts';
import { buildRequirements, paymentRequiredHeader, paymentRequiredV1Body, type BuiltRequirements } from '../../x402/requirements';
import { authorizationId, paidServiceInputErrorCode, readPaymentHeader, runPaidService, settleServicePayment, type PaymentOutcome } from '../../x402/settlement';
import { secretValues, type ServiceConfig } from '../../config';
import { collectCallerStrings, finishAnswer } from '../../guards/finish-answer';
import type { RequestContext } from '../context';
import { depositPackDepsFor } from '../vault-shapes';
import { chainBlockFields, laneSelectionSchema } from './x402-shapes';


type Ctx = RequestContext;

function laneOf(cfg: ServiceConfig): LaneSelection {
  return vaultServiceLaneOf(cfg.facilitator);
}

function facilitatorEndpoint(cfg: ServiceConfig): FacilitatorEndpoint {
  return { url: cfg.facilitator.url!, apiKey: cfg.facilitator.apiKey!, timeoutMs: cfg.facilitator.timeoutMs };
}

function priceOf(service: PaidVaultService, lane: LaneSelection) {
  return { units: service.priceUnits.toString(), amount: formatUsdgUnits(service.priceUnits), asset: lane.asset, decimals: 6 as const };
}

function requireService(name: string): PaidVaultService {
  const service = findPaidService(name);
  if (!service) {
    throw new SvcError('X402_SERVICE_UNKNOWN', 'No paid vault service has this name', {
      issues: [{ code: 'X402_SERVICE_UNKNOWN', message: `known services: ${PAID_VAULT_SERVICES.map((s) => s.name).join(', ')}`, path: 'serviceName' }],
    });
  }
  return service;
}

/** 503 when this server cannot take payment on the selected lane, labelled with the lane. */
function requireSettlingLane(lane: LaneSelection): void {
  if (lane.settlesHere) return;
  const message =
    lane.lane === 'partnerCloud'
      ? 'The facilitator lane is not configured; vault services are on the partner-cloud lane (base, USDC), where this server takes no payment'
      : 'The facilitator lane is selected but its configuration is incomplete; no payment is taken until it is fixed';
  throw new SvcError('FACILITATOR_NOT_CONFIGURED', message, {
    issues: lane.blockers.map((b) => ({ code: 'FACILITATOR_NOT_CONFIGURED', message: b })),
    body: {
      error: { code: 'FACILITATOR_NOT_CONFIGURED', message, issues: lane.blockers.map((b) => ({ code: 'FACILITATOR_NOT_CONFIGURED', message: b })) },
      ...chainBlocks(lane),
    },
  });
}

/** The pinned recipient and public origin; only called once the lane settles here (payTo is set). */
function pinnedOf(ctx: Ctx) {
  const state = facilitatorLaneState(facilitatorSettingsFrom(ctx.config.facilitator));
  return { payTo: state.payTo!, origin: ctx.config.origin };
}

/** A spec-shaped x402 error: the v1 body `{ x402Version, error, accepts }` and the v2 header. */
function challenge(code: string, req: BuiltRequirements, lane: LaneSelection, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): SvcError {
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

function paymentResponseHeaders(settle: Parameters<typeof encodePaymentResponseHeader>[0]): Record<string, string> {
  const value = encodePaymentResponseHeader(settle);
  return { [X402_HEADERS.v1.paymentResponse]: value, [X402_HEADERS.v2.paymentResponse]: value };
}

/** Turns every outcome but `settled` into its HTTP answer. */
function failOutcome(outcome: Exclude<PaymentOutcome, { kind: 'settled' }>, lane: LaneSelection): never {
  const req = outcome.requirements;
  switch (outcome.kind) {
    case 'payment_required':
      throw challenge('X402_PAYMENT_REQUIRED', req, lane, PAYMENT_REQUIRED_TEXT);
    case 'malformed':
      throw challenge('X402_PAYMENT_MALFORMED', req, lane, outcome.message, { reason: outcome.reason });
    case 'rejected':
      throw challenge('X402_PAYMENT_REJECTED', req, lane, outcome.message, { reason: outcome.reason });
    case 'refused':
      throw challenge(
        'X402_SETTLEMENT_REFUSED',
        req,
        lane,
        `The facilitator refused the settlement: ${outcome.reason}${outcome.message ? ` (${outcome.message})` : ''}`,
        { reason: outcome.reason, facilitatorReason: outcome.reason },
        paymentResponseHeaders(outcome.settleResponse),
      );
    case 'nonce_used':
      throw envelope(
        'X402_NONCE_USED',
        `This authorization nonce was already presented (status ${outcome.previous.status}); the facilitator is not called again. Sign a new authorization with a fresh nonce.`,
        lane,
        { authorization: authorizationView(outcome.previous) },
      );
    case 'pending_reconciliation':
      throw envelope(
        'X402_SETTLEMENT_PENDING_RECONCILIATION',
        'The first presentation of this authorization has no known settlement outcome; it is kept for reconciliation and will not be charged again. Do not pay again for this request.',
        lane,
        { authorization: authorizationView(outcome.previous), doNotPayAgain: true },
      );
    case 'facilitator_call_rejected':
      throw envelope(
        'X402_FACILITATOR_CALL_REJECTED',
        `The facilitator rejected the settlement call (HTTP ${outcome.httpStatus}) and reported no settlement; the payment was not taken. This authorization cannot be reused: sign a new one once the lane works.`,
        lane,
      );
    case 'settlement_unknown':
      throw envelope(
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
      throw envelope(
        'X402_SETTLEMENT_REPORT_MISMATCH',
        `The facilitator reported a ${outcome.field} that differs from what this server pinned, so the request fails closed: the service was not run, and the authorization and the reported transaction are kept for reconciliation (unconfirmed).`,
        lane,
        { field: outcome.field, authorization: { id: outcome.authorizationId, status: 'report_mismatch' }, reportedTransaction: outcome.transaction },
      );
  }
}

function authorizationView(a: { id: string; status: string; receiptId: string | null; serviceName: string }) {
  return { id: a.id, status: a.status, receiptId: a.receiptId, serviceName: a.serviceName };
}

const priceSchema = z.object({ units: z.string(), amount: z.string(), asset: z.string(), decimals: z.literal(6) });

const serviceListingSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  route: z.string(),
  requirementsRoute: z.string(),
  freeRoute: z.string().nullable(),
  provider: z.enum(['facilitator', 'partnerCloud']),
  paymentChain: z.string(),
  network: z.string(),
  price: priceSchema,
  settlementAsset: z.object({ symbol: z.string(), address: z.string(), decimals: z.number().int(), chain: z.string() }),
  settlesHere: z.boolean(),
  reason: z.string(),
});

function serviceListing(service: PaidVaultService, lane: LaneSelection) {
  return {
    name: service.name,
    title: service.title,
    description: service.description,
    route: `POST ${paidServiceRoute(service.name)}`,
    requirementsRoute: `POST ${paidServiceRoute(service.name)}/requirements`,
    freeRoute: service.freeRoute,
    provider: lane.provider,
    paymentChain: lane.paymentChain,
    network: lane.network,
    price: priceOf(service, lane),
    settlementAsset: { symbol: lane.asset, address: lane.assetAddress, decimals: lane.assetDecimals, chain: lane.paymentChain },
    settlesHere: lane.settlesHere,
    reason: lane.reason,
  };
}

const requirementV1Schema = z.object({
  scheme: z.literal('exact'),
  network: z.string(),
  maxAmountRequired: z.string(),
  resource: z.string(),
  description: z.string(),
  mimeType: z.string(),
  outputSchema: z.record(z.string(), z.unknown()),
  payTo: z.string(),
  maxTimeoutSeconds: z.number().int(),
  asset: z.string(),
  extra: z.object({ name: z.string(), version: z.string() }),
});

const requirementV2Schema = z.object({
  scheme: z.literal('exact'),
  network: z.string(),
  amount: z.string(),
  asset: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number().int(),
  extra: z.object({ name: z.string(), version: z.string() }),
});

const settlementViewSchema = z.object({
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
});

function settlementView(outcome: Extract<PaymentOutcome, { kind: 'settled' }>) {
  return {
    outcome: 'facilitator_reported_success' as const,
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
  };
}

async function settleFor(ctx: Ctx, service: PaidVaultService, lane: LaneSelection, paymentHeader: { header: string; value: string } | undefined) {
  const outcome = await settleServicePayment({
    service,
    pinned: pinnedOf(ctx),
    facilitator: facilitatorEndpoint(ctx.config),
    store: x402AuthorizationStore,
    paymentHeader,
    answerTime: ctx.answerTime,
    serverTime: ctx.serverTime,
  });
  // One line per payment presented, for reconciliation: ids and outcomes, never a header or the key.
  if (outcome.kind !== 'payment_required') {
    logger.info(
      {
        event: 'x402_payment',
        requestId: ctx.requestId,
        service: service.name,
        outcome: outcome.kind,
        reason: 'reason' in outcome ? outcome.reason : undefined,
        authorizationId: 'previous' in outcome ? outcome.previous.id : 'payment' in outcome ? authorizationIdOf(outcome.payment) : undefined,
        receiptId: outcome.kind === 'settled' ? outcome.receipt.receiptId : undefined,
      },
      'x402 payment',
    );
  }
  return outcome;
}

function authorizationIdOf(payment: { authorization: { from: string; nonce: string } }): string {
  return authorizationId({ network: FACILITATOR_LANE.network, asset: FACILITATOR_LANE.assetAddress, payer: payment.authorization.from, nonce: payment.authorization.nonce });
}

function requestPaymentHeader(ctx: Ctx, req: () => BuiltRequirements, lane: LaneSelection) {
  try {
    return readPaymentHeader((name) => ctx.headers.get(name));
  } catch (error) {
    if (error instanceof PaymentMalformed) failOutcome({ kind: 'malformed', requirements: req(), reason: error.reason, message: error.message }, lane);
    throw error;
  }
}

const settleAnswerSchema = stampedOutput({ serviceName: z.string(), settlement: settlementViewSchema, generatedAt: z.string(), ...chainBlockFields });

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
          'Per paid vault service: provider, payment chain, price and settlement asset on the lane selected now, plus the architecture object of spec 2.11, the protocol versions and header names. The vault chain (broker chain 4663, USDG) and the x402 payment chain are reported apart.',
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
          v1: { challenge: 'HTTP 402 JSON body { x402Version, error, accepts }', payment: X402_HEADERS.v1.payment, paymentResponse: X402_HEADERS.v1.paymentResponse },
          v2: { challenge: X402_HEADERS.v2.paymentRequired, payment: X402_HEADERS.v2.payment, paymentResponse: X402_HEADERS.v2.paymentResponse },
        },
        facilitatorApi: { settle: FACILITATOR_LANE.settleRoute, supported: FACILITATOR_LANE.supportedRoute, verifyRouteUsed: false as const },
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
        providers: z.object({
          partnerCloud: z.object({
            provider: z.literal('partnerCloud'),
            label: z.string(),
            status: z.literal('live'),
            paymentChain: z.literal('base'),
            chainId: z.literal(8453),
            network: z.string(),
            asset: z.literal('USDC'),
            assetAddress: z.string(),
            assetDecimals: z.literal(6),
            endpointCount: z.number().int(),
            endpoints: z.array(z.object({ name: z.string(), family: z.enum(['tooling', 'autonomy', 'vault_scaffold']), mirrors: z.string() })),
            usedFor: z.string(),
          }),
          facilitator: z.object({
            provider: z.literal('facilitator'),
            label: z.string(),
            status: z.enum(['configured', 'blocked', 'disabled', 'key_missing']),
            paymentChain: z.literal('broker_chain'),
            chainId: z.literal(4663),
            network: z.string(),
            v1Network: z.string(),
            asset: z.literal('USDG'),
            assetAddress: z.string(),
            assetDecimals: z.literal(6),
            mainnetOnly: z.literal(true),
            testnetLane: z.literal(false),
            payToPinned: z.boolean(),
            payTo: z.string().nullable(),
            facilitatorAddress: z.string().nullable(),
            blockers: z.array(z.string()),
            usedFor: z.string(),
          }),
          selfHosted: z.object({ provider: z.literal('selfHosted'), label: z.string(), status: z.literal('disabled'), paymentChain: z.null(), asset: z.null(), usedFor: z.string() }),
        }),
        laneSelection: z.object({
          rule: z.string(),
          vaultServices: z.array(z.object({ service: z.string(), price: priceSchema, lane: laneSelectionSchema })),
        }),
        generatedAt: z.string(),
        ...chainBlockFields,
      }),
    )
    .query(({ ctx }) => {
      const lane = laneOf(ctx.config);
      const state = facilitatorLaneState(facilitatorSettingsFrom(ctx.config.facilitator));
      return {
        providers: {
          partnerCloud: {
            provider: 'partnerCloud' as const,
            label: PARTNER_CLOUD_LANE.label,
            status: 'live' as const,
            paymentChain: PARTNER_CLOUD_LANE.paymentChain,
            chainId: PARTNER_CLOUD_LANE.chainId,
            network: PARTNER_CLOUD_LANE.network,
            asset: PARTNER_CLOUD_LANE.asset,
            assetAddress: PARTNER_CLOUD_LANE.assetAddress,
            assetDecimals: PARTNER_CLOUD_LANE.assetDecimals,
            endpointCount: PARTNER_CLOUD_ENDPOINTS.length,
            endpoints: [...PARTNER_CLOUD_ENDPOINTS],
            usedFor: 'tooling and autonomy services; vault-service scaffolds',
          },
          facilitator: {
            provider: 'facilitator' as const,
            label: FACILITATOR_LANE.label,
            status: state.state,
            paymentChain: FACILITATOR_LANE.paymentChain as 'broker_chain',
            chainId: FACILITATOR_LANE.chainId,
            network: FACILITATOR_LANE.network,
            v1Network: FACILITATOR_LANE.v1Network,
            asset: FACILITATOR_LANE.asset,
            assetAddress: FACILITATOR_LANE.assetAddress,
            assetDecimals: FACILITATOR_LANE.assetDecimals,
            mainnetOnly: true as const,
            testnetLane: false as const,
            payToPinned: state.payTo !== null,
            payTo: state.payTo,
            facilitatorAddress: state.facilitatorAddress,
            blockers: state.blockers,
            usedFor: 'vault x402 services when enabled and configured',
          },
          selfHosted: { provider: 'selfHosted' as const, label: SELF_HOSTED_LANE.label, status: 'disabled' as const, paymentChain: null, asset: null, usedFor: 'research candidate only' },
        },
        laneSelection: {
          rule: 'Vault services use the facilitator lane when FACILITATOR_ENABLED=true and the server-only FACILITATOR_API_KEY is set; otherwise the partner-cloud lane. The chosen lane is always labelled with provider, chain and reason; there is no silent downgrade.',
          vaultServices: PAID_VAULT_SERVICES.map((s) => ({ service: s.name, price: priceOf(s, lane), lane })),
        },
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
        state: z.enum(['disabled', 'key_missing', 'blocked', 'configured']),
        blockers: z.array(z.string()),
        payTo: z.string().nullable(),
        constants: z.object({
          network: z.string(),
          v1Network: z.string(),
          chainId: z.literal(4663),
          asset: z.literal('USDG'),
          assetAddress: z.string(),
          assetDecimals: z.literal(6),
          eip712: z.object({ name: z.string(), version: z.string() }),
          mainnetOnly: z.literal(true),
          scheme: z.literal('exact'),
          settleRoute: z.string(),
          supportedRoute: z.string(),
          verifyRouteUsed: z.literal(false),
          maxTimeoutSeconds: z.number().int(),
          settlementMarginSeconds: z.number().int(),
        }),
        reachability: z.object({
          checked: z.boolean(),
          state: z.enum(['not_checked', 'reachable', 'unauthorized', 'http_error', 'timeout', 'unreachable', 'invalid_answer']),
          httpStatus: z.number().int().nullable(),
          supportsLane: z.boolean().nullable(),
          reportedPayTo: z.string().nullable(),
          payToMatchesPinned: z.boolean().nullable(),
          signers: z.array(z.string()),
          note: z.string(),
        }),
        checkedAt: z.string(),
        ...chainBlockFields,
      }),
    )
    .query(async ({ ctx }) => {
      const cfg = ctx.config.facilitator;
      const state = facilitatorLaneState(facilitatorSettingsFrom(cfg));
      const lane = laneOf(ctx.config);
      let reachability: {
        checked: boolean;
        state: 'not_checked' | 'reachable' | 'unauthorized' | 'http_error' | 'timeout' | 'unreachable' | 'invalid_answer';
        httpStatus: number | null;
        supportsLane: boolean | null;
        reportedPayTo: string | null;
        payToMatchesPinned: boolean | null;
        signers: string[];
        note: string;
      } = {
        checked: false,
        state: 'not_checked',
        httpStatus: null,
        supportsLane: null,
        reportedPayTo: null,
        payToMatchesPinned: null,
        signers: [],
        note: cfg.apiKey ? 'FACILITATOR_URL is not set, so there is nothing to reach' : 'FACILITATOR_API_KEY is not set, so the facilitator is not contacted',
      };
      if (cfg.apiKey && cfg.url && state.blockers.every((b) => !b.startsWith('FACILITATOR_URL'))) {
        const check = await checkSupported(facilitatorEndpoint(ctx.config));
        if (check.state === 'reachable') {
          const laneKinds = check.kinds.filter(
            (k) => k.scheme === X402_SCHEME && (k.network === FACILITATOR_LANE.network || k.network === FACILITATOR_LANE.v1Network),
          );
          const reportedPayTo = laneKinds.map((k) => k.payTo).find((p) => p !== null) ?? null;
          reachability = {
            checked: true,
            state: 'reachable',
            httpStatus: 200,
            supportsLane: laneKinds.length > 0,
            reportedPayTo,
            payToMatchesPinned: reportedPayTo === null || state.payTo === null ? null : reportedPayTo.toLowerCase() === state.payTo.toLowerCase(),
            signers: check.signers,
            note:
              laneKinds.length > 0
                ? 'The facilitator lists the exact scheme on the broker chain.'
                : 'The facilitator answered but does not list the exact scheme on the broker chain.',
          };
        } else {
          reachability = {
            checked: true,
            state: check.state,
            httpStatus: 'httpStatus' in check ? check.httpStatus : null,
            supportsLane: null,
            reportedPayTo: null,
            payToMatchesPinned: null,
            signers: [],
            note: 'The supported-networks route did not give a usable answer.',
          };
        }
      }
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
        constants: {
          network: FACILITATOR_LANE.network,
          v1Network: FACILITATOR_LANE.v1Network,
          chainId: FACILITATOR_LANE.chainId,
          asset: FACILITATOR_LANE.asset,
          assetAddress: FACILITATOR_LANE.assetAddress,
          assetDecimals: FACILITATOR_LANE.assetDecimals,
          eip712: { ...FACILITATOR_LANE.eip712 },
          mainnetOnly: true as const,
          scheme: X402_SCHEME,
          settleRoute: FACILITATOR_LANE.settleRoute,
          supportedRoute: FACILITATOR_LANE.supportedRoute,
          verifyRouteUsed: false as const,
          maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
          settlementMarginSeconds: SETTLEMENT_MARGIN_SECONDS,
        },
        reachability,
        checkedAt: ctx.answerTime.toISOString(),
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
      const req = () => buildRequirements(service, pinnedOf(ctx));
      let paymentHeader = requestPaymentHeader(ctx, req, lane);
      if (input.paymentHeader !== undefined) {
        paymentHeader = { header: headerForValue(input.paymentHeader), value: input.paymentHeader };
      }
      if (!paymentHeader) {
        throw new SvcError('X402_PAYMENT_MISSING', 'Give the payment as `paymentHeader` or in an X-PAYMENT / PAYMENT-SIGNATURE header', {
          issues: [{ code: 'X402_PAYMENT_MISSING', message: 'no payment given', path: 'paymentHeader' }],
        });
      }
      const unpaid = finishBeforeSettlement(ctx, input, settleAnswerSchema.omit({ settlement: true }), {
        serviceName: service.name,
        generatedAt: ctx.answerTime.toISOString(),
        ...chainBlocks(lane),
      });
      const outcome = await settleFor(ctx, service, lane, paymentHeader);
      if (outcome.kind !== 'settled') failOutcome(outcome, lane);
      for (const [k, v] of Object.entries(paymentResponseHeaders(outcome.settleResponse))) ctx.resHeaders.set(k, v);
      return { ...unpaid, settlement: settlementView(outcome) };
    }),

  serviceRequirements: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('POST', '/vaults/x402/{serviceName}/requirements', 'Payment requirements of a paid vault service, rebuilt by the server', {
        description:
          'Scheme exact, network, amount, asset, payTo (pinned from FACILITATOR_PAYTO_ADDRESS), resource, maxTimeoutSeconds and the token EIP-712 name and version in `extra`, in both x402 versions. Rebuilt on every request: a buyer-supplied amount, network, token or recipient is ignored (and named in `ignoredBuyerFields`). On the partner-cloud lane the answer says so and lists no requirement this server would settle. Unknown service: 404 X402_SERVICE_UNKNOWN.',
      }),
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
          "The body is the service's own input. Without X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2): HTTP 402 with the v1 body { x402Version, error, accepts } and the v2 PAYMENT-REQUIRED header. With one: the input is validated first (nothing is charged for an invalid request), the EIP-3009 authorization is checked against requirements rebuilt by the server (scheme, network, asset, amount, payTo, validity window, signature over the USDG EIP-712 domain), a nonce already seen is refused (409), then the facilitator settles and a deterministic payment receipt is recorded; the answer is 200 with X-PAYMENT-RESPONSE and PAYMENT-RESPONSE. A facilitator refusal is 402 with its reason; no usable answer is 202 X402_SETTLEMENT_UNKNOWN (kept for reconciliation: do not pay again); a reported payTo other than the pinned one fails closed (502). The answer is computed and checked (output guard included) before settlement: after a successful settlement the buyer always gets it.",
      }),
      answerFinishedBeforeSettlement: true,
    })
    .input(z.object({ serviceName: serviceNameField, nowIso: nowIsoField }).catchall(z.unknown()))
    .output(paidAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      const lane = laneOf(ctx.config);
      const service = requireService(input.serviceName);
      requireSettlingLane(lane);
      const req = () => buildRequirements(service, pinnedOf(ctx));
      const paymentHeader = requestPaymentHeader(ctx, req, lane);
      if (!paymentHeader) failOutcome({ kind: 'payment_required', requirements: req() }, lane);

      // Validate the service's input before any money moves: an invalid request costs nothing.
      const { serviceName: _name, nowIso: _now, ...serviceInput } = input;
      const parsed = service.input.safeParse(serviceInput);
      if (!parsed.success) {
        const issues = zodIssues(parsed.error);
        throw new SvcError(paidServiceInputErrorCode(service, issues[0]?.path ?? ''), 'The request did not match the service input; nothing was charged', { issues });
      }
      // Answering first means a semantically invalid request (a fee above its cap, a
      // non-canonical asset, a deposit pack whose ack pins differ or cannot be read) is refused
      // before settlement, and the answer is only released once the facilitator reports the
      // payment. The services change nothing: the deposit pack only reads the chain.
      const result = await runPaidService(service, parsed.data, depositPackDepsFor(ctx.config, ctx.answerTime));
      // Everything that could refuse the answer (invariant stamping, the execution-claim
      // guard, the secret scrub) runs now, before any money moves; the payment block added
      // after settlement is the service's own fixed text and hex (settlementView).
      const unpaid = finishBeforeSettlement(ctx, input, paidAnswerSchema.omit({ payment: true }), {
        serviceName: service.name,
        result,
        generatedAt: ctx.answerTime.toISOString(),
        ...chainBlocks(lane),
      });

      const outcome = await settleFor(ctx, service, lane, paymentHeader);
      if (outcome.kind !== 'settled') failOutcome(outcome, lane);
      for (const [k, v] of Object.entries(paymentResponseHeaders(outcome.settleResponse))) ctx.resHeaders.set(k, v);
      return { ...unpaid, payment: settlementView(outcome) };
    }),

  receipt: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('GET', '/x402/receipts/{receiptId}', 'A stored x402 payment receipt, with its hash recomputed'),
    })
    .input(z.object({ receiptId: z.string().regex(/^x402rcpt_[0-9a-f]{32}$/, 'expected x402rcpt_ followed by 32 hex digits'), nowIso: nowIsoField }))
    .output(stampedOutput({ receipt: paymentReceiptSchema, hashMatches: z.boolean(), ...chainBlockFields }))
    .query(async ({ ctx, input }) => {
      const lane = laneOf(ctx.config);
      const receipt = await findPaymentReceipt(input.receiptId);
      if (!receipt) throw new SvcError('X402_RECEIPT_NOT_FOUND', 'No payment receipt has this id', { issues: [{ code: 'X402_RECEIPT_NOT_FOUND', message: 'unknown receipt id', path: 'receiptId' }] });
      return { receipt, hashMatches: verifyPaymentReceipt(receipt), ...chainBlocks(lane) };
    }),

  authorization: publicProcedure
    .meta({
      family: 'x402',
      openapi: rest('GET', '/x402/authorizations/{payer}/{nonce}', 'Where one EIP-3009 authorization stands (for reconciliation)', {
        description:
          'settling or settlement_unknown: presented, no trustworthy answer yet, kept for reconciliation and never charged again; settled: the facilitator reported success (see the receipt); refused: the facilitator refused it; report_mismatch: the facilitator reported something other than what was pinned.',
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
          status: z.enum(['settling', 'settled', 'refused', 'settlement_unknown', 'report_mismatch']),
          facilitatorReason: z.string().nullable(),
          facilitatorTransaction: z.string().nullable(),
          receiptId: z.string().nullable(),
        }),
        reconciliationNeeded: z.boolean(),
        ...chainBlockFields,
      }),
    )
    .query(async ({ ctx, input }) => {
      const lane = laneOf(ctx.config);
      const key = { network: FACILITATOR_LANE.network, asset: FACILITATOR_LANE.assetAddress, payer: getAddress(input.payer), nonce: input.nonce.toLowerCase() };
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
        },
        reconciliationNeeded: row.status === 'settling' || row.status === 'settlement_unknown' || row.status === 'report_mismatch',
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
