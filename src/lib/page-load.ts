/**
 * How a page's data load answers a refused call. A page's load is a procedure call like any
 * other (docs/web-app.md#data-loads): it counts against the visitor's per-tool limit, so a
 * spent limit is the page's own 429 state ("too many requests, try again in N s", with
 * `retry-after` on the server-rendered answer), never a 500. A 404 the page names is its
 * "not found" page; anything else is rethrown.
 */
import { error } from '@sveltejs/kit';
import { TRPCClientError } from '@trpc/client';

interface LoadHeaders {
  setHeaders: (headers: Record<string, string>) => void;
}

export function refusedLoad(thrown: unknown, event: LoadHeaders, notFound?: string): never {
  if (thrown instanceof TRPCClientError) {
    const data = thrown.data as { httpStatus?: number; retryAfterSeconds?: number } | undefined;
    if (notFound !== undefined && data?.httpStatus === 404) error(404, notFound);
    if (data?.httpStatus === 429) {
      const retryAfterSeconds = data.retryAfterSeconds ?? 1;
      event.setHeaders({ 'retry-after': String(retryAfterSeconds), 'cache-control': 'no-store' });
      error(429, { message: 'Too many requests', code: 'RATE_LIMITED', retryAfterSeconds });
    }
  }
  throw thrown;
}
