/**
 * What a page shows of a failed call: the envelope's stable code and message, and the
 * field issues, so each form can put an issue next to the field it names.
 */
import { TRPCClientError } from '@trpc/client';
import { FACILITATOR_SETTING_NAMES } from '$lib/shared/setting-names';
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
  /** The HTTP status when the service answered; absent when it was never reached. */
  status?: number;
}

/** A request that never reached the service (offline, the server down, a dropped connection). */
export const NETWORK_FAILED = 'NETWORK_FAILED';

/**
 * What happened and what to do, in a person's words: the headline an alert leads with (the
 * service's code stays as secondary detail), and whether trying again can help.
 */
export function explainError(error: ShownError): { headline: string; advice: string; retryable: boolean } {
  if (error.code === NETWORK_FAILED)
    return {
      headline: 'The service could not be reached.',
      advice: 'Check your connection, then try again. Nothing was sent or signed.',
      retryable: true,
    };
  if (error.code === 'RATE_LIMITED')
    return {
      headline: 'Too many requests for a moment.',
      advice: 'Wait a few seconds, then try again. Nothing was sent or signed.',
      retryable: true,
    };
  if (error.code === 'WALLET_REQUEST_DECLINED')
    return { headline: 'Declined in your wallet.', advice: 'Nothing was signed or sent.', retryable: true };
  if (error.status !== undefined && error.status >= 500)
    return {
      headline: 'The service could not answer just now.',
      advice: 'Try again in a moment; if it keeps failing, the status page says which part is down. Nothing was sent or signed.',
      retryable: true,
    };
  if (error.status === 404) return { headline: 'Not found.', advice: 'Check what you entered; nothing was changed.', retryable: false };
  if (error.status === 401)
    return { headline: 'Sign in first.', advice: 'Sign in with your wallet at the top of the page, then try again.', retryable: false };
  if (error.status === 409)
    return {
      headline: 'This no longer matches.',
      advice: 'Something changed since it was prepared: prepare it again, then retry.',
      retryable: false,
    };
  return {
    headline: 'This needs a change before it can go through.',
    advice: error.issues.length ? 'Each point below says what to change; nothing was sent or signed.' : 'Nothing was sent or signed.',
    retryable: false,
  };
}

/**
 * Messages for people where the service's own message names configuration settings (it is
 * written for operators and agents). The code stays the service's.
 */
const PEOPLE_WORDS: Record<string, string> = {
  PARTNER_NOT_CONFIGURED: "The partner's agent is not connected to this deployment, so it cannot answer.",
  LANE_NOT_ENABLED: "Handing plans to the partner's agent is not switched on for this deployment.",
  FACILITATOR_NOT_CONFIGURED: 'This deployment takes no x402 payments: its facilitator lane is not configured.',
  MODE_B_DISABLED: 'Operator-wallet deposits (Mode B) are switched off on this deployment.',
  PARTNER_KEY_MISSING: "The partner's agent is not connected to this deployment.",
  CHAIN_RPC_NOT_CONFIGURED: 'This deployment cannot read chain 4663, so nothing could be checked on chain.',
};

/** Configuration names (the runtime contract's): never shown to people; a page says what they mean instead. */
export const SETTING_NAMES = [
  'PARTNER_API_URL',
  'PARTNER_API_KEY',
  'PARTNER_AGENT_API_ENABLED',
  'PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD',
  'PARTNER_TIMEOUT_MS',
  'PARTNER_WALLET_ADDRESS',
  'PARTNERBOT_DEPOSIT_EXECUTION_ENABLED',
  'OWNER_APPROVED_PARTNER_WALLET_DEPOSIT',
  'BROKER_CHAIN_RPC_URL',
  'PUBLIC_BROKER_CHAIN_RPC_URL',
  ...FACILITATOR_SETTING_NAMES,
  'STRATEGIST_PROVIDER',
  'DATABASE_URL',
  'REDIS_URL',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW_SECONDS',
];
const SETTING_NAME = new RegExp(`\\b(?:${SETTING_NAMES.join('|')})\\b`);
const SETTING_NAME_ALL = new RegExp(SETTING_NAME.source, 'g');

/** A message a person may read: the service's, unless it names configuration settings. */
export function forPeople(code: string, message: string): string {
  if (PEOPLE_WORDS[code]) return PEOPLE_WORDS[code];
  if (!SETTING_NAME.test(message)) return message;
  return message
    .replace(/\s*\([^)]*\)/g, (group) => (SETTING_NAME.test(group) ? '' : group))
    .replace(SETTING_NAME_ALL, 'a setting of this deployment');
}

/** Any text of the service shown to people (reasons, meanings): configuration names replaced by words. */
export function peopleText(text: string): string {
  return forPeople('', text);
}

export function readError(error: unknown): ShownError {
  const shown = readRawError(error);
  return {
    ...shown,
    message: forPeople(shown.code, shown.message),
    issues: shown.issues.map((i) => ({ ...i, message: forPeople(i.code, i.message) })),
  };
}

function readRawError(error: unknown): ShownError {
  if (isUserRejection(error)) return { code: 'WALLET_REQUEST_DECLINED', message: 'You declined the request in your wallet.', issues: [] };
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as { svcCode?: string; issues?: ShownIssue[]; httpStatus?: number };
    // No answer at all: fetch itself failed (tRPC wraps its TypeError), so the service was never reached.
    if (error.data === undefined && (error.cause instanceof TypeError || /fetch|network/i.test(error.message)))
      return { code: NETWORK_FAILED, message: 'No answer came back from the service.', issues: [] };
    return {
      code: data.svcCode ?? 'REQUEST_FAILED',
      message: error.message,
      issues: Array.isArray(data.issues) ? data.issues : [],
      status: data.httpStatus,
    };
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message))
    return { code: NETWORK_FAILED, message: 'No answer came back from the service.', issues: [] };
  const coded = error as { code?: unknown; message?: unknown } | null;
  if (coded && typeof coded.code === 'string' && typeof coded.message === 'string')
    return { code: coded.code, message: coded.message, issues: [] };
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
  return error.issues.filter(
    (i) => !claimedPaths.some((p) => i.path === prefix + p || i.path?.startsWith(`${prefix}${p}.`) || i.path === p),
  );
}
