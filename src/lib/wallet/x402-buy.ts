/**
 * Buying one paid answer from a page, in the order x402 wants it (docs/x402.md): ask the
 * server for the requirement, have the wallet sign exactly that (`signPayment`), then send the
 * request with the signature and read the stored copy of the payment receipt. Used by /paid and
 * by the vault pages' analysis, so both pay the same way.
 */
import type { PaymentRequirements, ResourceInfo } from '@x402/core/types';
import type { inferRouterOutputs } from '@trpc/server';
import { createClient, type AppRouter } from '$lib/trpc';
import type { Eip1193Provider } from './eip1193';
import { signPayment } from './x402-pay';

export type PaidAnswer = inferRouterOutputs<AppRouter>['x402']['paidCall'];
export type StoredPaymentReceipt = inferRouterOutputs<AppRouter>['x402']['receipt'];

/**
 * Refusals whose outcome is not known yet (the facilitator's answer was lost, or differs from
 * what was pinned, or another request is settling it): the buyer must not pay again, and a
 * retry with the same authorization is never charged twice (docs/x402.md, "When the answer
 * does not arrive"). A request that got no answer at all is the same case. Every other
 * refusal happens before any money moves: nothing was charged.
 */
export const OUTCOME_UNKNOWN = new Set([
  'X402_SETTLEMENT_UNKNOWN',
  'X402_SETTLEMENT_PENDING_RECONCILIATION',
  'X402_SETTLEMENT_REPORT_MISMATCH',
  'REQUEST_FAILED',
]);

/** One signed request: a retry sends exactly this again (same body, same authorization). */
export interface PaidAttempt {
  serviceName: string;
  input: Record<string, unknown>;
  header: string;
}

/** The server's requirement for the service, signed in the wallet. Nothing is sent to the chain. */
export async function signForService(
  provider: Eip1193Provider,
  account: string,
  serviceName: string,
  input: Record<string, unknown>,
): Promise<PaidAttempt> {
  const req = await createClient().x402.serviceRequirements.mutate({ serviceName });
  const accepted = req.accepts[0];
  if (!accepted)
    throw { code: 'LANE_NOT_SETTLING_HERE', message: 'This deployment offers no payment requirement this server would settle.' };
  const signed = await signPayment(
    provider,
    account,
    accepted as unknown as PaymentRequirements,
    (req.resource ?? undefined) as ResourceInfo | undefined,
  );
  return { serviceName, input, header: signed.header };
}

/** Sends a signed request; the answer, and the server's stored copy of its receipt when it can be read. */
export async function sendPaidAttempt(attempt: PaidAttempt): Promise<{ answer: PaidAnswer; stored: StoredPaymentReceipt | null }> {
  const paid = createClient(fetch, '', { 'PAYMENT-SIGNATURE': attempt.header });
  const answer = await paid.x402.paidCall.mutate({ serviceName: attempt.serviceName, ...attempt.input });
  // The answer and its receipt are shown either way; the stored copy is a second check.
  const stored = await createClient()
    .x402.receipt.query({ receiptId: answer.payment.receipt.receiptId })
    .catch((): StoredPaymentReceipt | null => null);
  return { answer, stored };
}
