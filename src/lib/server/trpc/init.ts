/**
 * The tRPC instance, its metadata and the procedure builders every router uses.
 *
 * Shared rules are applied in two places only: the API front (src/lib/server/http/front.ts:
 * request id, logs, body cap and parsing, credential guard, the limit of requests that reach
 * no procedure) and the service middleware here, the procedure-call layer (the per-tool rate
 * limit, answer finishing: output guard and secret scrub; error mapping; clock; the invariant
 * stamp on errors, and through the output schemas on answers). No router repeats any of them,
 * and every call gets them: each call of a /trpc batch, an MCP tool call, a page's load, a
 * procedure called through the server-side caller.
 */
import { initTRPC, type TRPCError } from '@trpc/server';
import { z } from 'zod';
import { resolveClock, type AnswerTime } from '../clock';
import type { RequestContext } from './context';
import { secretValues } from '../config';
import { isDatabaseUnavailable } from '../db/unavailable';
import { findSvcError, SvcError } from '../errors';
import { collectCallerStrings, finishAnswer, finishError, OutputGuardBlocked } from '../guards/finish-answer';
import { requireWellFormedInput } from '../guards/input-text';
import { logger, logInternalError } from '../logger';
import { countCall } from '../rate-limit/counters';
import { asTrpcError, toSvcError } from './error-map';
import { isSignedReceiptVersion } from '../receipts/signature';
import { rateKeyOf } from './route-table';
import { STAMPED_FAMILIES, type SvcMeta } from './meta';

/** The two invariant fields of interface 1, as the output schemas declare them. */
export const INVARIANTS = { notInvestmentAdvice: true, liveOrderSent: false } as const;

/**
 * Whether a procedure's payloads are tool or autonomy payloads, which carry the invariants
 * on every payload, errors included (interface 1): it backs an MCP tool, or its family is one
 * of STAMPED_FAMILIES. Its answers declare them in the output schema (`withInvariants`,
 * held to it by tests/unit/invariant-stamp.test.ts); its errors get them from `errorOfCall`.
 */
export function carriesInvariants(meta: SvcMeta | undefined): boolean {
  return meta?.tool !== undefined || (meta?.family !== undefined && STAMPED_FAMILIES.has(meta.family));
}

/** The same refusal, rendered with the invariants wherever it is written (REST, /trpc, MCP). */
export function stampedError(error: SvcError): SvcError {
  if (error.invariants) return error;
  return new SvcError(error.code, error.message, {
    issues: error.issues,
    body: error.body,
    headers: error.headers,
    invariants: true,
    cause: error,
  });
}

/** A refusal of a call of this procedure, stamped when its payloads carry the invariants. */
export function errorOfCall(error: SvcError, meta: SvcMeta | undefined): SvcError {
  return carriesInvariants(meta) ? stampedError(error) : error;
}

/**
 * Counts one call of a procedure against its own counter (`rateKeyOf`: its REST route) for a
 * client; a spent counter throws the 429 as a refusal of that call (`errorOfCall`). Step 1 of
 * the service middleware below, and what a REST answer served from memory instead of a call
 * costs (http/dispatch.ts `rememberedAnswer`), so the two count and refuse alike.
 */
export async function countProcedureCall(clientAddress: string, meta: SvcMeta | undefined, path: string): Promise<void> {
  try {
    await countCall(clientAddress, rateKeyOf(meta, path));
  } catch (error) {
    throw error instanceof SvcError ? errorOfCall(error, meta) : error;
  }
}

const t = initTRPC
  .context<RequestContext>()
  .meta<SvcMeta>()
  .create({
    errorFormatter({ shape, error }) {
      // The typed client sees the same stable code and issues as the REST envelope, the
      // invariants of a tool payload and, for a 429, the seconds to wait.
      const svc = toSvcError(error, undefined);
      const retryAfter = svc.headers?.['retry-after'];
      return {
        ...shape,
        message: svc.message,
        data: {
          ...shape.data,
          stack: undefined,
          svcCode: svc.code,
          issues: svc.issues,
          ...(retryAfter ? { retryAfterSeconds: Number(retryAfter) } : {}),
          ...(svc.invariants ? INVARIANTS : {}),
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * The answer's clock: `nowIso` in the input (or the query string), else the server's clock.
 * `ctx.serverTime` is left alone: `nowIso` never moves the clock of a check.
 */
function answerTimeOf(raw: unknown, ctx: RequestContext): AnswerTime {
  const fromInput = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>).nowIso : undefined;
  const fromQuery = ctx.url.searchParams.get('nowIso') ?? undefined;
  return resolveClock(fromInput ?? fromQuery, ctx.serverTime);
}

/**
 * The service's rules around every procedure call, whichever way it came (REST, each call of
 * a /trpc batch, an MCP tool call, a page's load, the server-side caller), in this order:
 *
 * 1. the rate limit: one point of the procedure's own counter (`rateKeyOf`: its REST route),
 *    per client; a spent counter is 429 RATE_LIMITED with `retry-after`, and nothing below runs;
 * 2. well-formed input: input text that is not Unicode (a lone surrogate) or a number beyond
 *    the range of a double is a 400 naming the field, before any procedure or gate reads it;
 * 3. the clock: sets `answerTime` (see `answerTimeOf`);
 * 4. error status: a SvcError thrown anywhere below becomes the tRPC class of its status, so
 *    the /trpc endpoint answers the same status as REST (input validation fails inside this
 *    middleware too, and is mapped with the procedure's `inputErrorCode`);
 * 5. answer finishing: the execution-claim guard and the secret scrub of
 *    guards/finish-answer.ts on the result object (or the error), before anything serialises
 *    it. The output schema has already stamped the invariants on an answer (the output parser
 *    runs inside); an error of a tool or autonomy procedure is stamped here (`errorOfCall`);
 * 6. the signature check: receipts are signed where they are issued (procedure-kit/tool-answer.ts
 *    `signedAnswer`, coil-store.ts `persistReceipt`), only the branded values the receipt builders
 *    make (issue 34 item 5); a receipt of a signed version leaving without a signature block is
 *    logged here as the bug it is (`unsigned_receipt`), never signed by its shape.
 *
 * One middleware rather than four: tRPC copies its options and the context at every layer;
 * a call of `system.health` through the server-side caller took 48 µs with four and takes
 * 27 µs with one (docs/performance.md).
 */
const serviceMiddleware = t.middleware(async ({ ctx, meta, path, getRawInput, next }) => {
  try {
    await countProcedureCall(ctx.clientAddress, meta, path);
  } catch (error) {
    if (!(error instanceof SvcError)) throw error;
    for (const [name, value] of Object.entries(error.headers ?? {})) ctx.resHeaders.set(name, value);
    throw asTrpcError(error);
  }
  const raw = await getRawInput().catch(() => undefined);
  const options = {
    secrets: secretValues(ctx.config),
    callerStrings: () => collectCallerStrings(raw, Object.fromEntries(ctx.url.searchParams)),
    callerPaths: meta?.callerPaths,
  };
  const where = { requestId: ctx.requestId, path: ctx.url.pathname };

  /** Step 5 for a failure: the error to answer with, finished and stamped. */
  const finishedFailure = (error: TRPCError): TRPCError => {
    const svc = findSvcError(error);
    if (!svc) {
      if (error.code === 'INTERNAL_SERVER_ERROR') logInternalError(error.cause ?? error, where);
      return carriesInvariants(meta) ? asTrpcError(stampedError(toSvcError(error, meta))) : error;
    }
    // A paid answer blocked before settlement arrives here already refused.
    if (svc instanceof OutputGuardBlocked)
      logger.error({ event: 'output_guard', ...where, blockedPath: svc.blockedPath }, 'execution claim blocked');
    const finished = finishError(svc, options);
    if (finished.blockedPath !== undefined)
      logger.error({ event: 'output_guard', ...where, blockedPath: finished.blockedPath }, 'execution claim blocked');
    if (finished.report.secretScrubbed)
      logger.error({ event: 'secret_scrubbed', ...where }, 'a configuration secret was about to leave in a response');
    const stamped = errorOfCall(finished.error, meta);
    return stamped === svc ? error : asTrpcError(stamped);
  };

  // Refusals before the procedure runs (malformed input, a malformed nowIso) get their own
  // status here: thrown past this middleware, tRPC would answer them as 500s on /trpc.
  let answerTime: AnswerTime;
  try {
    requireWellFormedInput(raw);
    answerTime = answerTimeOf(raw, ctx);
  } catch (error) {
    const svc = findSvcError(error);
    if (!svc) throw error;
    throw finishedFailure(asTrpcError(svc));
  }

  const result = await next({ ctx: { answerTime } });

  if (!result.ok) {
    const svc =
      findSvcError(result.error) ??
      (result.error.code === 'BAD_REQUEST' || isDatabaseUnavailable(result.error) ? toSvcError(result.error, meta) : undefined);
    const statused = svc ? asTrpcError(svc) : result.error;
    const finished = finishedFailure(statused);
    return finished === result.error ? result : { ...result, error: finished };
  }
  try {
    const guardClaims = !meta?.answerFinishedBeforeSettlement;
    const { answer, report } = finishAnswer(result.data, { ...options, guardClaims });
    if (report.secretScrubbed)
      logger.error({ event: 'secret_scrubbed', ...where }, 'a configuration secret was about to leave in a response');
    const unsigned = unsignedReceiptPath(answer);
    if (unsigned !== null)
      logger.error({ event: 'unsigned_receipt', ...where, unsignedPath: unsigned }, 'a receipt left without a signature');
    return { ...result, data: answer };
  } catch (error) {
    if (!(error instanceof OutputGuardBlocked)) throw error;
    logger.error({ event: 'output_guard', ...where, blockedPath: error.blockedPath }, 'execution claim blocked');
    throw asTrpcError(errorOfCall(error, meta));
  }
});

/** The path of the first receipt of a signed version without a signature block in an answer, or null. */
function unsignedReceiptPath(value: unknown, path = '', depth = 0): string | null {
  if (depth > 64 || value === null || typeof value !== 'object') return null;
  if (isSignedReceiptVersion(value) && (value as Record<string, unknown>).signature === undefined) return path || '/';
  for (const [key, item] of Object.entries(value)) {
    const found = unsignedReceiptPath(item, `${path}/${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Every procedure starts here. */
export const publicProcedure = t.procedure.use(serviceMiddleware);

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

/** The optional clock field every input accepts (interface 1: "requests accept an optional nowIso"). */
export const nowIsoField = z.string().optional().describe('ISO 8601 timestamp with a zone that pins every timestamp of the response');

/**
 * A query-string integer: digits only, parsed explicitly. REST inputs are never coerced
 * (http/dispatch.ts `restInput`), so a query number arrives as a string and is read here.
 */
export function queryInt(opts: { min?: number; max?: number } = {}) {
  return z
    .union([
      z.number().int(),
      z
        .string()
        .regex(/^-?\d+$/, 'expected an integer')
        .transform(Number),
    ])
    .pipe(
      z
        .number()
        .int()
        .min(opts.min ?? Number.MIN_SAFE_INTEGER)
        .max(opts.max ?? Number.MAX_SAFE_INTEGER),
    );
}

type OpenApiDef = NonNullable<SvcMeta['openapi']>;

/**
 * The OpenAPI metadata of a REST route. Routes are public unless `protect` is set (only the
 * wallet-scoped `/me` routes), so the document marks the session cookie exactly where it
 * is needed.
 */
export function rest(method: OpenApiDef['method'], path: OpenApiDef['path'], summary: string, extra: Partial<OpenApiDef> = {}): OpenApiDef {
  const tag = path.split('/')[1] ?? 'api';
  return { method, path, summary, tags: [tag], protect: false, ...extra };
}
