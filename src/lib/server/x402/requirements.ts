/**
 * Payment requirements, built by the server from the catalogue and the pinned configuration
 * only (interface 4.8 seller flow, step 1). Nothing a buyer sends (amount,
 * network, token, recipient) is ever read here: the only inputs are the service, the lane
 * constants, the pinned `payTo` and the server's own public origin.
 *
 * One requirement is expressed in both protocol versions: the v1 body
 * `{ x402Version, error, accepts }` and the v2 `PAYMENT-REQUIRED` header object.
 */
import { encodePaymentRequiredHeader } from '@x402/core/http';
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import type { PaymentRequired, PaymentRequirements, PaymentRequirementsV1 } from '@x402/core/types';
import { z } from 'zod';
import { formatUsdgUnits } from '../vaults/amount';
import type { PaidVaultService } from './catalogue';
import { paidServiceRoute } from './catalogue';
import { FACILITATOR_LANE, MAX_TIMEOUT_SECONDS, X402_SCHEME } from './constants';

export interface PinnedFacilitatorLane {
  /** The checksummed recipient pinned by FACILITATOR_PAYTO_ADDRESS. */
  payTo: string;
  /** The service's public origin (ORIGIN), never the request's Host header. */
  origin: string;
}

/** What every requirement of this lane fixes beyond the protocol's generic types. */
interface TokenTerms {
  scheme: typeof X402_SCHEME;
  extra: { name: string; version: string };
}

export interface BuiltRequirements {
  serviceName: string;
  resourceUrl: string;
  amountUnits: string;
  v1: PaymentRequirementsV1 & TokenTerms;
  v2: PaymentRequirements & TokenTerms;
  resource: { url: string; description: string; mimeType: string };
}

/**
 * The requirements of each service on each pinned lane, built once: they depend on nothing
 * else for the process's life, and every 402 challenge and every settlement rebuilds them.
 * Frozen, so a caller that changed one could not change the next request's.
 */
const builtRequirements = new Map<string, BuiltRequirements>();
const BUILT_REQUIREMENTS_KEPT = 64;

export function buildRequirements(service: PaidVaultService, pinned: PinnedFacilitatorLane): BuiltRequirements {
  const key = JSON.stringify([service.name, service.title, service.priceUnits.toString(), pinned.payTo, pinned.origin]);
  let built = builtRequirements.get(key);
  if (!built) {
    built = deepFreeze(requirementsOf(service, pinned));
    if (builtRequirements.size < BUILT_REQUIREMENTS_KEPT) builtRequirements.set(key, built);
  }
  return built;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function requirementsOf(service: PaidVaultService, pinned: PinnedFacilitatorLane): BuiltRequirements {
  const resourceUrl = `${pinned.origin.replace(/\/+$/, '')}${paidServiceRoute(service.name)}`;
  const amountUnits = service.priceUnits.toString();
  const extra = { name: FACILITATOR_LANE.eip712.name, version: FACILITATOR_LANE.eip712.version };
  const description = `${service.title}: ${formatUsdgUnits(service.priceUnits)} USDG on the broker chain`;
  return {
    serviceName: service.name,
    resourceUrl,
    amountUnits,
    resource: { url: resourceUrl, description, mimeType: 'application/json' },
    v1: {
      scheme: X402_SCHEME,
      network: FACILITATOR_LANE.v1Network as PaymentRequirementsV1['network'],
      maxAmountRequired: amountUnits,
      resource: resourceUrl,
      description,
      mimeType: 'application/json',
      outputSchema: { input: { type: 'http', method: 'POST', bodyType: 'json' } },
      payTo: pinned.payTo,
      maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      asset: FACILITATOR_LANE.assetAddress,
      extra,
    },
    v2: {
      scheme: X402_SCHEME,
      network: FACILITATOR_LANE.network,
      amount: amountUnits,
      asset: FACILITATOR_LANE.assetAddress,
      payTo: pinned.payTo,
      maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      extra,
    },
  };
}

/** The v1 challenge body (spec-shaped: `{ x402Version, error, accepts }`). */
export function paymentRequiredV1Body(req: BuiltRequirements, error: string) {
  return { x402Version: 1 as const, error, accepts: [req.v1] };
}

/**
 * The v2 challenge object carried (base64) in the `PAYMENT-REQUIRED` header. It declares the
 * optional `payment-identifier` extension: a buyer may send an idempotency key with its
 * payment, and a retry with a new authorization under the same key is served the stored answer
 * (the authorization alone is enough too).
 */
export function paymentRequiredV2(req: BuiltRequirements, error: string): PaymentRequired {
  return {
    x402Version: 2,
    error,
    resource: req.resource,
    accepts: [req.v2],
    extensions: { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) },
  };
}

/**
 * Encoded headers of each (frozen, built once) requirements by refusal text: every 402
 * challenge of a service repeats one header, and encoding it was a tenth of a challenge's CPU.
 */
const encodedHeaders = new WeakMap<BuiltRequirements, Map<string, string>>();
const ENCODED_HEADERS_KEPT = 32;

export function paymentRequiredHeader(req: BuiltRequirements, error: string): string {
  let byError = encodedHeaders.get(req);
  if (!byError) encodedHeaders.set(req, (byError = new Map()));
  let header = byError.get(error);
  if (header === undefined) {
    header = encodePaymentRequiredHeader(paymentRequiredV2(req, error));
    if (byError.size < ENCODED_HEADERS_KEPT) byError.set(error, header);
  }
  return header;
}

/** The v1 requirement as the service sends it (the protocol's type plus the token terms). */
export const requirementV1Schema = z.object({
  scheme: z.literal(X402_SCHEME),
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

export const requirementV2Schema = z.object({
  scheme: z.literal(X402_SCHEME),
  network: z.string(),
  amount: z.string(),
  asset: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number().int(),
  extra: z.object({ name: z.string(), version: z.string() }),
});
