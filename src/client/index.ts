/**
 * The typed client of the Strategy Basket Service: `import { createSvcClient } from
 * 'strategy-basket-service/client'`. A tRPC client (`@trpc/client`) over the service's `/trpc`
 * endpoint, typed by the service's own router, so every call's input and answer are the
 * procedures' zod schemas as TypeScript types. The package ships this module compiled with
 * declaration files generated when it is packed (scripts/build-client.mjs); nothing of the
 * server runs in the caller's process: the router is imported as a type only.
 */
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../lib/server/trpc/router';

export type { AppRouter };
/** The input of every procedure, e.g. `SvcInputs['tools']['validateCoil']`. */
export type SvcInputs = inferRouterInputs<AppRouter>;
/** The answer of every procedure, e.g. `SvcOutputs['system']['registry']`. */
export type SvcOutputs = inferRouterOutputs<AppRouter>;

/** The service's refusals as the client sees them: `error.data.svcCode` is the stable code of the REST envelope. */
export type SvcClientError = TRPCClientError<AppRouter>;

/** The most calls one batch may carry (docs/api.md#batches): a larger batch is refused whole. */
export const SVC_MAX_BATCH_CALLS = 50;

export interface SvcClientOptions {
  /** The service's origin, e.g. `http://localhost:3000` (the client calls `<url>/trpc`). */
  url: string;
  /** Send concurrent calls in one HTTP request (at most 50 per batch). Default false: one request per call. */
  batch?: boolean;
  /** Headers of every request, e.g. `{ cookie: 'svc_session=…' }` for the wallet-scoped procedures. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * A typed client of the service.
 *
 * @example
 * const svc = createSvcClient({ url: 'http://localhost:3000' });
 * const registry = await svc.system.registry.query();
 * const { validation } = await svc.tools.validateCoil.mutate({ coil });
 */
export function createSvcClient(options: SvcClientOptions) {
  const url = `${options.url.replace(/\/+$/, '')}/trpc`;
  const common = { url, headers: options.headers, fetch: options.fetch };
  return createTRPCClient<AppRouter>({
    links: [options.batch ? httpBatchLink({ ...common, maxItems: SVC_MAX_BATCH_CALLS }) : httpLink(common)],
  });
}

/** Whether an error thrown by a call is the service's refusal (with its stable code), and which. */
export function svcErrorCode(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = (error as SvcClientError).data as { svcCode?: unknown } | undefined;
  return typeof data?.svcCode === 'string' ? data.svcCode : undefined;
}
