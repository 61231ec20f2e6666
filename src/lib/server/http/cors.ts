/**
 * Cross-origin access to the payment routes (x402): a buyer's page on another origin pays for
 * a service with `@x402/fetch` in the browser, so it must be able to send the payment headers
 * and read the challenge and the settlement. Every other route keeps the browser's same-origin
 * rule (no CORS headers; OPTIONS is a 405 there, docs/api.md#paths-and-methods).
 *
 * The origin is `*` and credentials are never allowed: a payment route reads no cookie (a buyer
 * authenticates by payment, interface 5.6), so a page on another origin gains nothing a
 * non-browser client does not already have.
 */
import type { AnswerHeaders, ApiAnswer } from './answer';
import { X402_HEADERS } from '../x402/constants';

const PAYMENT_PATH = /^\/api\/(?:vaults\/)?x402\//;

/** Whether a path is one of the payment routes (`/api/vaults/x402/*`, `/api/x402/*`). */
export function isPaymentPath(pathname: string): boolean {
  return PAYMENT_PATH.test(pathname);
}

/** Response headers a cross-origin buyer must be able to read. */
export const EXPOSED_PAYMENT_HEADERS = [
  X402_HEADERS.v2.paymentRequired,
  X402_HEADERS.v2.paymentResponse,
  X402_HEADERS.v1.paymentResponse,
  'retry-after',
  'x-request-id',
] as const;

/** Request headers a cross-origin buyer may send (besides the CORS-safelisted ones). */
const ALLOWED_REQUEST_HEADERS = ['content-type', X402_HEADERS.v2.payment, X402_HEADERS.v1.payment, 'x-request-id'];

/** The CORS headers of every answer of a payment route (refusals included). */
export function paymentCorsHeaders(): AnswerHeaders {
  return {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_PAYMENT_HEADERS.join(', '),
  };
}

/** The answer to a browser's preflight (OPTIONS with Access-Control-Request-Method) of a payment route. */
export function paymentPreflightAnswer(): ApiAnswer {
  return {
    status: 204,
    headers: {
      ...paymentCorsHeaders(),
      'access-control-allow-methods': 'GET, HEAD, POST',
      'access-control-allow-headers': ALLOWED_REQUEST_HEADERS.join(', '),
      'access-control-max-age': '600',
    },
    body: '',
  };
}
