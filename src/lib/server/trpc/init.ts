/**
 * The tRPC instance, its metadata and the procedure builders every router uses.
 *
 * Shared HTTP rules are applied in two places only: SvelteKit's `handle`
 * (src/hooks.server.ts: request id, logs, body cap and parsing, credential guard, rate
 * limit, output guard, secret scrub) and the middlewares here (clock, invariant stamping,
 * error mapping). No router repeats any of them.
 */
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { resolveClock } from '../clock';
import type { RequestContext } from './context';
import { findSvcError, type ErrorIssue } from '../errors';
import { asTrpcError, toSvcError } from './error-map';

/**
 * Route families of spec 4.1. `tools`, `strategist`, `autonomy`, `vaults` and `x402`
 * payloads carry the two invariants (spec 1).
 */
export type RouteFamily =
  | 'system'
  | 'registry'
  | 'tools'
  | 'strategist'
  | 'stocks'
  | 'autonomy'
  | 'vaults'
  | 'x402'
  | 'auth'
  | 'me';

export const STAMPED_FAMILIES: ReadonlySet<RouteFamily> = new Set(['tools', 'strategist', 'autonomy', 'vaults', 'x402']);

export type SvcMeta = OpenApiMeta<{
  /** Required on every procedure; the route table refuses one without it. */
  family?: RouteFamily;
  /**
   * The top-level error code when the input fails validation. A function receives the
   * dotted path of the first failing field (e.g. tools answer `COIL_SHAPE` for `coil.*`)
   * and that field's issue.
   */
  inputErrorCode?: string | ((firstPath: string, firstIssue?: ErrorIssue) => string);
}>;

const t = initTRPC
  .context<RequestContext>()
  .meta<SvcMeta>()
  .create({
    errorFormatter({ shape, error }) {
      // The typed client sees the same stable code and issues as the REST envelope.
      const svc = toSvcError(error, undefined);
      return { ...shape, message: svc.message, data: { ...shape.data, stack: undefined, svcCode: svc.code, issues: svc.issues } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Sets the answer's clock: `nowIso` in the input (or the query string), else the server's
 * clock. `ctx.serverTime` is left alone: `nowIso` never moves the clock of a check.
 */
const clockMiddleware = t.middleware(async ({ ctx, getRawInput, next }) => {
  const raw = await getRawInput().catch(() => undefined);
  const fromInput =
    raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>).nowIso : undefined;
  const fromQuery = ctx.url.searchParams.get('nowIso') ?? undefined;
  const answerTime = resolveClock(fromInput ?? fromQuery, ctx.serverTime);
  return next({ ctx: { ...ctx, answerTime } });
});

/**
 * Gives a SvcError thrown anywhere below the tRPC class of its status, so the /trpc
 * endpoint answers the same status as the REST route.
 */
const errorStatusMiddleware = t.middleware(async ({ meta, next }) => {
  const result = await next();
  if (result.ok) return result;
  // Input validation fails inside this middleware too: mapping it here with the procedure's
  // meta gives the typed client the same `inputErrorCode` (e.g. COIL_SHAPE) as REST.
  const svc = findSvcError(result.error) ?? (result.error.code === 'BAD_REQUEST' ? toSvcError(result.error, meta) : undefined);
  return svc ? { ...result, error: asTrpcError(svc) } : result;
});

/** Every procedure starts here. */
export const publicProcedure = t.procedure.use(errorStatusMiddleware).use(clockMiddleware);

/** The two invariant fields of spec 1, as the output schemas declare them. */
export const INVARIANTS = { notInvestmentAdvice: true, liveOrderSent: false } as const;

/**
 * Extends an output schema with the invariants. The fields default to their only legal
 * values, so tRPC's output parsing stamps them on every payload of the family, and a
 * payload that ever tried to say `liveOrderSent: true` fails output validation instead of
 * leaving the server.
 */
export function withInvariants<T extends z.ZodRawShape>(schema: z.ZodObject<T>) {
  return schema.extend({
    notInvestmentAdvice: z.literal(true).default(true),
    liveOrderSent: z.literal(false).default(false),
  });
}

/** Shorthand for output schemas of stamped families. */
export function stampedOutput<T extends z.ZodRawShape>(shape: T) {
  return withInvariants(z.object(shape));
}

/** The optional clock field every input accepts (spec 1: "requests accept an optional nowIso"). */
export const nowIsoField = z
  .string()
  .optional()
  .describe('ISO 8601 timestamp with a zone that pins every timestamp of the response');

type OpenApiDef = NonNullable<SvcMeta['openapi']>;

/**
 * The OpenAPI metadata of a REST route. Routes are public unless `protect` is set (only the
 * wallet-scoped `/me` routes), so the document marks the session cookie exactly where it
 * is needed.
 */
export function rest(
  method: OpenApiDef['method'],
  path: OpenApiDef['path'],
  summary: string,
  extra: Partial<OpenApiDef> = {},
): OpenApiDef {
  const tag = path.split('/')[1] ?? 'api';
  return { method, path, summary, tags: [tag], protect: false, ...extra };
}
