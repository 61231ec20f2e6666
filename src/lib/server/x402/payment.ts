/**
 * Decoding and checking a buyer's payment: a v1 `X-PAYMENT` or a v2 `PAYMENT-SIGNATURE`
 * header carrying an `exact` EIP-3009 authorization. Every field is checked against the
 * requirements the server rebuilt for this request (never against what the buyer claims
 * to have accepted), and the signature is recovered over the USDG EIP-712 domain.
 *
 * Reasons use the x402 error vocabulary (coinbase/x402 specification v2, section 9) so a
 * standard client understands them.
 */
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { extractAndValidatePaymentIdentifier } from '@x402/extensions/payment-identifier';
import { authorizationTypes } from '@x402/evm';
import { getAddress, isAddress, recoverTypedDataAddress, type Hex } from 'viem';
import { FACILITATOR_LANE, SETTLEMENT_MARGIN_SECONDS, X402_HEADERS, X402_SCHEME } from './constants';
import type { BuiltRequirements } from './requirements';
import type { ServerTime } from '../clock';

export interface Eip3009Authorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

export interface DecodedPayment {
  x402Version: 1 | 2;
  header: string;
  scheme: string;
  network: string;
  /** v2 only: the requirement the buyer says it accepted (checked, never trusted). */
  accepted?: Record<string, unknown>;
  signature: Hex;
  authorization: Eip3009Authorization;
  /** The decoded payload object, forwarded to the facilitator as received. */
  payload: Record<string, unknown>;
  /** v2 only: the buyer's x402 `payment-identifier` (its idempotency key), null when none was sent. */
  paymentIdentifier: string | null;
}

/** A payment that cannot be read at all (x402: invalid payment → HTTP 400). */
export class PaymentMalformed extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** A readable payment that does not satisfy the requirements (x402: payment failed → 402). */
export class PaymentRejected extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** The payment header of a request, or undefined when the buyer sent none. */
export function readPaymentHeader(get: (name: string) => string | null): { header: string; value: string } | undefined {
  const v1 = get(X402_HEADERS.v1.payment);
  const v2 = get(X402_HEADERS.v2.payment);
  if (v1 !== null && v2 !== null) {
    throw new PaymentMalformed(
      'invalid_payload',
      `Send one payment header: ${X402_HEADERS.v1.payment} (x402 v1) or ${X402_HEADERS.v2.payment} (x402 v2), not both`,
    );
  }
  if (v1 !== null) return { header: X402_HEADERS.v1.payment, value: v1.trim() };
  if (v2 !== null) return { header: X402_HEADERS.v2.payment, value: v2.trim() };
  return undefined;
}

const HEX_32 = /^0x[0-9a-fA-F]{64}$/;
const HEX_SIG_65 = /^0x[0-9a-fA-F]{130}$/;
const UINT = /^(?:0|[1-9]\d{0,77})$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Decodes a payment header value into a checked shape; refuses anything unreadable. */
export function decodePayment(header: string, value: string): DecodedPayment {
  const expectedVersion = header === X402_HEADERS.v1.payment ? 1 : 2;
  if (value.length === 0 || value.length > 16_384)
    throw new PaymentMalformed('invalid_payload', `The ${header} header is empty or too long`);
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(value);
  } catch {
    throw new PaymentMalformed('invalid_payload', `The ${header} header is not base64-encoded JSON`);
  }
  if (!isRecord(decoded)) throw new PaymentMalformed('invalid_payload', `The ${header} header does not hold a JSON object`);
  if (decoded.x402Version !== expectedVersion) {
    throw new PaymentMalformed(
      'invalid_x402_version',
      `${header} carries x402 version ${expectedVersion} payloads (${X402_HEADERS.v1.payment} for v1, ${X402_HEADERS.v2.payment} for v2)`,
    );
  }
  let scheme: unknown;
  let network: unknown;
  let accepted: Record<string, unknown> | undefined;
  if (expectedVersion === 1) {
    scheme = decoded.scheme;
    network = decoded.network;
  } else {
    if (!isRecord(decoded.accepted))
      throw new PaymentMalformed('invalid_payload', 'An x402 v2 payment must carry the `accepted` requirement');
    accepted = decoded.accepted;
    scheme = accepted.scheme;
    network = accepted.network;
  }
  if (typeof scheme !== 'string' || typeof network !== 'string') {
    throw new PaymentMalformed('invalid_payload', 'The payment names no scheme or network');
  }
  const payload = decoded.payload;
  if (!isRecord(payload)) throw new PaymentMalformed('invalid_payload', 'The payment carries no `payload` object');
  const auth = payload.authorization;
  const signature = payload.signature;
  if (!isRecord(auth)) {
    // A Permit2 payload (or any other) is readable but not what this lane takes.
    throw new PaymentMalformed(
      'invalid_payload',
      'The payment carries no EIP-3009 `authorization`; this lane takes transferWithAuthorization only',
    );
  }
  const fields = ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'] as const;
  for (const f of fields) {
    if (typeof auth[f] !== 'string') throw new PaymentMalformed('invalid_payload', `authorization.${f} must be a string`);
  }
  const a = auth as unknown as Eip3009Authorization;
  if (!isAddress(a.from, { strict: false }) || !isAddress(a.to, { strict: false })) {
    throw new PaymentMalformed('invalid_payload', 'authorization.from and authorization.to must be 20-byte hex addresses');
  }
  if (!UINT.test(a.value) || !UINT.test(a.validAfter) || !UINT.test(a.validBefore)) {
    throw new PaymentMalformed('invalid_payload', 'authorization.value, validAfter and validBefore must be decimal integer strings');
  }
  if (!HEX_32.test(a.nonce)) throw new PaymentMalformed('invalid_payload', 'authorization.nonce must be 32 bytes of hex');
  if (typeof signature !== 'string' || !HEX_SIG_65.test(signature)) {
    throw new PaymentMalformed('invalid_exact_evm_payload_signature', 'payload.signature must be a 65-byte hex signature');
  }
  return {
    x402Version: expectedVersion,
    paymentIdentifier: expectedVersion === 2 ? paymentIdentifierOf(decoded) : null,
    header,
    scheme,
    network,
    accepted,
    signature: signature as Hex,
    authorization: {
      from: getAddress(a.from),
      to: getAddress(a.to),
      value: a.value,
      validAfter: a.validAfter,
      validBefore: a.validBefore,
      nonce: a.nonce.toLowerCase(),
    },
    payload,
  };
}

/** The payment-identifier extension's id (x402 v2 extensions); one that is sent must be well-formed. */
function paymentIdentifierOf(decoded: Record<string, unknown>): string | null {
  const { id, validation } = extractAndValidatePaymentIdentifier(decoded as unknown as PaymentPayload);
  if (!validation.valid) {
    throw new PaymentMalformed(
      'invalid_payload',
      'The payment-identifier extension is not well-formed: its id is 16 to 128 letters, digits, hyphens or underscores',
    );
  }
  return id;
}

const sameAddress = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * Checks a decoded payment against the rebuilt requirements at the server's real clock
 * (`now`: never a buyer-pinned `nowIso`, which would let an expired authorization
 * through). Throws PaymentRejected with the first failing reason.
 */
export async function checkPayment(payment: DecodedPayment, req: BuiltRequirements, now: ServerTime): Promise<{ payer: string }> {
  checkValidityWindow(payment.authorization, now);
  return checkPaymentTerms(payment, req);
}

/**
 * Whether the authorization can still be settled now: valid already, and valid long enough for
 * the transfer to land. A retry of an authorization presented before is not held to it (a
 * settled one stays paid after it expires); a new settlement always is.
 */
export function checkValidityWindow(auth: Pick<Eip3009Authorization, 'validAfter' | 'validBefore'>, now: ServerTime): void {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (BigInt(auth.validAfter) > BigInt(nowSeconds)) {
    throw new PaymentRejected('invalid_exact_evm_payload_authorization_valid_after', 'The authorization is not valid yet');
  }
  if (BigInt(auth.validBefore) < BigInt(nowSeconds + SETTLEMENT_MARGIN_SECONDS)) {
    throw new PaymentRejected(
      'invalid_exact_evm_payload_authorization_valid_before',
      'The authorization has expired or expires too soon to settle',
    );
  }
}

/**
 * Checks everything but the validity window: scheme, network, accepted terms, recipient, exact
 * amount and the signature over the USDG EIP-712 domain. Throws PaymentRejected.
 */
export async function checkPaymentTerms(payment: DecodedPayment, req: BuiltRequirements): Promise<{ payer: string }> {
  const expectedNetwork = payment.x402Version === 1 ? req.v1.network : req.v2.network;
  if (payment.scheme !== X402_SCHEME) {
    throw new PaymentRejected('invalid_scheme', `Only the ${X402_SCHEME} scheme is accepted`);
  }
  if (payment.network !== expectedNetwork) {
    throw new PaymentRejected('invalid_network', `The payment is for another network; this service is paid on ${expectedNetwork}`);
  }
  if (payment.accepted) {
    const acc = payment.accepted;
    if (!sameAddress(acc.asset, req.v2.asset)) {
      throw new PaymentRejected('invalid_payment_requirements', `The accepted asset is not USDG at ${req.v2.asset}`);
    }
    if (!sameAddress(acc.payTo, req.v2.payTo)) {
      throw new PaymentRejected(
        'invalid_exact_evm_payload_recipient_mismatch',
        'The accepted payTo is not the recipient pinned by this server',
      );
    }
    if (acc.amount !== req.v2.amount) {
      throw new PaymentRejected(
        'invalid_exact_evm_payload_authorization_value',
        `The accepted amount is not the price of ${req.v2.amount} units`,
      );
    }
  }
  const auth = payment.authorization;
  if (!sameAddress(auth.to, req.v2.payTo)) {
    throw new PaymentRejected(
      'invalid_exact_evm_payload_recipient_mismatch',
      'The authorization pays an address other than the recipient pinned by this server',
    );
  }
  if (auth.value !== req.amountUnits) {
    throw new PaymentRejected(
      'invalid_exact_evm_payload_authorization_value',
      `The authorization is for ${auth.value} units; the exact price is ${req.amountUnits} units`,
    );
  }
  let signer: string;
  try {
    signer = await recoverTypedDataAddress({
      domain: {
        name: FACILITATOR_LANE.eip712.name,
        version: FACILITATOR_LANE.eip712.version,
        chainId: FACILITATOR_LANE.chainId,
        verifyingContract: FACILITATOR_LANE.assetAddress as Hex,
      },
      types: authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: auth.from as Hex,
        to: auth.to as Hex,
        value: BigInt(auth.value),
        validAfter: BigInt(auth.validAfter),
        validBefore: BigInt(auth.validBefore),
        nonce: auth.nonce as Hex,
      },
      signature: payment.signature,
    });
  } catch {
    throw new PaymentRejected('invalid_exact_evm_payload_signature', 'The signature cannot be recovered');
  }
  if (!sameAddress(signer, auth.from)) {
    throw new PaymentRejected(
      'invalid_exact_evm_payload_signature',
      'The signature does not recover to authorization.from over the USDG EIP-712 domain (Global Dollar, version 1, chain 4663)',
    );
  }
  return { payer: auth.from };
}
