/**
 * What a page shows of a failed call: the envelope's stable code and message, and the
 * field issues, so each form can put an issue next to the field it names.
 */
import { TRPCClientError } from '@trpc/client';
import { isUserRejection } from '$lib/wallet/eip1193';

export interface ShownIssue {
  code: string;
  message: string;
  path?: string;
}

export interface ShownError {
  code: string;
  message: string;
  issues: ShownIssue[];
}

export function readError(error: unknown): ShownError {
  if (isUserRejection(error)) return { code: 'WALLET_REQUEST_DECLINED', message: 'You declined the request in your wallet.', issues: [] };
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as { svcCode?: string; issues?: ShownIssue[]; httpStatus?: number };
    return { code: data.svcCode ?? 'REQUEST_FAILED', message: error.message, issues: Array.isArray(data.issues) ? data.issues : [] };
  }
  const coded = error as { code?: unknown; message?: unknown } | null;
  if (coded && typeof coded.code === 'string' && typeof coded.message === 'string') return { code: coded.code, message: coded.message, issues: [] };
  return { code: 'REQUEST_FAILED', message: error instanceof Error ? error.message : String(error), issues: [] };
}

/**
 * The issues of `error` that belong to a field: the issue's path equals `path` or lies under
 * it (`intent.maxSlippageBps` belongs to `maxSlippageBps` when `prefix` is `intent.`).
 */
export function issuesAt(error: ShownError | null | undefined, path: string, prefix = ''): ShownIssue[] {
  if (!error) return [];
  const full = prefix + path;
  return error.issues.filter((i) => i.path === full || i.path?.startsWith(`${full}.`) || i.path === path);
}

/** Issues that no field of the form claims, shown with the error itself. */
export function unclaimedIssues(error: ShownError | null | undefined, claimedPaths: string[], prefix = ''): ShownIssue[] {
  if (!error) return [];
  return error.issues.filter((i) => !claimedPaths.some((p) => i.path === prefix + p || i.path?.startsWith(`${prefix}${p}.`) || i.path === p));
}
