/**
 * The typed tRPC client the pages use. `AppRouter` is a type-only import: no server code
 * reaches the browser.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '$lib/server/trpc/router';

export type { AppRouter };

export function createClient(fetchFn: typeof fetch = fetch, baseUrl = '') {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/trpc`, fetch: fetchFn })],
  });
}
