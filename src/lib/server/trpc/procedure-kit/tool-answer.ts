/**
 * The envelope of a tool answer (tools and receipt-log families): the tool's name and the
 * answer's time beside its fields, the invariants stamped by the output schema.
 */
import { z } from 'zod';
import type { RequestContext } from '../context';
import { stampedOutput } from '../init';

/** The output schema of tool `tool` answering `shape`. */
export const toolFields = <N extends string, T extends z.ZodRawShape>(tool: N, shape: T) =>
  stampedOutput({ tool: z.literal(tool), generatedAt: z.string(), ...shape });

/** The answer of tool `tool`: `fields` at the request's clock. */
export function toolAnswer<N extends string, F extends object>(
  tool: N,
  ctx: RequestContext,
  fields: F,
): { tool: N; generatedAt: string } & F {
  return { tool, generatedAt: ctx.answerTime.toISOString(), ...fields };
}
