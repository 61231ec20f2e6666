/**
 * The typed tRPC client the pages use. `AppRouter` is a type-only import: no server code
 * reaches the browser.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '$lib/server/trpc/router';

export type { AppRouter };

/** `headers`: sent with every call of this client (the paid page's one payment header). */
export function createClient(fetchFn: typeof fetch = fetch, baseUrl = '', headers?: Record<string, string>) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/trpc`, fetch: fetchFn, ...(headers ? { headers } : {}) })],
  });
}
