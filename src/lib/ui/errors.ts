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
  'FACILITATOR_ENABLED',
  'FACILITATOR_API_KEY',
  'FACILITATOR_URL',
  'FACILITATOR_NETWORK',
  'FACILITATOR_CHAIN_ID',
  'FACILITATOR_USDG_ADDRESS',
  'FACILITATOR_ADDRESS',
  'FACILITATOR_PAYTO_ADDRESS',
  'FACILITATOR_TIMEOUT_MS',
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
    return { code: data.svcCode ?? 'REQUEST_FAILED', message: error.message, issues: Array.isArray(data.issues) ? data.issues : [] };
  }
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
