/**
 * The envelope of a tool answer (tools and receipt-log families): the tool's name and the
 * answer's time beside its fields, the invariants stamped by the output schema.
 */
import { z } from 'zod';
import { signIssuedIn } from '../../receipts/signature';
import { serviceSigner } from '../../signing-key';
import type { RequestContext } from '../context';
import { stampedOutput } from '../init';

/** The output schema of tool `tool` answering `shape`. */
export const toolFields = <N extends string, T extends z.ZodRawShape>(tool: N, shape: T) =>
  stampedOutput({ tool: z.literal(tool), generatedAt: z.string(), ...shape });

/** The answer of tool `tool`: `fields` at the request's clock, with the receipts it issued signed (`signedAnswer`). */
export function toolAnswer<N extends string, F extends object>(
  tool: N,
  ctx: RequestContext,
  fields: F,
): { tool: N; generatedAt: string } & F {
  return { tool, generatedAt: ctx.answerTime.toISOString(), ...signedAnswer(ctx, fields) };
}

/**
 * An answer's fields with every receipt the service issued for it signed with the service's key
 * at the server's clock (receipts/signature.ts `signIssuedIn`): only branded values the receipt
 * builders made, never an object of a receipt's shape that a caller sent. A receipt that is
 * stored is already signed where it was stored (coil-store.ts `issueReceipt`).
 */
export function signedAnswer<F>(ctx: RequestContext, fields: F): F {
  return signIssuedIn(fields, serviceSigner(ctx.config), ctx.serverTime);
}
